import Foundation
import XCTest

/// The lock file and `--against` end to end: the two sides of `default-group-drift` compared in
/// one form, units renamed since, entries no unit pairs with, and the README's recipe.
final class LockDriftTests: GitTestCase {
    func count(_ rule: String, in text: String) -> Int { text.components(separatedBy: "[\(rule)]").count - 1 }

    let own = "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"
    let shared = "$(AppIdentifierPrefix)com.example.shared"

    /// The README's recipe: `lock --team-id --bundle-id`, then the hook (`install-hook`, which runs
    /// `lint --staged` with no flags) on a commit that changes nothing in the file: the commit goes
    /// through. A reorder and a bundle ID renamed in the file are then caught by the same hook.
    func testReadmeRecipeLockThenHookPassesAnUnchangedFileAndCatchesADrift() throws {
        let dir = try repository()
        try write(CLI.entitlements([own, shared]), "App/App.entitlements", in: dir)
        let lock = try entitlint(["lock", "App/App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"], in: dir)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        XCTAssertTrue(lock.stderr.contains("App: no profile gives the App ID prefix, so the Team ID is taken for it; the lock records it as a guess"), lock.stderr)
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertTrue(lockText.contains("\"entitlements\" : \"App/App.entitlements\""), lockText)
        XCTAssertTrue(lockText.contains("\"kind\" : \"guess\""), lockText)
        XCTAssertTrue(lockText.contains("\"detail\" : \"--bundle-id\""), lockText)
        XCTAssertEqual(try entitlint(["install-hook"], in: dir).status, 0)
        try git(["add", "."], in: dir)

        let staged = try entitlint(["lint", "--staged"], in: dir)
        XCTAssertEqual(staged.status, 0, staged.stdout)
        XCTAssertEqual(staged.stdout, "1 file checked: no problems found\n")
        let commit = try git(["commit", "-qm", "one"], in: dir, check: false)
        XCTAssertEqual(commit.status, 0, "the hook let the commit through: \(commit.stdout)\(commit.stderr)")

        // A reorder: the hook knows neither team nor bundle ID, the lock does.
        try write(CLI.entitlements([shared, own]), "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        // git passes a hook's output on to its standard error.
        var reordered = try git(["commit", "-qm", "two"], in: dir, check: false)
        reordered.stdout += reordered.stderr
        XCTAssertEqual(reordered.status, 1, reordered.stdout)
        XCTAssertTrue(reordered.stdout.contains("App/App.entitlements:7:3: error: default access group changed from \"ABCDE12345.com.example.AppOne\" (lock file) to \"ABCDE12345.com.example.shared\""), reordered.stdout)
        XCTAssertTrue(reordered.stdout.contains("put \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\" first in keychain-access-groups again"), reordered.stdout)

        // The bundle ID renamed where the hook sees it (a literal application-identifier).
        try write(CLI.entitlements([own, shared], extra: "\n\t<key>application-identifier</key>\n\t<string>ABCDE12345.com.example.Renamed</string>"),
                  "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        var renamed = try git(["commit", "-qm", "three"], in: dir, check: false)
        renamed.stdout += renamed.stderr
        XCTAssertEqual(renamed.status, 1, renamed.stdout)
        XCTAssertTrue(renamed.stdout.contains("default access group changed from \"ABCDE12345.com.example.AppOne\" (lock file) to \"ABCDE12345.com.example.Renamed\" because the bundle ID changed from com.example.AppOne to com.example.Renamed"), renamed.stdout)
        XCTAssertTrue(renamed.stdout.contains("migrate them in code"), renamed.stdout)
        XCTAssertFalse(renamed.stdout.contains("first in keychain-access-groups"), "no advice to list the old App ID: \(renamed.stdout)")
        XCTAssertEqual(count("default-group-drift", in: renamed.stdout), 1, renamed.stdout)

        // The same rename told by a flag, on the file as it was locked.
        try git(["reset", "-q", "--hard", "HEAD"], in: dir)
        let flagged = try entitlint(["lint", "App/App.entitlements", "--bundle-id", "com.example.Renamed"], in: dir)
        XCTAssertEqual(flagged.status, 1, flagged.stdout)
        XCTAssertTrue(flagged.stdout.contains("because the bundle ID changed from com.example.AppOne to com.example.Renamed"), flagged.stdout)
        XCTAssertEqual(try entitlint(["lint", "App/App.entitlements"], in: dir).status, 0)
    }

    /// `lock` over a moved default writes nothing, lists old and new default, and exits 1; with
    /// `--accept` it records the move and says so; a unit that did not move is locked as before.
    func testLockRefusesAMovedDefaultUnlessAccepted() throws {
        let dir = try repository()
        try write(CLI.entitlements([own, shared]), "App/App.entitlements", in: dir)
        let flags = ["--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"]
        XCTAssertEqual(try entitlint(["lock", "App/App.entitlements"] + flags, in: dir).status, 0)
        let lockURL = dir.appendingPathComponent("entitlint.lock")
        let before = try Data(contentsOf: lockURL)
        XCTAssertEqual(try entitlint(["lock", "App/App.entitlements"] + flags, in: dir).status, 0, "an unchanged default locks again")

        try write(CLI.entitlements([shared, own]), "App/App.entitlements", in: dir)
        let refused = try entitlint(["lock", "App/App.entitlements"] + flags, in: dir)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the default access group moved for 1 unit"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("  App: \"ABCDE12345.com.example.AppOne\" -> \"ABCDE12345.com.example.shared\""), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("`entitlint lock --accept` records the new defaults"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: lockURL), before, "nothing was written")
        XCTAssertEqual(try entitlint(["lint", "App/App.entitlements"] + flags, in: dir).status, 1, "the drift is still reported")

        let accepted = try entitlint(["lock", "--accept", "App/App.entitlements"] + flags, in: dir)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertTrue(accepted.stdout.contains("moved: App: \"ABCDE12345.com.example.AppOne\" -> \"ABCDE12345.com.example.shared\" (accepted)"), accepted.stdout)
        XCTAssertNotEqual(try Data(contentsOf: lockURL), before)
        XCTAssertEqual(try entitlint(["lint", "App/App.entitlements"] + flags, in: dir).status, 0, "the new default is the reference now")
    }

