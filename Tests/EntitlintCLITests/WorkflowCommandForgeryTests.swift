import Foundation
import XCTest
import TestSupport

/// Everything Entitlint prints, read as the GitHub Actions runner reads a step's log
/// (`RunnerCommandParser`), on a repository whose file names and values forge workflow commands
/// after the white space the runner trims (NBSP, U+3000, a tab) and in the legacy `##[` form in
/// the middle of a line. The only commands found are the `github` format's annotations of the
/// real findings; never `add-mask`, `stop-commands`, or an annotation an input wrote.
final class WorkflowCommandForgeryTests: XCTestCase, WritesFixtures {
    /// Marks in the forged commands: each must reach the output (so the test sees the hostile
    /// text), and none may reach the runner as a command.
    static let secrets = ["secretA", "secretB", "tokenC", "secretD", "secretE", "tokenF", "secretG"]

    static func entitlements(_ groups: [String]) -> String {
        CLI.entitlements(groups)
    }

    /// The hostile repository: four files named to forge commands, one file of forging values,
    /// one that draws a notice on standard error.
    func hostileRepository() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.entitlements(["ABCDE12345.*"]), "\u{A0}::add-mask::secretA.entitlements", in: dir)
        try write(Self.entitlements(["ABCDE12345.*"]), "\u{3000}::error file=Forged.swift,line=1::secretB by name.entitlements", in: dir)
        try write(Self.entitlements(["ABCDE12345.*"]), "\t::stop-commands::tokenC.entitlements", in: dir)
        try write(Self.entitlements(["ABCDE12345.*"]), "mid ##[add-mask]secretD.entitlements", in: dir)
        try write(Self.entitlements([
            "ABCDE12345.*\n\u{A0}::add-mask::secretE",
            "ABCDE12345.*&#13;\u{3000}::error file=Forged.swift,line=2::forged value",
            "ABCDE12345.x ##[stop-commands]tokenF",
        ]), "values.entitlements", in: dir)
        // A loose file using a setting nothing sets: a notice on standard error names it.
        try write(Self.entitlements(["$(UNSET_PREFIX)com.example.x"]), "notice ##[add-mask]secretG.entitlements", in: dir)
        return dir
    }

    struct Captured {
        var what: String
        var text: String
    }

    /// Every run's standard output and standard error (and the job summary), but the `github`
    /// format's standard output, which is returned apart.
    func everyOutput(in dir: URL) throws -> (github: String, others: [Captured], findings: [[String: Any]]) {
        var others: [Captured] = []
        func record(_ args: [String], _ r: CLI.Result) {
            others.append(Captured(what: args.joined(separator: " ") + " (stdout)", text: r.stdout))
            others.append(Captured(what: args.joined(separator: " ") + " (stderr)", text: r.stderr))
        }
        let summary = dir.deletingLastPathComponent().appendingPathComponent("summary-\(UUID().uuidString).md")
        addTeardownBlock { try? FileManager.default.removeItem(at: summary) }
        var github = ""
        for format in ["text", "json", "sarif", "junit", "checkstyle", "github", "gitlab"] {
            let args = ["lint", ".", "--format", format]
            let r = try CLI.run(args, in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            if format == "github" {
                github = r.stdout
                others.append(Captured(what: "lint github (stderr)", text: r.stderr))
            } else {
                record(args, r)
            }
        }
        others.append(Captured(what: "job summary", text: try String(contentsOf: summary, encoding: .utf8)))
        let json = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        let findings = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])

        for args in [["lint", ".", "--report", "sarif:-"], ["lint", ".", "--report", "junit:-", "--format", "json"],
                     ["lint", ".", "--write-baseline", "-"], ["lock", ".", "--lock", "-"],
                     ["explain", "wildcard-access-group"], ["rules"]] {
            record(args, try CLI.run(args, in: dir))
        }
        for format in ["text", "markdown", "json", "dot", "html"] {
            let args = ["report", ".", "--format", format]
            record(args, try CLI.run(args, in: dir))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".entitlements") }
        XCTAssertEqual(names.count, 6)
        for name in names {
            for format in ["text", "json", "plist"] {
                let args = ["inspect", name, "--format", format]
                record(args, try CLI.run(args, in: dir))
            }
        }
        // Notes that print unit names and baseline entries at the start of indented lines: a
        // lock, then every default moved (the lock refuses and lists them); a baseline whose
        // entries no longer match.
        record(["lock", "."], try CLI.run(["lock", "."], in: dir))
        record(["lint", "--write-baseline"], try CLI.run(["lint", ".", "--write-baseline", "baseline.json"], in: dir))
        for name in names {
            try write(Self.entitlements(["ABCDE12345.com.example.moved"]), name, in: dir)
        }
        let refused = try CLI.run(["lock", "."], in: dir)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("secretA"), refused.stderr)
        record(["lock", ". (moved)"], refused)
        record(["lint", "--baseline"], try CLI.run(["lint", ".", "--baseline", "baseline.json", "--select", "wildcard-access-group"], in: dir))
        // Errors that quote arguments and configuration keys.
        record(["lint", "--format", "forged"], try CLI.run(["lint", "--format", "\u{3000}::add-mask::secretA ##[stop-commands]tokenC"], in: dir))
        let config = try CLI.temporaryDirectory(self)
        try write("\"\\u00a0::add-mask::secretB ##[stop-commands]tokenF\": 1\n", ".entitlint.yml", in: config)
        record(["lint", "(hostile configuration key)"], try CLI.run(["lint", "."], in: config))
        return (github, others, findings)
    }

    func testNoOutputOfAnyCommandOrFormatForgesAWorkflowCommand() throws {
        let dir = try hostileRepository()
        // Printed as they are, the names forge commands: add-mask, error, stop-commands, add-mask.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().joined(separator: "\n")
        XCTAssertEqual(Set(RunnerCommandParser.commands(in: names).map(\.name)), ["add-mask", "error", "stop-commands"])
        let (github, others, findings) = try everyOutput(in: dir)
        for output in others {
            XCTAssertEqual(RunnerCommandParser.commands(in: output.text), [], "\(output.what):\n\(output.text)")
        }
        // The hostile text did reach the output (guarded, not dropped).
        let all = others.map(\.text).joined() + github
        for secret in Self.secrets { XCTAssertTrue(all.contains(secret), "\(secret) is shown somewhere") }
        XCTAssertTrue(others.contains { $0.what == "lint github (stderr)" && $0.text.contains("entitlint: notice:") && $0.text.contains("secretG") },
                      "the notice on standard error quotes the hostile name")

        // The github format: exactly one annotation per finding, on the finding's file and line.
        let commands = RunnerCommandParser.commands(in: github)
        XCTAssertFalse(findings.isEmpty)
        func key(_ kind: String, _ file: String?, _ line: String?) -> String { "\(kind) \(file ?? "-") \(line ?? "-")" }
        let expected = findings.map { f -> String in
            let severity = f["severity"] as? String
            let line = (f["line"] as? Int).map { $0 > 0 ? String($0) : nil } ?? nil
            // The format writes a control character of a value (the tab of a name) as an escape.
            let path = (f["path"] as? String)?.replacingOccurrences(of: "\t", with: "\\t")
            return key(severity == "note" ? "notice" : severity ?? "?", path, line)
        }.sorted()
        let found = commands.map { key($0.name, $0.properties["file"], $0.properties["line"]) }.sorted()
        XCTAssertEqual(found, expected, github)
        XCTAssertTrue(commands.allSatisfy { $0.form == "::" && $0.properties["title"]?.hasPrefix("entitlint: ") == true }, "\(commands)")
        XCTAssertFalse(commands.contains { ["add-mask", "stop-commands"].contains($0.name) || $0.properties["file"] == "Forged.swift" })
        XCTAssertTrue(found.contains { $0.contains("\u{A0}::add-mask::secretA.entitlements") }, "a hostile name is an annotation's file, as it is: \(found)")
    }

    /// `inspect --format plist` prints a plist as it is, unless its bytes would forge a command:
    /// then the same values, written by Entitlint with the command's characters as references,
    /// and a note. A binary plist too (its bytes cannot be changed where they stand).
    func testInspectPlistOfAFileThatWouldForgeACommandPrintsTheSameValuesRewritten() throws {
        let dir = try CLI.temporaryDirectory(self)
        let values = ["ABCDE12345.*\n\u{A0}::add-mask::secret", "ABCDE12345.x ##[stop-commands]token", "a\r\u{3000}::error::x"]
        try PropertyListSerialization.data(fromPropertyList: ["keychain-access-groups": values], format: .binary, options: 0)
            .write(to: dir.appendingPathComponent("binary.entitlements"))
        try write(Self.entitlements(["ABCDE12345.*\n\u{A0}::add-mask::secret", "ABCDE12345.x ##[stop-commands]token", "a&#13;\u{3000}::error::x"]),
                  "xml.entitlements", in: dir)
        for name in ["binary.entitlements", "xml.entitlements"] {
            let r = try CLI.run(["inspect", name, "--format", "plist"], in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(RunnerCommandParser.commands(in: r.stdout + r.stderr), [], r.stdout)
            XCTAssertTrue(r.stderr.contains("note: the plist holds text a CI log would read as a workflow command"), r.stderr)
            let read = try XCTUnwrap(try ExternalTool.plistlibValue(r.stdout) as? [String: Any], r.stdout)
            XCTAssertEqual(Array(read.keys), ["keychain-access-groups"])
            XCTAssertEqual(read["keychain-access-groups"] as? [String], values, name)
        }
        // A plist with nothing to guard is printed as it is, byte for byte.
        let plain = Self.entitlements(["ABCDE12345.com.example.App"])
        try write(plain, "plain.entitlements", in: dir)
        let r = try CLI.run(["inspect", "plain.entitlements", "--format", "plist"], in: dir)
        XCTAssertEqual(r.stdout, plain)
        XCTAssertEqual(r.stderr, "")
    }
}
