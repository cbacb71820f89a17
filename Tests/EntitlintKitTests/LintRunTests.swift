import XCTest
import EntitlintCore
import EntitlintKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole run in the library, as the command line uses it: configuration, nearest-config
/// grouping, baselines, failing level and notes, on small folders written by each test.
final class LintRunTests: FolderTestCase {
    /// An entitlements file whose only keychain group has no team prefix (`missing-team-prefix`,
    /// an error by default) when `bad`, else a well-formed one.
    func entitlements(bad: Bool) -> String {
        let group = bad ? "com.example.shared" : "$(AppIdentifierPrefix)com.example.shared"
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>keychain-access-groups</key><array><string>\(group)</string></array>
        </dict></plist>
        """
    }

    override class var folderPrefix: String { "lintrun" }

    func write(_ text: String, _ path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func run(_ request: LintRequest) throws -> (outcome: LintOutcome, diagnostics: String) {
        var text = ""
        let outcome = try LintRun.run(request) { text += $0 }
        return (outcome, text)
    }

    func testEachFolderIsLintedWithTheConfigurationNearestToIt() throws {
        try write(entitlements(bad: true), "quiet/App.entitlements")
        try write("rules:\n  missing-team-prefix: off\n", "quiet/.entitlint.yml")
        try write(entitlements(bad: true), "loud/App.entitlements")
        let (outcome, _) = try run(LintRequest(paths: ["quiet", "loud"]))
        XCTAssertEqual(outcome.result.findings.filter { $0.rule == "missing-team-prefix" }.map(\.path), ["loud/App.entitlements"])
        XCTAssertTrue(outcome.failing)
        XCTAssertEqual(outcome.exitStatus, 1)
    }

    func testTheFailingLevelComesFromTheFlagThenStrictThenTheConfiguration() throws {
        try write(entitlements(bad: true), "App.entitlements")
        try write("rules:\n  missing-team-prefix: warning\n", ".entitlint.yml")
        XCTAssertFalse(try run(LintRequest(paths: ["."])).outcome.failing, "a warning does not fail by default")
        XCTAssertTrue(try run(LintRequest(paths: ["."], strict: true)).outcome.failing, "--strict fails on warnings")
        XCTAssertFalse(try run(LintRequest(paths: ["."], failOn: .error, strict: true)).outcome.failing, "--fail-on wins over --strict")
        try write("rules:\n  missing-team-prefix: warning\nfail-on: warning\n", ".entitlint.yml")
        XCTAssertTrue(try run(LintRequest(paths: ["."])).outcome.failing, "the configuration's fail-on applies")
    }

    func testABaselineHidesItsFindingsAndTheRecordingRunNeverFails() throws {
        try write(entitlements(bad: true), "App.entitlements")
        var record = LintRequest(paths: ["."])
        record.changes.writeBaseline = "baseline.json"
        let recorded = try run(record).outcome
        XCTAssertFalse(recorded.failing, "recording a baseline ends with status 0")
        XCTAssertEqual(recorded.recordedBaseline?.destination, .file("baseline.json"))
        XCTAssertTrue(recorded.recordedBaseline?.summary.hasPrefix("wrote baseline.json: ") == true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("baseline.json").path))

        var apply = LintRequest(paths: ["."])
        apply.changes.baseline = "baseline.json"
        let (hidden, quiet) = try run(apply)
        XCTAssertFalse(hidden.result.findings.contains { $0.rule == "missing-team-prefix" })
        XCTAssertFalse(hidden.failing)
        XCTAssertEqual(quiet, "", "every entry still matches")

        try write(entitlements(bad: false), "App.entitlements")
        let (_, notes) = try run(apply)
        XCTAssertTrue(notes.contains("no finding any more"), notes)
    }

    func testAConfiguredLimitAboveItsCeilingIsLoweredWithANoteUnlessAFlagDecides() throws {
        try write(entitlements(bad: false), "App.entitlements")
        try write("limits:\n  max-findings: 999999999\n", ".entitlint.yml")
        let (_, notes) = try run(LintRequest(paths: ["."]))
        XCTAssertTrue(notes.hasPrefix("entitlint: ") && notes.contains("max-findings"), notes)
        var flagged = LintRequest(paths: ["."])
        flagged.facts.limits["max-findings"] = 5
        XCTAssertEqual(try run(flagged).diagnostics, "")
    }

    func testAFolderWithNothingToLintIsAUsageErrorUnlessAllowed() throws {
        try write("not an entitlements file\n", "docs/README.md")
        XCTAssertThrowsError(try run(LintRequest(paths: ["docs"]))) {
            XCTAssertTrue(($0 as? UsageError)?.description.hasPrefix("nothing to lint in docs:") == true, "\($0)")
        }
        let allowed = try run(LintRequest(paths: ["docs"], allowEmpty: true)).outcome
        XCTAssertEqual(allowed.result.files, 0)
        XCTAssertEqual(allowed.exitStatus, 0)
        // A file named explicitly and excluded by the configuration was left out on purpose.
        try write(entitlements(bad: true), "Fixtures/App.entitlements")
        try write("exclude: [\"Fixtures/**\"]\n", ".entitlint.yml")
        XCTAssertEqual(try run(LintRequest(paths: ["Fixtures/App.entitlements"])).outcome.result.files, 0)
    }

    func testBadRequestsAreUsageErrorsBeforeAnyWork() throws {
        var jobs = LintRequest(paths: ["."])
        jobs.facts.jobs = 0
        XCTAssertThrowsError(try run(jobs)) { XCTAssertEqual(($0 as? UsageError)?.lines, ["--jobs must be a positive number of threads"]) }
        var team = LintRequest(paths: ["."])
        team.facts.teamID = "abc"
        XCTAssertThrowsError(try run(team)) { XCTAssertTrue(($0 as? UsageError)?.description.contains("is not a Team ID") == true) }
        XCTAssertThrowsError(try run(LintRequest(paths: ["."], select: ["no-such-rule"]))) {
            XCTAssertTrue(($0 as? UsageError)?.description.contains("unknown rule") == true)
        }
        var both = LintRequest(paths: ["."])
        both.changes.staged = true
        both.changes.changedSince = "HEAD"
        XCTAssertThrowsError(try run(both))
    }

    func testTheSelectionAndTheConfigurationDecideTheRuleSettings() throws {
        try write(entitlements(bad: false), "App.entitlements")
        try write("rules:\n  comment-in-plist: off\n", ".entitlint.yml")
        let outcome = try run(LintRequest(paths: ["."], ignore: ["duplicate-key"])).outcome
        XCTAssertEqual(outcome.ruleSettings["comment-in-plist"], .off)
        XCTAssertEqual(outcome.ruleSettings["duplicate-key"], .off)
        XCTAssertNil(outcome.ruleSettings["missing-team-prefix"])
    }
}
