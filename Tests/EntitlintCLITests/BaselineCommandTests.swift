import Foundation
import XCTest

/// `--write-baseline`, `--baseline`, config `baseline:` and bad input around them.
final class BaselineCommandTests: XCTestCase, WritesFixtures {

    func contents(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    func testRoundTrip() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), "App/App.entitlements", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "com.apple.token"]), "Widget/Widget.entitlements", in: dir)
        XCTAssertEqual(try CLI.run(["lint"], in: dir).status, 1)

        let w = try CLI.run(["lint", "--write-baseline", "entitlint.baseline.json"], in: dir)
        XCTAssertEqual(w.status, 0, w.stderr)
        XCTAssertEqual(w.stdout, "wrote entitlint.baseline.json: 2 findings recorded\n")
        let text = try String(contentsOf: dir.appendingPathComponent("entitlint.baseline.json"), encoding: .utf8)
        XCTAssertEqual(text, """
        {
          "findings" : [
            {
              "key-path" : "keychain-access-groups[0]",
              "path" : "App/App.entitlements",
              "rule" : "wildcard-access-group",
              "value-hash" : "d164daffba786834"
            },
            {
              "key-path" : "keychain-access-groups[1]",
              "path" : "Widget/Widget.entitlements",
              "rule" : "token-group-claimed",
              "value-hash" : "5ba8cdea462c791e"
            }
          ],
          "version" : 1
        }

        """)
        XCTAssertEqual(try contents(dir), ["App", "Widget", "entitlint.baseline.json"], "no temporary file left")

        let known = try CLI.run(["lint", "--baseline", "entitlint.baseline.json"], in: dir)
        XCTAssertEqual(known.status, 0, known.stdout)
        XCTAssertEqual(known.stdout, "2 files checked: no problems found\n")
        XCTAssertEqual(known.stderr, "")

        // Lines added above the finding: still the same finding. A second wildcard: new.
        let edited = CLI.entitlements(["$(AppIdentifierPrefix)*", "$(AppIdentifierPrefix)com.example.*"],
                                      extra: "").replacingOccurrences(of: "<dict>\n", with: "<dict>\n\t<key>aps-environment</key>\n\t<string>development</string>\n")
        try write(edited, "App/App.entitlements", in: dir)
        let new = try CLI.run(["lint", "--baseline", "entitlint.baseline.json"], in: dir)
        XCTAssertEqual(new.status, 1)
        XCTAssertEqual(new.stdout.components(separatedBy: "\n").filter { $0.contains("[wildcard-access-group]") }.count, 1, new.stdout)
        XCTAssertTrue(new.stdout.contains("com.example.*"), new.stdout)

        // The token group removed: its entry no longer matches, and is listed for pruning.
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Widget/Widget.entitlements", in: dir)
        let pruned = try CLI.run(["lint", "--baseline", "entitlint.baseline.json", "Widget"], in: dir)
        XCTAssertEqual(pruned.status, 0)
        XCTAssertEqual(pruned.stderr, """
        entitlint: note: 1 entry of the baseline entitlint.baseline.json matches no finding any more; prune with `entitlint lint --write-baseline entitlint.baseline.json`:
          token-group-claimed Widget/Widget.entitlements keychain-access-groups[1] (value 5ba8cdea462c791e)

        """)
        // Writing again for one folder keeps the entries of files not checked.
        let again = try CLI.run(["lint", "Widget", "--write-baseline", "entitlint.baseline.json"], in: dir)
        XCTAssertEqual(again.stdout, "wrote entitlint.baseline.json: 0 findings recorded, 1 kept for files not checked in this run\n")
        let after = try String(contentsOf: dir.appendingPathComponent("entitlint.baseline.json"), encoding: .utf8)
        XCTAssertTrue(after.contains("App/App.entitlements") && !after.contains("Widget"), after)
    }

    func testConfigBaselineIsRelativeToTheConfigAndWorksFromASubfolder() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "App/App.entitlements", in: dir)
        try write("baseline: ci/baseline.json\n", ".entitlint.yml", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("ci"), withIntermediateDirectories: true)
        let w = try CLI.run(["lint", "--write-baseline", "ci/baseline.json"], in: dir)
        XCTAssertEqual(w.status, 0, w.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("ci/baseline.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\"path\" : \"../App/App.entitlements\""), text)
        XCTAssertEqual(try CLI.run(["lint"], in: dir).status, 0)
        let sub = try CLI.run(["lint", "."], in: dir.appendingPathComponent("App"))
        XCTAssertEqual(sub.status, 0, sub.stdout + sub.stderr)
        // The fast path (plain `lint FILE`, as a hook runs it) reads the config's baseline too.
        XCTAssertEqual(try CLI.run(["lint", "App/App.entitlements"], in: dir).stdout, "1 file checked: no problems found\n")
    }

    func testUnreadableBaselineIsAUsageErrorAndNothingIsWritten() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        try write("{ not json", "bad.json", in: dir)
        try write(#"{"version": 1, "findings": [{"rule": "x"}]}"#, "partial.json", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
        let before = try contents(dir)
        let cases: [([String], String)] = [
            (["--baseline", "bad.json"], "entitlint: the baseline bad.json is not valid: not JSON"),
            (["--baseline", "partial.json"], "entitlint: the baseline partial.json is not valid: missing 'path' at .findings[0]"),
            (["--baseline", "none.json"], "entitlint: cannot read the baseline none.json: no such file (write one with --write-baseline none.json)"),
            (["--baseline", "folder.json"], "entitlint: cannot read the baseline folder.json: not a regular file (a folder)"),
            (["--write-baseline", "bad.json"], "entitlint: the baseline bad.json is not valid: not JSON (remove it to start afresh)"),
            (["--write-baseline", "no/such/folder/b.json"], "entitlint: cannot write the baseline no/such/folder/b.json: no such folder no/such/folder"),
            (["--write-baseline", "folder.json"], "entitlint: cannot write the baseline folder.json: it is a folder"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(["lint"] + args, in: dir)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args): no report")
            XCTAssertEqual(r.stderr, message + "\n")
            XCTAssertEqual(try contents(dir), before, "\(args): nothing written")
        }
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("bad.json"), encoding: .utf8), "{ not json")

        try write("baseline: none.json\n", ".entitlint.yml", in: dir)
        let config = try CLI.run(["lint", "A.entitlements"], in: dir)
        XCTAssertEqual(config.status, 2)
        XCTAssertTrue(config.stderr.contains("cannot read the baseline none.json: no such file"), config.stderr)
    }

    func testBrokenConfigIsAUsageErrorAndNothingIsWritten() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        for config in ["team: [oops\n", "apps: yes\n", "fail-on: sometimes\n", "profiles: [missing]\n"] {
            try write(config, ".entitlint.yml", in: dir)
            let r = try CLI.run(["lint", "--write-baseline", "b.json"], in: dir)
            XCTAssertEqual(r.status, 2, config)
            XCTAssertTrue(r.stderr.hasPrefix("entitlint: "), r.stderr)
            XCTAssertEqual(try contents(dir), [".entitlint.yml", "A.entitlements"], "\(config): nothing written")
        }
    }

    func testConfigFailOnAndProfiles() throws {
        let dir = try CLI.temporaryDirectory(self)
        // A listed twice: a warning (duplicate-access-group).
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "A.entitlements", in: dir)
        XCTAssertEqual(try CLI.run(["lint", "A.entitlements"], in: dir).status, 0)
        try write("fail-on: warning\n", ".entitlint.yml", in: dir)
        XCTAssertEqual(try CLI.run(["lint", "A.entitlements"], in: dir).status, 1)
        XCTAssertEqual(try CLI.run(["lint", "A.entitlements", "--fail-on", "error"], in: dir).status, 0, "the flag wins")

        // `profiles:` pairs a profile kept elsewhere with a file linted alone (as a hook does).
        let ex = CLI.packageRoot.appendingPathComponent("Examples/legacy-prefix")
        let p = try CLI.temporaryDirectory(self)
        try FileManager.default.copyItem(at: ex.appendingPathComponent("Legacy.entitlements"), to: p.appendingPathComponent("Legacy.entitlements"))
        try FileManager.default.createDirectory(at: p.appendingPathComponent("signing"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ex.appendingPathComponent("Legacy.mobileprovision"), to: p.appendingPathComponent("signing/Legacy.mobileprovision"))
        let app = "apps:\n  - name: Legacy\n    entitlements: Legacy.entitlements\n    bundle-id: com.example.legacy\n"
        try write(app, ".entitlint.yml", in: p)
        // Only the profile knows the legacy App ID prefix: without it the group looks right.
        let without = try CLI.run(["lint", "Legacy.entitlements"], in: p)
        XCTAssertFalse(without.stdout.contains("team-prefix-mismatch"), without.stdout)
        try write(app + "profiles: [signing]\n", ".entitlint.yml", in: p)
        let with = try CLI.run(["lint", "Legacy.entitlements"], in: p)
        XCTAssertTrue(with.stdout.contains("App ID prefix is Y54WEA9F74 (profile signing/Legacy.mobileprovision)"), with.stdout + with.stderr)
        XCTAssertTrue(with.stdout.contains("[team-prefix-mismatch]"), with.stdout + with.stderr)
    }

    func testExcludesApplyToExplicitPaths() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "Tests/Fixture.entitlements", in: dir)
        try write("exclude: [\"Tests/**\"]\n", ".entitlint.yml", in: dir)
        let r = try CLI.run(["lint", "Tests/Fixture.entitlements"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(r.stdout, "0 files checked: no problems found\n")
        // A folder named explicitly is walked with the excludes; left with nothing to lint, the
        // run says so and fails (exit 2) unless --allow-empty accepts it.
        let folder = try CLI.run(["lint", "Tests"], in: dir)
        XCTAssertEqual(folder.status, 2, folder.stdout)
        XCTAssertTrue(folder.stderr.contains("nothing to lint in Tests"), folder.stderr)
        XCTAssertEqual(try CLI.run(["lint", "--allow-empty", "Tests"], in: dir).stdout, "0 files checked: no problems found\n")
    }

    func testInitWritesAStarterThatLintReadsAndNeverOverwrites() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.AppOne"],
                                   extra: "\n\t<key>application-identifier</key>\n\t<string>ABCDE12345.com.example.AppOne</string>"),
                  "AppOne/AppOne.entitlements", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Widget/Widget.entitlements", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/family/profiles/AppOne.mobileprovision"),
                                         to: dir.appendingPathComponent("profiles/AppOne.mobileprovision"))
        let r = try CLI.run(["init"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote .entitlint.yml: 2 apps, 1 profile; review it, then run `entitlint lint`\n")
        let text = try String(contentsOf: dir.appendingPathComponent(".entitlint.yml"), encoding: .utf8)
        XCTAssertTrue(text.contains("\nteam: ABCDE12345\n"), text)
        XCTAssertTrue(text.contains("    bundle-id: com.example.AppOne"), text)
        XCTAssertTrue(text.contains("    # bundle-id: com.example.Widget"), "the widget's bundle ID is not written in its file:\n\(text)")
        XCTAssertTrue(text.contains("profiles:\n  - profiles\n"), text)
        let lint = try CLI.run(["lint"], in: dir)
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)

        let again = try CLI.run(["init"], in: dir)
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(again.stderr, "entitlint: .entitlint.yml already exists: not replacing it (edit it, or remove it to start afresh)\n")
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent(".entitlint.yml"), encoding: .utf8), text)
        XCTAssertEqual(try CLI.run(["init", "no/such/folder"], in: dir).status, 2)
    }
}
