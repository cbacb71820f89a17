import Foundation
import XCTest
import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import TestSupport
@testable import EntitlintKit

/// A run over changed files (`--staged`, `--changed-since`) lints the app family of each changed
/// unit: the project rules' findings on the host's unchanged extensions that the change causes are
/// reported, those that were there before it are not, and a change to a loose file reads nothing more.
final class StagedFamilyTests: GitTestCase {
    static let spec = SyntheticProject.spec("Suite", targets: [
        SpecTarget("App", bundleID: "com.example.App", entitlements: "App/App.entitlements", dependencies: ["Share", "Widget"]),
        SpecTarget("Share", type: "app-extension", bundleID: "com.example.App.Share", entitlements: "Share/Share.entitlements"),
        SpecTarget("Widget", type: "app-extension", bundleID: "com.example.App.Widget", entitlements: "Widget/Widget.entitlements"),
    ]) + "\n"
    static let shared = "$(AppIdentifierPrefix)com.example.shared"
    static let own = "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"
    /// The host saves to the shared group by default, as its extensions read it.
    static let host = CLI.entitlements([shared, own])
    /// The host's own App ID first: Share, which lists only the shared group, no longer reaches
    /// what the host saves without a group.
    static let reordered = CLI.entitlements([own, shared])

    /// A committed project: App embeds Share (only the shared group: consistent with the host)
    /// and Widget (its own App ID first, which the host does not list: a finding from the start).
    func project() throws -> URL {
        try SyntheticProject.write(["project.yml": Self.spec, "App/App.entitlements": Self.host,
                                    "Share/Share.entitlements": CLI.entitlements([Self.shared]),
                                    "Widget/Widget.entitlements": CLI.entitlements([Self.own, Self.shared])],
                                   in: try CLI.temporaryDirectory(self), git: .committed("one"))
    }

    func testStagedReportsWhatAHostChangeBreaksInItsUnchangedExtension() throws {
        let dir = try project()
        let all = try entitlint(["lint", "--no-color", "."], in: dir)
        XCTAssertTrue(all.stdout.contains("Widget/Widget.entitlements:"), all.stdout)
        XCTAssertFalse(all.stdout.contains("Share/Share.entitlements:"), "Share is consistent with the committed host:\n\(all.stdout)")

        // The host reordered in the index, the work tree as committed: --staged reads the index.
        try write(Self.reordered, "App/App.entitlements", in: dir)
        try git(["add", "App/App.entitlements"], in: dir)
        try write(Self.host, "App/App.entitlements", in: dir)
        let staged = try entitlint(["lint", "--no-color", "--strict", "--staged"], in: dir)
        XCTAssertEqual(staged.status, 1, "the finding the change causes fails the commit:\n\(staged.stdout)\(staged.stderr)")
        XCTAssertTrue(staged.stdout.contains("Share/Share.entitlements:7:3: warning: the host app App's default access group \"ABCDE12345.com.example.App\" is not in this extension's list"),
                      staged.stdout)
        XCTAssertTrue(staged.stdout.contains("inconsistent-default-group"), staged.stdout)

        // The same change in the work tree, not staged: --changed-since HEAD sees it the same way.
        try git(["reset", "-q"], in: dir)
        try write(Self.reordered, "App/App.entitlements", in: dir)
        let changed = try entitlint(["lint", "--no-color", "--strict", "--changed-since", "HEAD"], in: dir)
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        XCTAssertTrue(changed.stdout.contains("Share/Share.entitlements:7:3: warning: the host app App's default"), changed.stdout)
    }

    func testAFindingThatWasThereBeforeTheChangeDoesNotBlockIt() throws {
        let dir = try project()
        // An unrelated change to the host (one more group, at the end: no default moves).
        try write(CLI.entitlements([Self.shared, Self.own, "$(AppIdentifierPrefix)com.example.other"]), "App/App.entitlements", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.other"]), "Share/Other.entitlements", in: dir)
        try git(["add", "App/App.entitlements"], in: dir)
        let staged = try entitlint(["lint", "--no-color", "--strict", "--staged"], in: dir)
        XCTAssertFalse(staged.stdout.contains("Widget/Widget.entitlements:"), "Widget's finding was there before:\n\(staged.stdout)")
        XCTAssertEqual(staged.status, 0, staged.stdout + staged.stderr)
    }

    func testAStagedLooseFileReportsOnItAlone() throws {
        let dir = try project()
        try write(CLI.entitlements(["com.example.noprefix"]), "Tools/Loose.entitlements", in: dir)
        try git(["add", "Tools/Loose.entitlements"], in: dir)
        let staged = try entitlint(["lint", "--no-color", "--strict", "--staged"], in: dir)
        // No target signs with it: the one thing said about it is that (a note, not failing).
        XCTAssertEqual(staged.status, 0, staged.stdout + staged.stderr)
        XCTAssertTrue(staged.stdout.hasPrefix("Tools/Loose.entitlements:5:2: note: no target of the projects here signs with this file"), staged.stdout)
        XCTAssertTrue(staged.stdout.hasSuffix("1 file checked: 0 errors, 0 warnings, 1 note\n"), "the family is unchanged:\n\(staged.stdout)")
    }

    /// The files before the change are read only when a project finding on an unchanged file of a
    /// changed family needs judging: not for a loose file, not for a clean family.
    func testThePriorFilesAreReadOnlyWhenAFindingNeedsJudging() throws {
        let dir = try project()
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        try write(CLI.entitlements(["com.example.noprefix"]), "Tools/Loose.entitlements", in: dir)
        let linter = Linter(rules: RuleRegistry.all)

        func run(_ path: String, before: String) throws -> (findings: [Finding], reads: Int) {
            let counter = Counter()
            let abs = dir.path + "/" + path
            var options = LintOptions()
            options.paths = [path]
            options.discoverySources = DiscoverySources.registered
            options.userProfiles = false
            options.reportsChangedFamilies = true
            options.priorFiles = VirtualFiles(paths: [abs], exclusive: false) { wanted in
                counter.add()
                return .success(Dictionary(uniqueKeysWithValues: wanted.map { ($0, GitRepository.Blob.bytes(Array(before.utf8), oid: nil)) }))
            }
            let part = try linter.lint(options)
            return (try LintRun.withoutPriorFamilyFindings(part.findings, group: options, linter: linter), counter.count)
        }
        let loose = try run("Tools/Loose.entitlements", before: CLI.entitlements(["com.example.noprefix"]))
        XCTAssertEqual(loose.reads, 0, "\(loose.findings)")
        XCTAssertTrue(loose.findings.contains { $0.path == "Tools/Loose.entitlements" }, "\(loose.findings)")

        // The host as committed: Widget's finding is judged (read once) and was there before.
        let same = try run("App/App.entitlements", before: Self.host)
        XCTAssertEqual(same.reads, 1)
        XCTAssertFalse(same.findings.contains { $0.path.hasPrefix("Widget/") }, "\(same.findings)")
        // The host reordered (on disk), as committed before: Share's finding is the change's.
        try write(Self.reordered, "App/App.entitlements", in: dir)
        let reordered = try run("App/App.entitlements", before: Self.host)
        XCTAssertTrue(reordered.findings.contains { $0.path == "Share/Share.entitlements" && $0.rule == "inconsistent-default-group" },
                      "\(reordered.findings)")
    }

    /// Counts calls from the loader's threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        var count: Int { lock.withLock { n } }
        func add() { lock.withLock { n += 1 } }
    }
}
