import Foundation
import XCTest

/// `lint --config-from REV`: the configuration files, the baseline and the lock file are read as a
/// revision has them (a pull request's base branch), so a change that edits them cannot switch a
/// rule off, hide a finding or record a moved default group for itself.
final class ConfigFromTests: GitTestCase {
    static let wildcard = CLI.entitlements(["ABCDE12345.*"])

    /// A repository whose `base` branch holds `files`, then a commit on top with `change`
    /// (nil contents: the file is deleted).
    func repository(base files: [String: String], change: [String: String?]) throws -> URL {
        let dir = try repository()
        for (path, text) in files { try write(text, path, in: dir) }
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "base"], in: dir)
        try git(["branch", "base"], in: dir)
        for (path, text) in change {
            if let text { try write(text, path, in: dir) } else { try FileManager.default.removeItem(at: dir.appendingPathComponent(path)) }
        }
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "change", "--allow-empty"], in: dir)
        return dir
    }

    func testAConfigurationTheChangeEditsOrAddsDoesNotSwitchRulesOff() throws {
        let dir = try repository(base: ["App/App.entitlements": Self.wildcard, "Sub/Sub.entitlements": Self.wildcard,
                                        ".entitlint.yml": "team: ABCDE12345\n"],
                                 change: [".entitlint.yml": "team: ABCDE12345\nignore: [wildcard-access-group]\n",
                                          "Sub/.entitlint.yml": "ignore: [wildcard-access-group]\n"])
        let own = try entitlint(["lint", "."], in: dir)
        XCTAssertEqual(own.status, 0, "the change's own configuration switches the rule off: \(own.stdout)")

        let trusted = try entitlint(["lint", "--config-from", "base", "."], in: dir)
        XCTAssertEqual(trusted.status, 1, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.stdout.contains("App/App.entitlements:"), trusted.stdout)
        XCTAssertTrue(trusted.stdout.contains("Sub/Sub.entitlements:"), "a nested configuration the base lacks does not count: \(trusted.stdout)")
        // One file named, as a hook names it: its nearest configuration is looked up in the base.
        let one = try entitlint(["lint", "--config-from", "base", "Sub/Sub.entitlements"], in: dir)
        XCTAssertEqual(one.status, 1, one.stdout + one.stderr)
        XCTAssertTrue(one.stdout.contains("[wildcard-access-group]"), one.stdout)
    }

    func testANestedConfigurationTheChangeDeletesStillApplies() throws {
        let dir = try repository(base: ["App/App.entitlements": Self.wildcard, "Sub/Sub.entitlements": Self.wildcard,
                                        "Sub/.entitlint.yml": "ignore: [wildcard-access-group]\n"],
                                 change: ["Sub/.entitlint.yml": nil])
        let own = try entitlint(["lint", "."], in: dir)
        XCTAssertTrue(own.stdout.contains("Sub/Sub.entitlements:"), own.stdout)

        let trusted = try entitlint(["lint", "--config-from", "base", "."], in: dir)
        XCTAssertEqual(trusted.status, 1, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.stdout.contains("App/App.entitlements:"), trusted.stdout)
        XCTAssertFalse(trusted.stdout.contains("Sub/Sub.entitlements:"), "the base's nested configuration still ignores the rule there: \(trusted.stdout)")
    }

    func testABaselineTheChangeRewritesHidesNothingNew() throws {
        let dir = try repository(base: ["App/App.entitlements": Self.wildcard, ".entitlint.yml": "baseline: entitlint.baseline.json\n"], change: [:])
        // The base's baseline records the one finding of the base.
        XCTAssertEqual(try entitlint(["lint", "--write-baseline", "entitlint.baseline.json", "."], in: dir).status, 0)
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "baseline"], in: dir)
        try git(["branch", "-f", "base"], in: dir)
        // The change adds a second wildcard and records it in the baseline too.
        try write(Self.wildcard, "New/New.entitlements", in: dir)
        XCTAssertEqual(try entitlint(["lint", "--write-baseline", "entitlint.baseline.json", "."], in: dir).status, 0)
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "change"], in: dir)

        XCTAssertEqual(try entitlint(["lint", "."], in: dir).status, 0, "the change's baseline hides its own finding")
        let trusted = try entitlint(["lint", "--config-from", "base", "."], in: dir)
        XCTAssertEqual(trusted.status, 1, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.stdout.contains("New/New.entitlements:"), trusted.stdout)
        XCTAssertFalse(trusted.stdout.contains("App/App.entitlements:"), "the base's baseline still hides the old finding: \(trusted.stdout)")
    }

    func testALockTheChangeRewritesStillShowsTheMovedDefault() throws {
        let facts = ["--team-id", "ABCDE12345", "--bundle-id", "com.example.App"]
        let dir = try repository(base: ["App/App.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.old"])], change: [:])
        XCTAssertEqual(try entitlint(["lock", "App/App.entitlements"] + facts, in: dir).status, 0)
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "lock"], in: dir)
        try git(["branch", "-f", "base"], in: dir)
        // The change moves the default group and accepts the move in the lock.
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.new"]), "App/App.entitlements", in: dir)
        XCTAssertEqual(try entitlint(["lock", "--accept", "App/App.entitlements"] + facts, in: dir).status, 0)
        try git(["add", "-A"], in: dir)
        try git(["commit", "-qm", "change"], in: dir)

        let own = try entitlint(["lint", "App/App.entitlements"] + facts, in: dir)
        XCTAssertEqual(own.status, 0, "the change's lock records its own move: \(own.stdout)")
        let trusted = try entitlint(["lint", "--config-from", "base", "App/App.entitlements"] + facts, in: dir)
        XCTAssertEqual(trusted.status, 1, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.stdout.contains("[default-group-drift]"), trusted.stdout)
        XCTAssertTrue(trusted.stdout.contains("ABCDE12345.com.example.old"), trusted.stdout)
    }

    func testUsageErrors() throws {
        let dir = try repository(base: ["App/App.entitlements": Self.wildcard], change: [:])
        let unknown = try entitlint(["lint", "--config-from", "no-such-branch", "."], in: dir)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("--config-from no-such-branch"), unknown.stderr)
        let writing = try entitlint(["lint", "--config-from", "base", "--write-baseline", "b.json", "."], in: dir)
        XCTAssertEqual(writing.status, 2)
        XCTAssertTrue(writing.stderr.contains("cannot be used together"), writing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.json").path))
        let missing = try entitlint(["lint", "--config-from", "base", "--baseline", "b.json", "."], in: dir)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no such file at revision base"), missing.stderr)
        // Outside a git work tree there is no revision to read.
        let plain = try CLI.temporaryDirectory(self)
        try write(Self.wildcard, "App.entitlements", in: plain)
        let outside = try entitlint(["lint", "--config-from", "main", "."], in: plain)
        XCTAssertEqual(outside.status, 2, outside.stdout)
    }
}
