import Foundation
import XCTest

/// `--staged`, `--changed-since`, `--against` and `install-hook`, in temporary git repositories.
final class GitTests: GitTestCase {
    let clean = CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])
    let wild = CLI.entitlements(["$(AppIdentifierPrefix)*"])

    func testStagedLintsTheIndexVersionAndWritesNothing() throws {
        let dir = try repository()
        try write(clean, "App/App.entitlements", in: dir)
        try write("let x = 1\n", "Sources/main.swift", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)

        // The index holds the wildcard, the work tree is clean again: --staged sees the index.
        try write(wild, "App/App.entitlements", in: dir)
        try write("let x = 2\n", "Sources/main.swift", in: dir)
        try git(["add", "."], in: dir)
        try write(clean, "App/App.entitlements", in: dir)
        let before = listing(dir)
        let status = try git(["status", "--porcelain"], in: dir).stdout

        let staged = try entitlint(["lint", "--staged"], in: dir)
        XCTAssertEqual(staged.status, 1, staged.stderr)
        XCTAssertTrue(staged.stdout.contains("App/App.entitlements:7:3: error: keychain access group \"$(AppIdentifierPrefix)*\""), staged.stdout)
        XCTAssertTrue(staged.stdout.hasSuffix("1 file checked: 1 error, 0 warnings, 0 notes\n"), "the Swift file is not linted:\n\(staged.stdout)")
        XCTAssertEqual(try entitlint(["lint", "App/App.entitlements"], in: dir).status, 0, "the work tree is clean")
        XCTAssertEqual(listing(dir), before, "nothing written")
        XCTAssertEqual(try git(["status", "--porcelain"], in: dir).stdout, status)

        // From a subfolder, paths are shown relative to it; a path argument narrows the staged set.
        let sub = try entitlint(["lint", "--staged"], in: dir.appendingPathComponent("App"))
        XCTAssertTrue(sub.stdout.hasPrefix("App.entitlements:7:3: error"), sub.stdout)
        XCTAssertEqual(try entitlint(["lint", "--staged", "Sources"], in: dir).stdout, "0 files checked: no problems found\n")

        // A staged file removed from the work tree is still read from the index.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("App/App.entitlements"))
        XCTAssertEqual(try entitlint(["lint", "--staged"], in: dir).status, 1)

        // Nothing staged: nothing checked, the work tree is not walked.
        try git(["reset", "-q", "--hard"], in: dir)
        try write(wild, "Other.entitlements", in: dir)
        let none = try entitlint(["lint", "--staged"], in: dir)
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "0 files checked: no problems found\n")
    }

    func testStagedAppliesExcludesAndConfiguredProfiles() throws {
        let dir = try repository()
        try write("exclude: [\"Fixtures/**\"]\n", ".entitlint.yml", in: dir)
        try write(wild, "Fixtures/Bad.entitlements", in: dir)
        try write(clean, "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        let r = try entitlint(["lint", "--staged"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(r.stdout, "1 file checked: no problems found\n")
    }

    func testChangedSinceLintsOnlyChangedFiles() throws {
        let dir = try repository()
        try write(clean, "A.entitlements", in: dir)
        try write(clean, "B.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)
        try write(wild, "B.entitlements", in: dir)
        let r = try entitlint(["lint", "--changed-since", "HEAD"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("B.entitlements:7:3: error"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("1 file checked: 1 error, 0 warnings, 0 notes\n"), r.stdout)
        try git(["commit", "-qam", "two"], in: dir)
        XCTAssertEqual(try entitlint(["lint", "--changed-since", "HEAD"], in: dir).stdout, "0 files checked: no problems found\n")
        XCTAssertEqual(try entitlint(["lint", "--changed-since", "HEAD~1"], in: dir).status, 1)
    }

    /// The bundle ID changed in the configuration: the default group (the App ID, with no
    /// keychain-access-groups) moved, and `--against` catches it with no lock file.
    func testAgainstReportsDriftWithoutALockFile() throws {
        let dir = try repository()
        let config = "team: ABCDE12345\napps:\n  - name: App\n    entitlements: App/App.entitlements\n    bundle-id: com.example.AppOne\n"
        let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>application-identifier</key>
        \t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        </dict>
        </plist>

        """
        try write(config, ".entitlint.yml", in: dir)
        try write(entitlements, "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)

        XCTAssertEqual(try entitlint(["lint", "--against", "HEAD"], in: dir).status, 0)
        try write(config.replacingOccurrences(of: "AppOne", with: "Renamed"), ".entitlint.yml", in: dir)
        let r = try entitlint(["lint", "--against", "HEAD"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("App/App.entitlements:5:2: error: default access group changed from \"ABCDE12345.com.example.AppOne\" (at revision HEAD) to \"ABCDE12345.com.example.Renamed\" because the bundle ID changed from com.example.AppOne to com.example.Renamed"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[default-group-drift]"))
        XCTAssertFalse(r.stdout.contains("entitlint lock"), "no lock file is involved")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("entitlint.lock").path))

        // A shared group put first moves the default too; an app added since has nothing to compare with.
        try write(config, ".entitlint.yml", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try write(wild.replacingOccurrences(of: "*", with: "com.example.New"), "New/New.entitlements", in: dir)
        let moved = try entitlint(["lint", "--against", "HEAD", "--team-id", "ABCDE12345"], in: dir)
        XCTAssertTrue(moved.stdout.contains("changed from \"ABCDE12345.com.example.AppOne\" (at revision HEAD) to \"ABCDE12345.com.example.shared\""), moved.stdout)
        XCTAssertEqual(moved.stdout.components(separatedBy: "[default-group-drift]").count - 1, 1, moved.stdout)
    }

    /// At REV the team was unknown, so the default group there is symbolic; with the team known
    /// now it is the same group in the form compared (a team added to the config is not a moved
    /// default).
    func testAgainstSkipsUnitsWhoseDefaultWasSymbolic() throws {
        let dir = try repository()
        try write("apps:\n  - name: App\n    entitlements: App.entitlements\n", ".entitlint.yml", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]), "App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)
        try write("team: ABCDE12345\napps:\n  - name: App\n    entitlements: App.entitlements\n", ".entitlint.yml", in: dir)
        let r = try entitlint(["lint", "--against", "HEAD"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains("default-group-drift"), r.stdout)
    }

    func testAgainstWorksInAShallowCloneWhenTheRevisionIsThere() throws {
        let origin = try repository()
        try write(clean, "App.entitlements", in: origin)
        try git(["add", "."], in: origin)
        try git(["commit", "-qm", "one"], in: origin)
        try write(clean + "\n", "App.entitlements", in: origin)
        try git(["commit", "-qam", "two"], in: origin)
        let parent = try CLI.temporaryDirectory(self)
        try git(["clone", "-q", "--depth", "1", "file://" + origin.path, "shallow"], in: parent)
        let shallow = parent.appendingPathComponent("shallow")
        XCTAssertEqual(try git(["rev-parse", "--is-shallow-repository"], in: shallow).stdout, "true\n")

        let here = try entitlint(["lint", "--against", "HEAD", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: shallow)
        XCTAssertEqual(here.status, 0, here.stderr)
        let gone = try entitlint(["lint", "--against", "HEAD~1"], in: shallow)
        XCTAssertEqual(gone.status, 2)
        XCTAssertEqual(gone.stdout, "")
        XCTAssertTrue(gone.stderr.contains("revision 'HEAD~1' is not in this repository (this is a shallow clone: fetch it first"), gone.stderr)
    }

    func testBadGitInputIsAUsageErrorAndWritesNothing() throws {
        let outside = try CLI.temporaryDirectory(self)
        try write(clean, "A.entitlements", in: outside)
        for args in [["--staged"], ["--changed-since", "HEAD"], ["--against", "HEAD"]] {
            let r = try CLI.run(["lint"] + args + ["--write-baseline", "b.json"], in: outside,
                                environment: Self.environment.merging(["GIT_CEILING_DIRECTORIES": outside.deletingLastPathComponent().path]) { $1 })
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("is not in a git repository"), r.stderr)
            XCTAssertEqual(listing(outside), ["A.entitlements"], "nothing written")
        }

        let dir = try repository()
        try write(clean, "A.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)
        for args in [["--against", "no-such-branch"], ["--changed-since", "0123456789abcdef"], ["--against", "--staged"]] {
            let r = try entitlint(["lint"] + args + ["--write-baseline", "b.json"], in: dir)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(listing(dir), ["A.entitlements"], "nothing written")
        }
        let missing = try entitlint(["lint", "--against", "no-such-branch"], in: dir)
        XCTAssertEqual(missing.stderr, "entitlint: revision 'no-such-branch' is not in this repository\n")
        let both = try entitlint(["lint", "--staged", "--changed-since", "HEAD"], in: dir)
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("cannot be used together"), both.stderr)
    }

    func testInstallHookWritesAHookThatStopsABadCommit() throws {
        let dir = try repository()
        let r = try entitlint(["install-hook"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote .git/hooks/pre-commit: `entitlint lint --staged` runs before each commit\n")
        let hook = dir.appendingPathComponent(".git/hooks/pre-commit")
        let text = try String(contentsOf: hook, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/sh\n# entitlint-managed-hook"), text)
        XCTAssertTrue(text.contains("lint --staged"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: hook.path))
        XCTAssertEqual(try entitlint(["install-hook"], in: dir).status, 0, "its own hook is replaced")

        try write(wild, "App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        let refused = try git(["commit", "-qm", "bad"], in: dir, check: false)
        XCTAssertNotEqual(refused.status, 0, "the hook stops the commit")
        XCTAssertTrue((refused.stdout + refused.stderr).contains("[wildcard-access-group]"), refused.stdout + refused.stderr)
        try write(clean, "App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        XCTAssertEqual(try git(["commit", "-qm", "good"], in: dir, check: false).status, 0)
    }

    func testInstallHookLeavesAnotherHookAloneWithoutForce() throws {
        let dir = try repository()
        let hook = dir.appendingPathComponent(".git/hooks/pre-commit")
        try write("#!/bin/sh\nexit 0\n", ".git/hooks/pre-commit", in: dir)
        let r = try entitlint(["install-hook"], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(".git/hooks/pre-commit exists and was not written by entitlint: not replacing it"), r.stderr)
        XCTAssertEqual(try String(contentsOf: hook, encoding: .utf8), "#!/bin/sh\nexit 0\n")
        XCTAssertEqual(try entitlint(["install-hook", "--force"], in: dir).status, 0)
        XCTAssertTrue(try String(contentsOf: hook, encoding: .utf8).contains("entitlint-managed-hook"))

        // core.hooksPath is where git looks, so that is where the hook goes.
        try git(["config", "core.hooksPath", ".githooks"], in: dir)
        XCTAssertEqual(try entitlint(["install-hook"], in: dir).status, 0)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent(".githooks/pre-commit").path))

        let outside = try CLI.temporaryDirectory(self)
        let none = try CLI.run(["install-hook"], in: outside,
                               environment: Self.environment.merging(["GIT_CEILING_DIRECTORIES": outside.deletingLastPathComponent().path]) { $1 })
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("is not in a git repository"), none.stderr)
    }
}