    /// `--against` with no flags: the team and bundle ID are unknown at REV and now, so both
    /// defaults are symbolic, and compared as written: a real move is found, no change is clean.
    func testAgainstWithoutFlagsFindsARealMove() throws {
        let dir = try repository()
        try write(CLI.entitlements([own, shared]), "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)
        let same = try entitlint(["lint", "--against", "HEAD"], in: dir)
        XCTAssertEqual(same.status, 0, same.stdout)
        XCTAssertEqual(count("default-group-drift", in: same.stdout), 0, same.stdout)

        try write(CLI.entitlements([shared, own]), "App/App.entitlements", in: dir)
        let moved = try entitlint(["lint", "--against", "HEAD"], in: dir)
        XCTAssertEqual(moved.status, 1, moved.stdout)
        XCTAssertTrue(moved.stdout.contains("error: default access group changed from \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\" (at revision HEAD) to \"$(AppIdentifierPrefix)com.example.shared\""), moved.stdout)
        XCTAssertEqual(count("default-group-drift", in: moved.stdout), 1, moved.stdout)
        // Known now only: the symbolic default at REV takes the facts known now, the same group.
        try write(CLI.entitlements([own, shared]), "App/App.entitlements", in: dir)
        let known = try entitlint(["lint", "--against", "HEAD", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: dir)
        XCTAssertEqual(count("default-group-drift", in: known.stdout), 0, known.stdout)
    }

    /// Locked with the Team ID guessed as the App ID prefix; a profile now gives the real (legacy)
    /// prefix: not a drift, and no kept group reported as removed. Two real prefixes that differ are.
    func testGuessedPrefixReplacedByTheRealOneIsNotADrift() throws {
        let dir = try CLI.temporaryDirectory(self)
        let example = CLI.packageRoot.appendingPathComponent("Examples/legacy-prefix")
        for name in ["Legacy.entitlements", "Legacy.mobileprovision"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let lock = try entitlint(["lock", "Legacy.entitlements", "--team-id", "7S6YLL52WH", "--bundle-id", "com.example.legacy"], in: dir)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertTrue(lockText.contains("\"default-access-group\" : \"7S6YLL52WH.com.example.legacy\""), lockText)

        let real = try entitlint(["lint", "Legacy.entitlements", "Legacy.mobileprovision", "--profile", "Legacy.mobileprovision",
                                  "--bundle-id", "com.example.legacy"], in: dir)
        XCTAssertEqual(count("default-group-drift", in: real.stdout), 0, real.stdout)
        XCTAssertTrue(real.stdout.contains("[team-prefix-mismatch]"), "the example's own finding is still there: \(real.stdout)")

        // Locked with the profile's real prefix; the file now states another team's App ID.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("entitlint.lock"))
        XCTAssertEqual(try entitlint(["lock", "Legacy.entitlements", "--profile", "Legacy.mobileprovision", "--bundle-id", "com.example.legacy"], in: dir).status, 0)
        try write(CLI.entitlements([own], extra: "\n\t<key>application-identifier</key>\n\t<string>ABCDE12345.com.example.legacy</string>"),
                  "Legacy.entitlements", in: dir)
        let moved = try entitlint(["lint", "Legacy.entitlements"], in: dir)
        XCTAssertEqual(moved.status, 1, moved.stdout)
        XCTAssertTrue(moved.stdout.contains("because the App ID prefix changed from Y54WEA9F74 to ABCDE12345"), moved.stdout)
        XCTAssertTrue(moved.stdout.contains("move the items into an app group"), moved.stdout)
        XCTAssertEqual(count("default-group-drift", in: moved.stdout), 1, "one problem, one finding: \(moved.stdout)")
    }

    /// A unit renamed along with its bundle ID is paired with its entry by its file: a drift. An
    /// entry whose app is gone is a note on the lock file, until `lock --drop` removes it.
    func testRenamedUnitIsPairedByFileAndAnUnpairedEntryIsANote() throws {
        let dir = try CLI.temporaryDirectory(self)
        let config = "team: \"ABCDE12345\"\napps:\n  - name: App\n    entitlements: App/App.entitlements\n    bundle-id: com.example.App\n  - name: Other\n    entitlements: Other/Other.entitlements\n    bundle-id: com.example.Other\n"
        try write(config, ".entitlint.yml", in: dir)
        try write(CLI.entitlements([own]), "App/App.entitlements", in: dir)
        try write(CLI.entitlements([own]), "Other/Other.entitlements", in: dir)
        XCTAssertEqual(try entitlint(["lock"], in: dir).status, 0)
        XCTAssertEqual(try entitlint(["lint", "."], in: dir).status, 0)

        try write(config.replacingOccurrences(of: "name: App", with: "name: Notes").replacingOccurrences(of: "com.example.App", with: "com.example.Notes"),
                  ".entitlint.yml", in: dir)
        let renamed = try entitlint(["lint", "."], in: dir)
        XCTAssertEqual(renamed.status, 1, renamed.stdout)
        XCTAssertTrue(renamed.stdout.contains("App/App.entitlements:7:3: error: default access group changed from \"ABCDE12345.com.example.App\" (lock file) to \"ABCDE12345.com.example.Notes\" because the bundle ID changed"), renamed.stdout)
        XCTAssertFalse(renamed.stdout.contains("matches no unit"), "the entry is paired: \(renamed.stdout)")

        // The app removed: its entry matches nothing the run read; a hook on the other file says nothing of it.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("App"))
        try write("team: \"ABCDE12345\"\napps:\n  - name: Other\n    entitlements: Other/Other.entitlements\n    bundle-id: com.example.Other\n", ".entitlint.yml", in: dir)
        let gone = try entitlint(["lint", "."], in: dir)
        XCTAssertEqual(gone.status, 0, gone.stdout)
        XCTAssertTrue(gone.stdout.contains("entitlint.lock:3:5: note: lock entry \"App\" (App/App.entitlements) matches no unit of this run by name, bundle ID or file: if the app was removed, drop the entry with `entitlint lock --drop 'App'`"), gone.stdout)
        XCTAssertEqual(count("default-group-drift", in: gone.stdout), 1, gone.stdout)
        XCTAssertEqual(count("default-group-drift", in: try entitlint(["lint", "Other/Other.entitlements"], in: dir).stdout), 0)

        let drop = try entitlint(["lock", "--drop", "App"], in: dir)
        XCTAssertEqual(drop.status, 0, drop.stderr)
        XCTAssertTrue(drop.stdout.contains("0 units locked, 1 dropped"), drop.stdout)
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertFalse(lockText.contains("\"App\""), lockText)
        XCTAssertTrue(lockText.contains("\"Other\""), lockText)
        XCTAssertEqual(try entitlint(["lint", "."], in: dir).stdout, "1 file checked: no problems found\n")
        let unknown = try entitlint(["lock", "--drop", "Nope"], in: dir)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("has no entry \"Nope\""), unknown.stderr)
    }

    /// A lock file written before entries recorded their file, facts and sources still loads and
    /// still finds a drift; locking again adds the new fields and keeps the other entries.
    func testALockOfTheFirstFormatStillLoads() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements([own, shared]), "App.entitlements", in: dir)
        let old = """
        {
          "units" : {
            "App" : {
              "access-groups" : [
                "ABCDE12345.com.example.App",
                "ABCDE12345.com.example.shared"
              ],
              "bundle-id" : "com.example.App",
              "default-access-group" : "ABCDE12345.com.example.App"
            },
            "Elsewhere" : {
              "access-groups" : [
                "ABCDE12345.com.example.Elsewhere"
              ],
              "bundle-id" : "com.example.Elsewhere",
              "default-access-group" : "ABCDE12345.com.example.Elsewhere"
            }
          },
          "version" : 1
        }

        """
        try write(old, "entitlint.lock", in: dir)
        let same = try entitlint(["lint", "App.entitlements"], in: dir)
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        try write(CLI.entitlements([shared, own]), "App.entitlements", in: dir)
        let moved = try entitlint(["lint", "App.entitlements", "--team-id", "ABCDE12345"], in: dir)
        XCTAssertEqual(moved.status, 1, moved.stdout + moved.stderr)
        XCTAssertTrue(moved.stdout.contains("changed from \"ABCDE12345.com.example.App\" (lock file) to \"ABCDE12345.com.example.shared\""), moved.stdout)
        XCTAssertFalse(moved.stdout.contains("matches no unit"), "an entry of the first format names no file, and the run did not walk the lock's folder: \(moved.stdout)")

        // The default moved, so locking again takes `--accept`.
        XCTAssertEqual(try entitlint(["lock", "App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: dir).status, 1)
        XCTAssertEqual(try entitlint(["lock", "--accept", "App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: dir).status, 0)
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertTrue(lockText.contains("\"Elsewhere\""), lockText)
        XCTAssertTrue(lockText.contains("\"entitlements\" : \"App.entitlements\""), lockText)
        XCTAssertTrue(lockText.contains("\"version\" : 1"), lockText)
    }
}
