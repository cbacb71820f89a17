import Foundation
import EntitlintRules
import TestSupport
import XCTest

final class CommandLineTests: XCTestCase {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func testTextFormatLinesAndSummary() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), to: dir.appendingPathComponent("App/App.entitlements"))
        let r = try CLI.run(["lint", "App/App.entitlements"], in: dir)
        XCTAssertEqual(r.status, 1)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("App/App.entitlements:7:3: error: keychain access group \"$(AppIdentifierPrefix)*\""), String(lines[0]))
        XCTAssertTrue(lines[0].hasSuffix("[wildcard-access-group]"))
        XCTAssertEqual(lines[1], "1 file checked: 1 error, 0 warnings, 0 notes")
        XCTAssertFalse(r.stdout.contains("\u{1B}["), "no colour when not a TTY")
    }

    func testJSONFormatHasDesignShape() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.app", "$(AppIdentifierPrefix)*"]), to: dir.appendingPathComponent("App.entitlements"))
        let r = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(r.status, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["version"] as? Int, 2)
        XCTAssertEqual((json["tool"] as? [String: Any])?["name"] as? String, "entitlint")
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.count, 1)
        XCTAssertEqual(Set(findings[0].keys), ["rule", "severity", "message", "path", "line", "column", "unit", "units", "notes", "fix"])
        XCTAssertEqual((findings[0]["fix"] as? [String: Any])?["applicability"] as? String, "unsafe", "removing a wildcard group is an unsafe fix")
        XCTAssertEqual(findings[0]["units"] as? [String], [])
        XCTAssertEqual(findings[0]["notes"] as? [String], [])
        try SchemaValidator.validate(r.stdout, format: "json")
        XCTAssertEqual(findings[0]["rule"] as? String, "wildcard-access-group")
        XCTAssertEqual(findings[0]["path"] as? String, "App.entitlements")
        XCTAssertEqual(findings[0]["line"] as? Int, 8, "the wildcard, second in the list")
        XCTAssertEqual(findings[0]["column"] as? Int, 3)
        let summary = try XCTUnwrap(json["summary"] as? [String: Int])
        XCTAssertEqual(summary, ["files": 1, "errors": 1, "warnings": 0, "notes": 0])
    }

    func testNoticesGoToStandardErrorInTextAndIntoJSONAndNeverFailTheRun() throws {
        let dir = try CLI.temporaryDirectory(self)
        // A loose file whose settings no project here sets: unknown, said once, not a finding.
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(VAULT_GROUP)"]), to: dir.appendingPathComponent("App.entitlements"))
        let text = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(text.status, 0, text.stdout)
        XCTAssertEqual(text.stdout, "1 file checked: no problems found\n")
        XCTAssertTrue(text.stderr.hasPrefix("entitlint: notice: ") && text.stderr.contains("$(VAULT_GROUP)"), text.stderr)
        XCTAssertTrue(text.stderr.contains("(named at App.entitlements:7)"), text.stderr)
        let quiet = try CLI.run(["lint", ".", "--quiet"], in: dir)
        XCTAssertEqual(quiet.stderr, "", "--quiet prints only findings")
        let json = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(json.stderr, "", "machine formats carry notices in their own output")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((doc["findings"] as? [Any])?.count, 0)
        XCTAssertEqual((doc["notices"] as? [[String: Any]])?.first?["path"] as? String, "App.entitlements")
    }

    func testExitStatusZeroWhenClean() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), to: dir.appendingPathComponent("A.entitlements"))
        let r = try CLI.run(["lint"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(r.stdout, "1 file checked: no problems found\n")
    }

    func testStrictFailsOnWarnings() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), to: dir.appendingPathComponent("A.entitlements"))
        XCTAssertEqual(try CLI.run(["lint", "."], in: dir).status, 0)
        XCTAssertEqual(try CLI.run(["lint", ".", "--strict"], in: dir).status, 1)
    }

    /// A first word that is no file and close to a command is a mistyped command: exit 2 with a
    /// suggestion, for every command `help` lists; an existing file of that name is linted.
    func testMistypedCommandsRuleIdsAndConfigKeysGetSuggestions() throws {
        let dir = try CLI.temporaryDirectory(self)
        let help = try CLI.run(["help"], in: dir)
        let listed = help.stdout.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLowercase == true }   // a command's first line
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertGreaterThanOrEqual(listed.count, 8, help.stdout)
        for name in listed {
            let typo = String(name.dropLast())
            let r = try CLI.run([typo], in: dir)
            XCTAssertEqual(r.status, 2, typo)
            XCTAssertTrue(r.stderr.contains("unknown command '\(typo)' (did you mean '\(name)'?)"), "\(typo): \(r.stderr)")
        }
        try CLI.entitlements(["ABCDE12345.com.example.App"]).write(to: dir.appendingPathComponent("lnt"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try CLI.run(["lnt"], in: dir).status, 0, "an existing file is linted")

        let explain = try CLI.run(["explain", "wildcard-acess-group"], in: dir)
        XCTAssertEqual(explain.status, 2)
        XCTAssertTrue(explain.stderr.contains("did you mean 'wildcard-access-group'?"), explain.stderr)
        try "exlude: []\n".write(to: dir.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        let config = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(config.status, 2)
        XCTAssertTrue(config.stderr.contains("unknown key 'exlude' (did you mean 'exclude'?)"), config.stderr)
    }

    func testMissingPathIsUsageError() throws {
        let r = try CLI.run(["lint", "does/not/exist.entitlements"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("no such file or folder: does/not/exist.entitlements"), r.stderr)
    }

    func testUnknownOptionExitsTwoNot64() throws {
        let r = try CLI.run(["lint", "--no-such-option"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(try CLI.run(["lint", "--format", "xml", "."]).status, 2)
        XCTAssertEqual(try CLI.run(["lint", "--team-id", "lowercase", "."]).status, 2)
    }

    func testBadConfigurationNamesKeyAndLine() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("team: ABCDE12345\nrules:\n  wildcard-access-group: off\nteem: x\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(".entitlint.yml:4: unknown key 'teem'"), r.stderr)
        try write("rules:\n  no-such-rule: off\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let r2 = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r2.status, 2)
        XCTAssertTrue(r2.stderr.contains(":2: unknown rule 'no-such-rule'"), r2.stderr)
    }

    func testConfigTurnsRuleOffAndChangesSeverity() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*", "com.apple.token"]), to: dir.appendingPathComponent("A.entitlements"))
        try write("rules:\n  wildcard-access-group: off\n  token-group-claimed: error\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertFalse(r.stdout.contains("wildcard-access-group"), r.stdout)
        XCTAssertTrue(r.stdout.contains("error: \"com.apple.token\""), r.stdout)
        XCTAssertEqual(r.status, 1)
    }

    func testExcludeGlobs() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), to: dir.appendingPathComponent("Tests/Fixture.entitlements"))
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), to: dir.appendingPathComponent("App/App.entitlements"))
        try write("exclude: [\"Tests/**\"]\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let r = try CLI.run(["lint"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(r.stdout, "1 file checked: no problems found\n")
    }

    func testParseErrorDoesNotStopTheRun() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("<plist><dict><key>a</key></dict>", to: dir.appendingPathComponent("Broken.entitlements"))
        try write("", to: dir.appendingPathComponent("Empty.mobileprovision"))
        try write(CLI.entitlements(["*"]), to: dir.appendingPathComponent("Wild.entitlements"))
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("Broken.entitlements:1:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[parse-error]"))
        XCTAssertTrue(r.stdout.contains("Empty.mobileprovision: error: cannot parse profile: the file is empty"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Wild.entitlements:7:3: error"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("3 files checked: 3 errors, 0 warnings, 0 notes\n"), r.stdout)
    }

    func testFolderWalkSkipsBuildFoldersAndSymlinkLoops() throws {
        let dir = try CLI.temporaryDirectory(self)
        for skipped in [".git", ".build", "DerivedData", "Pods", "node_modules"] {
            try write(CLI.entitlements(["*"]), to: dir.appendingPathComponent("\(skipped)/X.entitlements"))
        }
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), to: dir.appendingPathComponent("App/App.xcent"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/loop").path, withDestinationPath: dir.path)
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(r.stdout, "1 file checked: no problems found\n")
    }

    func testLintWritesNothing() throws {
        let dir = try CLI.temporaryDirectory(self)
        let file = dir.appendingPathComponent("A.entitlements")
        try write(CLI.entitlements(["*"]), to: file)
        let before = try Data(contentsOf: file)
        _ = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["A.entitlements"])
        XCTAssertEqual(try Data(contentsOf: file), before)
    }

    func testLockThenDriftAfterBundleIDChange() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)com.example.shared"]),
                  to: dir.appendingPathComponent("App/App.entitlements"))
        let lock = try CLI.run(["lock", "App/App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"], in: dir)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertTrue(lockText.contains("\"default-access-group\" : \"ABCDE12345.com.example.AppOne\""), lockText)
        // Locking again gives the same bytes: sorted and stable.
        _ = try CLI.run(["lock", "App/App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"], in: dir)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8), lockText)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["App", "entitlint.lock"], "no temporary file left")

        let same = try CLI.run(["lint", "App/App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"], in: dir)
        XCTAssertEqual(same.status, 0, same.stdout)
        let renamed = try CLI.run(["lint", "App/App.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.Renamed"], in: dir)
        XCTAssertEqual(renamed.status, 1)
        XCTAssertTrue(renamed.stdout.contains("App/App.entitlements:7:3: error: default access group changed from \"ABCDE12345.com.example.AppOne\""), renamed.stdout)
        XCTAssertTrue(renamed.stdout.contains("[default-group-drift]"))
    }

    func testLockToNamedPath() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.AppOne"]), to: dir.appendingPathComponent("A.entitlements"))
        let r = try CLI.run(["lock", ".", "--team-id", "ABCDE12345", "--lock", "custom.lock"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("custom.lock").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("entitlint.lock").path))
    }

    func testProfileFlagPairsProfile() throws {
        let ex = CLI.packageRoot.appendingPathComponent("Examples/legacy-prefix")
        let r = try CLI.run(["lint", "Legacy.entitlements", "--profile", "Legacy.mobileprovision", "--bundle-id", "com.example.legacy"], in: ex)
        XCTAssertEqual(r.status, 1)
        // The profile gives the legacy App ID prefix, which the Team ID prefix of the group is not.
        XCTAssertTrue(r.stdout.contains("but the App ID prefix is Y54WEA9F74 (profile Legacy.mobileprovision)"), r.stdout)
    }

    /// `--bundle-id` against a literal application-identifier and a profile made for another
    /// bundle ID: one error, naming both, where none was reported before.
    func testBundleIDNotCoveredByTheAppIDOfTheFileAndTheProfile() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>application-identifier</key>
        \t<string>ABCDE12345.com.other.app</string>
        </dict>
        </plist>
        """, to: dir.appendingPathComponent("App.entitlements"))
        try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>Other App</string><key>UUID</key><string>0F5C4E8A-1111-2222-3333-444455556666</string>
        <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
        <key>Entitlements</key><dict><key>application-identifier</key><string>ABCDE12345.com.other.app</string></dict>
        </dict>
        </plist>
        """, to: dir.appendingPathComponent("Other.mobileprovision"))
        let args = ["lint", "App.entitlements", "--profile", "Other.mobileprovision", "--no-user-profiles"]
        XCTAssertEqual(try CLI.run(args, in: dir).status, 0, "the file and its profile agree")
        let r = try CLI.run(args + ["--bundle-id", "com.example.app"], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(lines.count, 1, r.stdout)
        XCTAssertTrue(lines[0].hasSuffix("[profile-app-id-mismatch]"), r.stdout)
        XCTAssertTrue(lines[0].contains("but the bundle ID is com.example.app (flag --bundle-id)"), r.stdout)
        XCTAssertTrue(lines[0].contains("has app ID \"ABCDE12345.com.other.app\", which does not match the bundle ID \"com.example.app\""), r.stdout)
    }

    func testRulesAndExplain() throws {
        let rules = try CLI.run(["rules"])
        XCTAssertEqual(rules.status, 0)
        let lines = rules.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, RuleRegistry.all.count + 1, "one line per rule, and one saying how to turn on an opt-in rule")
        XCTAssertTrue(lines.last?.hasPrefix("[opt-in]: off unless a run names it") == true, rules.stdout)
        let explain = try CLI.run(["explain", "wildcard-access-group"])
        XCTAssertEqual(explain.status, 0)
        XCTAssertTrue(explain.stdout.hasPrefix("# `wildcard-access-group`"), explain.stdout)
        XCTAssertTrue(explain.stdout.contains("## Triggering examples"))
        XCTAssertEqual(try CLI.run(["explain", "nope"]).status, 2)
    }

    func testClosedPipeEndsQuietly() throws {
        let dir = try CLI.temporaryDirectory(self)
        for i in 0..<200 { try write(CLI.entitlements(["*"]), to: dir.appendingPathComponent("F\(i).entitlements")) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "'\(CLI.executable.path)' lint . | head -1 >/dev/null; echo ${PIPESTATUS:-done}"]
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(String(decoding: e, as: UTF8.self), "", "no crash trace on a closed pipe")
    }
}

extension CommandLineTests {
    /// `--format=json` goes through swift-argument-parser, `--format json` through the fast path
    /// for plain lint invocations: both must behave the same.
    func testFastPathAndArgumentParserAgree() throws {
        let dir = CLI.packageRoot.appendingPathComponent("Examples/legacy-prefix")
        let fast = try CLI.run(["lint", "--format", "json", "--strict", "Legacy.entitlements", "--profile", "Legacy.mobileprovision"], in: dir)
        let slow = try CLI.run(["lint", "--format=json", "--strict", "Legacy.entitlements", "--profile=Legacy.mobileprovision"], in: dir)
        XCTAssertEqual(fast.stdout, slow.stdout)
        XCTAssertEqual(fast.status, slow.status)
        XCTAssertEqual(try CLI.run(["lint", "--max-file-size", "x", "."]).status, 2)
        XCTAssertEqual(try CLI.run(["--version"]).stdout, "0.1.0\n")
    }
}
