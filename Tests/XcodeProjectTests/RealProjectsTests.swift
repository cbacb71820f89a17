import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Lints each real open-source project of `../shared/projects/` (see its SOURCES.md) as a new user
/// would, in a fresh clone (a copy committed in a git work tree of its own, as
/// `../shared/tools/score-real-projects.py` lints it), and holds every finding to the verdict an
/// outside judge gave it at its severity (`Tests/Ecosystem/<case>/labels.tsv`, the rubric of
/// REAL-PROJECTS.md, in the docs folder beside the projects): a finding without a verdict at its severity is a behaviour
/// change nobody judged; an error must have been judged true or plausible; a finding judged true or
/// plausible must still be there. `Scripts/ecosystem.py check` adds the precision goals.
final class RealProjectsTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let projects = repository.deletingLastPathComponent().appendingPathComponent("shared/projects")
    static let labels = repository.appendingPathComponent("Tests/Ecosystem")

    struct Label: Hashable {
        var rule: String
        var path: String
        var line: Int
        var verdict: String
        var severity: String
    }

    static func labels(of folder: String) throws -> [Label] {
        let text = try String(contentsOf: labels.appendingPathComponent(folder).appendingPathComponent("labels.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        func column(_ name: String) throws -> Int { try XCTUnwrap(header.firstIndex(of: name), "labels.tsv of \(folder) has no \(name) column") }
        let (r, p, l, v, s) = (try column("rule"), try column("path"), try column("line"), try column("verdict"), try column("severity"))
        return lines.map { Label(rule: $0[r], path: $0[p], line: Int($0[l]) ?? 0, verdict: $0[v], severity: $0[s]) }
    }

    /// A copy of the case committed in a git work tree of its own, as a fresh clone has it.
    func freshClone(_ folder: String) throws -> URL {
        let dir = try Fixture.temporaryDirectory(self).appendingPathComponent(folder)
        try FileManager.default.copyItem(at: Self.projects.appendingPathComponent(folder), to: dir)
        for name in ["COMMIT", "CUT.tsv", "VERDICT.md", "labels.tsv", "misses.tsv"] {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
        for args in [["init", "-q"], ["add", "-A"], ["-c", "user.name=x", "-c", "user.email=x@x", "-c", "commit.gpgsign=false", "commit", "-qm", "case"]] {
            let git = Process()
            git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            git.arguments = ["git"] + args
            git.currentDirectoryURL = dir
            git.standardOutput = FileHandle.nullDevice
            git.standardError = FileHandle.nullDevice
            try git.run()
            git.waitUntilExit()
            XCTAssertEqual(git.terminationStatus, 0, "git \(args.joined(separator: " ")) in \(folder)")
        }
        return dir
    }

    func testEveryRealProjectGivesTheFindingsItsJudgesAgreedWith() throws {
        guard FileManager.default.fileExists(atPath: Self.projects.path) else {
            throw XCTSkip("../shared/projects is absent (../shared beside the repository holds the real projects): real-project test skipped")
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.projects.path)
            .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
        let judged = Set(try FileManager.default.contentsOfDirectory(atPath: Self.labels.path))
        XCTAssertEqual(Set(folders).subtracting(judged), [], "every project has its verdicts in Tests/Ecosystem")
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        for folder in folders where judged.contains(folder) {
            let clone = try freshClone(folder)
            _ = FileManager.default.changeCurrentDirectoryPath(clone.path)
            // The date the scorer lints with (its default `--now`), so that expiry findings match.
            let result = try Fixture.lint(["."]) { $0.settings.now = PlistDate(year: 2026, month: 11, day: 23, hour: 0, minute: 0, second: 0) }
            var pool = try Self.labels(of: folder)
            for f in result.findings {
                let found = pool.firstIndex { $0.rule == f.rule && $0.path == f.path && $0.line == f.line }
                guard let i = found else {
                    XCTFail("\(folder): no verdict for \(f.path):\(f.line): \(f.severity.rawValue): \(f.message) [\(f.rule)]")
                    continue
                }
                let label = pool.remove(at: i)
                XCTAssertEqual(label.severity, f.severity.rawValue, "\(folder): judged at another severity: \(f.path):\(f.line) [\(f.rule)]")
                if f.severity == .error {
                    XCTAssertTrue(["true", "plausible"].contains(label.verdict), "\(folder) would fail the run with no real defect: \(f.message)")
                }
            }
            for gone in pool where ["true", "plausible"].contains(gone.verdict) {
                XCTFail("\(folder): a finding judged \(gone.verdict) is gone: \(gone.rule) \(gone.path):\(gone.line)")
            }
            // The lock file and the report key units by name.
            let names = result.units.map(\.name)
            XCTAssertEqual(Set(names).count, names.count, "\(folder): two units share a name")
        }
    }
}
