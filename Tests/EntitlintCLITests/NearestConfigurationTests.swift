import Foundation
import XCTest

/// Each path is linted with the `.entitlint.yml` nearest to it, as ruff does: a hook that runs at
/// the repository's root on `ios/App/App.entitlements` behaves as a run inside `ios/`.
final class NearestConfigurationTests: XCTestCase, WritesFixtures {

    /// A repository whose root configuration names another team, with an iOS app in `ios/` that has
    /// its own configuration (team, bundle ID, a rule turned off) and lock beside it.
    func repository() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try write("team: ZZZZZ99999\n", ".entitlint.yml", in: dir)
        try write("""
        team: ABCDE12345
        apps:
          - entitlements: App/App.entitlements
            bundle-id: com.example.App
        rules:
          duplicate-access-group: off
        exclude: ["Legacy/**"]
        """, "ios/.entitlint.yml", in: dir)
        try write(CLI.entitlements(["ABCDE12345.com.example.App", "ABCDE12345.com.example.App"]), "ios/App/App.entitlements", in: dir)
        try write(CLI.entitlements(["ABCDE12345.*"]), "ios/Legacy/Old.entitlements", in: dir)
        return dir
    }

    func rules(_ r: CLI.Result) -> [String] {
        r.stdout.split(separator: "\n").compactMap { line in
            guard let open = line.lastIndex(of: "["), line.hasSuffix("]") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }.sorted()
    }

    func testAHookAtTheRootUsesTheConfigurationAndLockOfTheApp() throws {
        let dir = try repository()
        let ios = dir.appendingPathComponent("ios")
        let lock = try CLI.run(["lock"], in: ios)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ios.appendingPathComponent("entitlint.lock").path),
                      "the lock is written beside the configuration")

        let inside = try CLI.run(["lint", "App/App.entitlements"], in: ios)
        let fromRoot = try CLI.run(["lint", "ios/App/App.entitlements"], in: dir)
        XCTAssertEqual(inside.status, 0, inside.stdout)
        XCTAssertEqual(fromRoot.status, inside.status, fromRoot.stdout)
        XCTAssertEqual(rules(fromRoot), rules(inside))
        XCTAssertFalse(fromRoot.stdout.contains("ZZZZZ99999"), "the root's team is not this app's: \(fromRoot.stdout)")

        // Move the default group: the lock beside the app's configuration catches it from both places.
        try write(CLI.entitlements(["ABCDE12345.com.example.shared", "ABCDE12345.com.example.App"]), "ios/App/App.entitlements", in: dir)
        let movedInside = try CLI.run(["lint", "App/App.entitlements"], in: ios)
        let movedFromRoot = try CLI.run(["lint", "ios/App/App.entitlements"], in: dir)
        XCTAssertTrue(rules(movedInside).contains("default-group-drift"), movedInside.stdout)
        XCTAssertEqual(rules(movedFromRoot), rules(movedInside))
        XCTAssertEqual(movedFromRoot.status, movedInside.status)
    }

    func testExcludesMeanTheSameFilesFromAnyFolder() throws {
        let dir = try repository()
        let inside = try CLI.run(["lint", "."], in: dir.appendingPathComponent("ios"))
        let fromRoot = try CLI.run(["lint", "ios"], in: dir)
        XCTAssertFalse(inside.stdout.contains("Old.entitlements"), inside.stdout)
        XCTAssertFalse(fromRoot.stdout.contains("Old.entitlements"), "Legacy/** is relative to ios/.entitlint.yml: \(fromRoot.stdout)")
        XCTAssertEqual(fromRoot.status, inside.status)
    }

    func testPathsUnderTwoConfigurationsAreEachLintedWithTheirOwn() throws {
        let dir = try repository()
        try write(CLI.entitlements(["ABCDE12345.com.example.Tool"]), "tools/Tool.entitlements", in: dir)
        let both = try CLI.run(["lint", "ios/App/App.entitlements", "tools/Tool.entitlements"], in: dir)
        // The root configuration's team (ZZZZZ99999) applies to the tool, not to the app.
        XCTAssertTrue(both.stdout.contains("tools/Tool.entitlements") && both.stdout.contains("ZZZZZ99999"), both.stdout)
        XCTAssertFalse(both.stdout.contains("ios/App/App.entitlements"), both.stdout)
        XCTAssertTrue(both.stdout.contains("2 files checked"), both.stdout)
        XCTAssertEqual(both.status, 1)
    }

    func testConfigFlagStillChoosesOneConfigurationForAll() throws {
        let dir = try repository()
        let r = try CLI.run(["lint", "--config", ".entitlint.yml", "ios/App/App.entitlements"], in: dir)
        XCTAssertTrue(r.stdout.contains("duplicate-access-group"), "the named configuration does not turn the rule off: \(r.stdout)")
    }

    /// A folder walked from the root that holds its own configuration is linted with it (its
    /// rules, excludes, team), the rest of the tree with the root's; every file once.
    func testAWalkedFolderWithItsOwnConfigurationUsesIt() throws {
        let dir = try repository()
        try write(CLI.entitlements(["ABCDE12345.com.example.Tool"]), "tools/Tool.entitlements", in: dir)
        try write("team: ABCDE12345\nrules:\n  wildcard-access-group: off\n", "ios/Deeper/.entitlint.yml", in: dir)
        try write(CLI.entitlements(["ABCDE12345.*"]), "ios/Deeper/Wild.entitlements", in: dir)
        let root = try CLI.run(["lint", "."], in: dir)
        let inside = try CLI.run(["lint", "."], in: dir.appendingPathComponent("ios"))
        XCTAssertFalse(root.stdout.contains("Old.entitlements"), "Legacy/** of ios/.entitlint.yml applies: \(root.stdout)")
        XCTAssertFalse(root.stdout.contains("duplicate-access-group"), "ios/ turns the rule off: \(root.stdout)")
        XCTAssertFalse(root.stdout.contains("wildcard-access-group"), "ios/Deeper turns the rule off: \(root.stdout)")
        XCTAssertTrue(root.stdout.contains("tools/Tool.entitlements") && root.stdout.contains("ZZZZZ99999"),
                      "the root's team applies outside ios/: \(root.stdout)")
        XCTAssertFalse(root.stdout.contains("ios/App/App.entitlements"), root.stdout)
        XCTAssertTrue(root.stdout.contains("3 files checked"), "App, Wild and Tool, each once: \(root.stdout)")
        XCTAssertEqual(root.status, 1)
        XCTAssertEqual(inside.status, 0, inside.stdout)
        XCTAssertTrue(inside.stdout.contains("2 files checked"), inside.stdout)
        // --config names one configuration for everything: the nested ones are not used.
        let named = try CLI.run(["lint", "--config", ".entitlint.yml", "."], in: dir)
        XCTAssertTrue(named.stdout.contains("wildcard-access-group"), named.stdout)
    }
}
