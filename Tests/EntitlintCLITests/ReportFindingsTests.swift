import Foundation
import XCTest

/// `entitlint report` shows lint's findings on the units and groups they concern, the App ID
/// prefix and whether it is assumed, and the defaults that moved since the lock file or a revision.
final class ReportFindingsTests: XCTestCase {
    /// Two units: `Bad` lists a wildcard group first and a group of another team; `Good` lists
    /// only its own App ID.
    func problemFolder() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try CLI.entitlements(["ABCDE12345.*", "ZZZZZ99999.com.example.other"])
            .write(to: dir.appendingPathComponent("Bad.entitlements"), atomically: true, encoding: .utf8)
        try CLI.entitlements(["ABCDE12345.com.example.App"])
            .write(to: dir.appendingPathComponent("Good.entitlements"), atomically: true, encoding: .utf8)
        return dir
    }

    let facts = ["--team-id", "ABCDE12345", "--bundle-id", "com.example.App"]

    func report(_ format: String, in dir: URL, _ extra: [String] = []) throws -> String {
        let r = try CLI.run(["report", "--format", format] + facts + extra, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// Two copies of one Xcode project in two folders (as a Flutter app's `ios/` and `macos/`
    /// Runner projects): every unit keeps its own name and its own findings, in every format.
    func testProjectsOfTheSameNameInTwoFoldersGiveOneUnitEach() throws {
        let dir = try CLI.temporaryDirectory(self)
        for folder in ["ios", "macos"] {
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: dir.appendingPathComponent(folder))
        }
        for format in ["text", "markdown", "json", "dot", "html"] {
            let r = try CLI.run(["report", "--format", format], in: dir)
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
        }
        let json = try CLI.run(["report", "--format", "json"], in: dir).stdout
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let names = try XCTUnwrap(object["units"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertEqual(names.count, 16, "8 units in each copy")
        XCTAssertEqual(Set(names).count, names.count, "\(names)")
        XCTAssertTrue(names.contains("ios/AppSuite/AppOne (Debug)") && names.contains("macos/AppSuite/AppOne (Debug)"), "\(names)")
    }

    func testTextMarksTheUnitItsEntriesAndTheGroups() throws {
        let dir = try problemFolder()
        let lint = try CLI.run(["lint", "."] + facts, in: dir)
        XCTAssertTrue(lint.stdout.contains("[wildcard-access-group]") && lint.stdout.contains("[team-prefix-mismatch]"), lint.stdout)
        let text = try report("text", in: dir)
        XCTAssertFalse(text.contains("\u{1B}"), "no colour unless asked: \(text)")
        let bad = text.components(separatedBy: "\nBad ")[1].components(separatedBy: "\n\n")[0]
        XCTAssertTrue(bad.contains("\n  ! [error: wildcard-access-group] keychain access group \"ABCDE12345.*\""), bad)
        XCTAssertTrue(bad.contains("\n  ! [error: team-prefix-mismatch] "), bad)
        XCTAssertTrue(bad.contains("  * ABCDE12345.*") && bad.contains("      ^ [error: wildcard-access-group]\n    ZZZZZ99999"), bad)
        XCTAssertTrue(bad.contains("ZZZZZ99999.com.example.other") && bad.contains("      ^ [error: team-prefix-mismatch]\n"), bad)
        let good = text.components(separatedBy: "\nGood ")[1].components(separatedBy: "\n\n")[0]
        XCTAssertFalse(good.contains("[error") || good.contains("  ! "), good)
        XCTAssertTrue(text.contains("\nGroups with findings:\n  ABCDE12345.*  [error: wildcard-access-group]\n  ZZZZZ99999.com.example.other  [error: team-prefix-mismatch]\n"), text)
        XCTAssertTrue(text.hasSuffix("Units:\n  1  Bad  [error: wildcard-access-group, team-prefix-mismatch]\n  2  Good\n"), text)
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 100, String(line)) }

        let coloured = try report("text", in: dir, ["--color", "always"])
        XCTAssertTrue(coloured.contains("  ! \u{1B}[1;31m[error: wildcard-access-group]\u{1B}[0m "), coloured)
        let never = try CLI.run(["report", "--color", "always", "-o", "r.txt"] + facts, in: dir)
        XCTAssertEqual(never.status, 0, never.stderr)
        let written = try String(contentsOf: dir.appendingPathComponent("r.txt"), encoding: .utf8)
        XCTAssertFalse(written.contains("\u{1B}"), "a report file never has colour: \(written)")
    }

    func testMarkdownHTMLDotAndJSONMarkTheSameFindings() throws {
        let dir = try problemFolder()
        let md = try report("markdown", in: dir)
        XCTAssertTrue(md.contains("| Findings |\n|---|---|---|---|---|---|---|---|---|\n"), md)
        XCTAssertTrue(md.contains("| `ABCDE12345.*` | **error**: `wildcard-access-group`, `team-prefix-mismatch` |\n"), md)
        XCTAssertTrue(md.contains("| `ABCDE12345.com.example.App` | none |\n"), "Good has none: \(md)")
        XCTAssertTrue(md.contains("| `ABCDE12345.*` | **D** |   | **error**: `wildcard-access-group` |\n"), md)
        // The message is prose: its `*` cannot open emphasis.
        XCTAssertTrue(md.contains("- **error** `wildcard-access-group`: keychain access group \"ABCDE12345.\\*\""), md)

        let html = try report("html", in: dir)
        XCTAssertTrue(html.contains("<div class=\"card error\"><h3>Bad</h3>"), html)
        XCTAssertTrue(html.contains("<div class=\"card\"><h3>Good</h3>"), html)
        XCTAssertTrue(html.contains("<li><span class=\"sev error\">error</span><code>wildcard-access-group</code> keychain access group &quot;ABCDE12345.*&quot;"), html)
        XCTAssertTrue(html.contains("<th class=\"group kc lonely error\" title=\"ABCDE12345.* — 1 target — [error: wildcard-access-group]\">"), html)

        let dot = try report("dot", in: dir)
        XCTAssertTrue(dot.contains("\"unit:Bad\" [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f5f7\", color=\"#de350b\", penwidth=2, label="), dot)
        XCTAssertTrue(dot.contains("\"unit:Good\" [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f5f7\", label="), dot)
        XCTAssertTrue(dot.contains("\"keychain:ABCDE12345.*\" [shape=ellipse, style=filled, fillcolor=\"#deebff\", color=\"#de350b\", penwidth=2, label="), dot)
        XCTAssertTrue(dot.contains("\"unit:Bad\" -> \"keychain:ZZZZZ99999.com.example.other\" [color=\"#de350b\", penwidth=2];"), dot)
        XCTAssertTrue(dot.contains("subgraph cluster_legend {") && dot.contains("label=\"error (or default moved)\""), dot)

        let json = try JSONSerialization.jsonObject(with: Data(try report("json", in: dir).utf8)) as! [String: Any]
        let units = json["units"] as! [[String: Any]]
        let rules = { (u: [String: Any]) in (u["findings"] as! [[String: Any]]).map { $0["rule"] as! String } }
        XCTAssertEqual(units.map { $0["name"] as! String }, ["Bad", "Good"])
        XCTAssertEqual(rules(units[0]), ["wildcard-access-group", "team-prefix-mismatch"])
        XCTAssertEqual(rules(units[1]), [])
        let groups = json["keychainGroups"] as! [[String: Any]]
        let wildcard = groups.first { $0["group"] as? String == "ABCDE12345.*" }!
        XCTAssertEqual(rules(wildcard), ["wildcard-access-group"])
        XCTAssertEqual((wildcard["findings"] as! [[String: Any]])[0]["severity"] as? String, "error")
    }

    /// The App ID prefix stated by the entitlements is "known"; the Team ID taken for it is "assumed".
    func testTheAppIDPrefixIsShownKnownOrAssumed() throws {
        let dir = try CLI.temporaryDirectory(self)
        try CLI.entitlements(["Y54WEA9F74.com.example.App"], extra: "\n\t<key>application-identifier</key>\n\t<string>Y54WEA9F74.com.example.App</string>")
            .write(to: dir.appendingPathComponent("Legacy.entitlements"), atomically: true, encoding: .utf8)
        let text = try report("text", in: dir)
        XCTAssertTrue(text.contains("  App ID prefix Y54WEA9F74"), text)
        XCTAssertTrue(text.contains("known: application-identifier in the entitlements file"), text)
        let html = try report("html", in: dir)
        XCTAssertTrue(html.contains("<dt>App ID prefix</dt><dd><code>Y54WEA9F74</code>"), html)
        XCTAssertTrue(html.contains("<code>Y54WEA9F74</code> <span class=\"src\">known: application-identifier in the entitlements file</span>"), html)
        let md = try report("markdown", in: dir)
        XCTAssertTrue(md.contains("| `Y54WEA9F74` (known) |"), md)
        let suite = CLI.packageRoot.appendingPathComponent("Examples/AppSuite")
        let assumed = try CLI.run(["report", "--format", "html"], in: suite)
        XCTAssertTrue(assumed.stdout.contains("<dt>App ID prefix</dt><dd><code>ABCDE12345</code> <span class=\"src\">assumed: the Team ID (no profile, entitlement or setting states it)</span>"), assumed.stdout)
        XCTAssertFalse(assumed.stdout.contains("known: "), assumed.stdout)
    }

    /// The drifted example: only AppTwo (Release) moved, and every format says from what to what.
    func testAMovedDefaultIsMarkedInEveryFormat() throws {
        let drifted = CLI.packageRoot.appendingPathComponent("Examples/AppSuite-bundle-id-change")
        let moved = "default moved: ABCDE12345.com.example.AppTwo -> ABCDE12345.com.example.Notes (lock file)"
        let text = try CLI.run(["report"], in: drifted).stdout
        XCTAssertEqual(text.components(separatedBy: "  ! " + moved + "\n").count, 2, text)
        XCTAssertTrue(text.contains("  4  AppTwo (Release)  [error: default-group-drift] [default moved]\n  5 "), text)
        XCTAssertTrue(text.contains("  3  AppTwo (Debug)\n"), "Debug did not move: \(text)")
        let dot = try CLI.run(["report", "--format", "dot"], in: drifted).stdout
        XCTAssertTrue(dot.contains("\\n" + moved), dot)
        let md = try CLI.run(["report", "--format", "markdown"], in: drifted).stdout
        XCTAssertTrue(md.contains("`ABCDE12345.com.example.Notes` **(moved from `ABCDE12345.com.example.AppTwo`, lock file)**"), md)
        let html = try CLI.run(["report", "--format", "html"], in: drifted).stdout
        XCTAssertTrue(html.contains("<span class=\"sev error\">default moved</span><code>ABCDE12345.com.example.AppTwo</code> → <code>ABCDE12345.com.example.Notes</code>"), html)
        let json = try JSONSerialization.jsonObject(with: Data(try CLI.run(["report", "--format", "json"], in: drifted).stdout.utf8)) as! [String: Any]
        let movedUnits = (json["units"] as! [[String: Any]]).filter { $0["defaultMoved"] != nil }
        XCTAssertEqual(movedUnits.map { $0["name"] as! String }, ["AppTwo (Release)"])
        XCTAssertEqual(movedUnits[0]["defaultMoved"] as? [String: String],
                       ["from": "ABCDE12345.com.example.AppTwo", "to": "ABCDE12345.com.example.Notes", "reference": "lock file"])
    }

    /// `--lock FILE` is the reference it names; `--against REV` the units at a revision.
    func testLockAndAgainstChooseTheReference() throws {
        let dir = try CLI.temporaryDirectory(self)
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: suite)
        let plain = try CLI.run(["report"], in: suite)
        XCTAssertFalse(plain.stdout.contains("default moved"), plain.stdout)
        let lock = try String(contentsOf: suite.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        let old = lock.replacingOccurrences(of: "com.example.AppTwo", with: "com.example.Legacy")
        XCTAssertNotEqual(old, lock)
        try old.write(to: dir.appendingPathComponent("old.lock"), atomically: true, encoding: .utf8)
        let locked = try CLI.run(["report", "--lock", "../old.lock"], in: suite)
        XCTAssertEqual(locked.status, 0, locked.stderr)
        XCTAssertEqual(locked.stdout.components(separatedBy: "  ! default moved: ABCDE12345.com.example.Legacy -> ABCDE12345.com.example.AppTwo (lock file)\n").count, 2,
                       "AppTwo's configurations agree: one section, marked once: \(locked.stdout)")
        XCTAssertTrue(locked.stdout.contains("\nAppTwo (Debug, Release)  "), locked.stdout)
        XCTAssertEqual(locked.stdout.components(separatedBy: "[default moved]\n").count, 3, "the matrix's unit list marks each: \(locked.stdout)")

        try FileManager.default.removeItem(at: suite.appendingPathComponent("entitlint.lock"))
        for args in [["init", "-q"], ["add", "."], ["commit", "-q", "-m", "suite"]] {
            let g = try CLI.git(["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"] + args, in: suite, environment: GitTests.environment)
            XCTAssertEqual(g.status, 0, g.stderr)
        }
        let file = suite.appendingPathComponent("AppTwo/AppTwo.entitlements")
        let text = try String(contentsOf: file, encoding: .utf8)
        let swapped = text.replacingOccurrences(of: "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", with: "SWAP")
            .replacingOccurrences(of: "$(AppIdentifierPrefix)com.example.shared", with: "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)")
            .replacingOccurrences(of: "SWAP", with: "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertNotEqual(swapped, text)
        try swapped.write(to: file, atomically: true, encoding: .utf8)
        let against = try CLI.run(["report", "--against", "HEAD"], in: suite, environment: GitTests.environment)
        XCTAssertEqual(against.status, 0, against.stderr)
        XCTAssertEqual(against.stdout.components(separatedBy: "  ! default moved: ABCDE12345.com.example.AppTwo -> ABCDE12345.com.example.shared (").count, 2,
                       "one section for AppTwo's configurations: \(against.stdout)")
        XCTAssertTrue(against.stdout.contains("HEAD)\n"), against.stdout)
    }
}
