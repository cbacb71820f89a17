import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import PropertyList
import Provisioning

final class BaselineTests: XCTestCase {
    func finding(_ rule: String, _ path: String, line: Int, keyPath: String?) -> Finding {
        Finding(rule: rule, severity: .error, message: "m", path: path, line: line, column: 3, keyPath: keyPath)
    }

    let keyer = Baseline.Keyer(baselinePath: "entitlint.baseline.json", profiles: [], cwd: "/repo")

    func testKeyedOnRulePathAndKeyPathNeverLines() {
        let before = [finding("wildcard-access-group", "App/App.entitlements", line: 7, keyPath: "keychain-access-groups[0]")]
        let baseline = Baseline.recording(before, keyer: keyer, checked: ["App/App.entitlements"], previous: nil)
        XCTAssertEqual(baseline.findings, [.init(rule: "wildcard-access-group", path: "App/App.entitlements", keyPath: "keychain-access-groups[0]")])
        // The same finding three lines further down (lines added above it) is still known.
        let moved = [finding("wildcard-access-group", "App/App.entitlements", line: 10, keyPath: "keychain-access-groups[0]")]
        let applied = baseline.apply(to: moved, keyer: keyer, checked: ["App/App.entitlements"])
        XCTAssertEqual(applied.findings, [])
        XCTAssertEqual(applied.hidden, 1)
        XCTAssertEqual(applied.unmatched, [])
        // Another element of the list is a new finding.
        let other = [finding("wildcard-access-group", "App/App.entitlements", line: 7, keyPath: "keychain-access-groups[1]")]
        let applied2 = baseline.apply(to: other, keyer: keyer, checked: ["App/App.entitlements"])
        XCTAssertEqual(applied2.findings, other)
        XCTAssertEqual(applied2.unmatched.map(\.keyPath), ["keychain-access-groups[0]"])
    }

    func testCountsAndUnmatchedOnlyForCheckedFiles() {
        let f = finding("parse-error", "A.entitlements", line: 1, keyPath: nil)
        let g = finding("token-group-claimed", "B.entitlements", line: 9, keyPath: "keychain-access-groups[2]")
        let baseline = Baseline.recording([f, f, g], keyer: keyer, checked: ["A.entitlements", "B.entitlements"], previous: nil)
        XCTAssertEqual(baseline.findings.first { $0.path == "A.entitlements" }?.count, 2)
        XCTAssertNil(baseline.findings.first { $0.path == "B.entitlements" }?.count, "a count of 1 is not written")
        // A third identical finding is new; B was not checked in this run, so its entry is not "unmatched".
        let applied = baseline.apply(to: [f, f, f], keyer: keyer, checked: ["A.entitlements"])
        XCTAssertEqual(applied.findings.count, 1)
        XCTAssertEqual(applied.unmatched, [])
        // B checked and clean: its entry is listed for pruning.
        XCTAssertEqual(baseline.apply(to: [f, f], keyer: keyer, checked: ["A.entitlements", "B.entitlements"]).unmatched.map(\.path), ["B.entitlements"])
    }

    func testRecordingKeepsEntriesOfFilesNotChecked() {
        let old = Baseline(findings: [.init(rule: "duplicate-key", path: "Other.entitlements", keyPath: "a"),
                                      .init(rule: "duplicate-key", path: "A.entitlements", keyPath: "b")])
        let now = Baseline.recording([], keyer: keyer, checked: ["A.entitlements"], previous: old)
        XCTAssertEqual(now.findings.map(\.path), ["Other.entitlements"])
    }

    func testPathsAreRelativeToTheBaselineFolder() {
        let k = Baseline.Keyer(baselinePath: "../ci/baseline.json", profiles: [], cwd: "/repo/App")
        XCTAssertEqual(k.path("App.entitlements"), "../App/App.entitlements")
        XCTAssertEqual(Baseline.Keyer(baselinePath: "/repo/b.json", profiles: [], cwd: "/repo/App").path("X/A.entitlements"), "App/X/A.entitlements")
        XCTAssertEqual(Baseline.relativePath("/a/b", from: "/a/b"), ".")
        XCTAssertEqual(Baseline.relativePath("/x/y", from: "/a/b"), "../../x/y")
    }

    func testProfileFindingsAreKeyedOnTheProfileUUID() {
        let profile = ProfileFile(path: "p/App.mobileprovision", profile: ProvisioningProfile(uuid: "abcd-1234"))
        let k = Baseline.Keyer(baselinePath: "b.json", profiles: [profile], cwd: "/repo")
        let f = finding("some-profile-rule", "p/App.mobileprovision", line: 0, keyPath: "ExpirationDate")
        XCTAssertEqual(k.key(f).profile, "ABCD-1234")
        let baseline = Baseline.recording([f], keyer: k, checked: ["p/App.mobileprovision"], previous: nil)
        // The same file replaced by a new profile (new UUID): the finding is new again.
        let renewed = Baseline.Keyer(baselinePath: "b.json",
                                     profiles: [ProfileFile(path: "p/App.mobileprovision", profile: ProvisioningProfile(uuid: "FFFF-0000"))], cwd: "/repo")
        XCTAssertEqual(baseline.apply(to: [f], keyer: renewed, checked: ["p/App.mobileprovision"]).findings, [f])
        XCTAssertEqual(baseline.apply(to: [f], keyer: k, checked: ["p/App.mobileprovision"]).findings, [])
    }

    func testEncodingIsSortedStableAndReadsBack() throws {
        let b = Baseline(findings: [.init(rule: "r", path: "b", keyPath: "k"), .init(rule: "r", path: "a", count: 2)].sorted())
        let text = String(decoding: b.encoded(), as: UTF8.self)
        XCTAssertEqual(text, """
        {
          "findings" : [
            {
              "count" : 2,
              "path" : "a",
              "rule" : "r"
            },
            {
              "key-path" : "k",
              "path" : "b",
              "rule" : "r"
            }
          ],
          "version" : 1
        }

        """)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("b.json").path
        try FileReader.writeAtomically(b.encoded(), to: file)
        XCTAssertEqual(try Baseline.load(path: file), b)
    }

    func testBadBaselinesSayWhy() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func error(_ text: String) -> String {
            let p = dir.appendingPathComponent("x.json").path
            try? text.write(toFile: p, atomically: true, encoding: .utf8)
            do { _ = try Baseline.load(path: p); return "" } catch { return error.description }
        }
        XCTAssertTrue(error("{").contains("not JSON"), error("{"))
        XCTAssertTrue(error(#"{"version": 1}"#).contains("missing 'findings'"), error(#"{"version": 1}"#))
        XCTAssertTrue(error(#"{"version": 2, "findings": []}"#).contains("unsupported version 2"))
        XCTAssertTrue(error(#"{"version": 1, "findings": [{"rule": 1, "path": "a"}]}"#).contains("wrong type at .findings[0].rule"),
                      error(#"{"version": 1, "findings": [{"rule": 1, "path": "a"}]}"#))
        XCTAssertTrue(error(#"{"version": 1, "findings": [{"rule": "r", "path": "a", "count": 0}]}"#)
            .hasSuffix("is not valid: bad value at .findings[0].count: 0 is not a count (a whole number from 1 to 1000000000)"))
        do { _ = try Baseline.load(path: dir.appendingPathComponent("none.json").path); XCTFail() } catch {
            XCTAssertTrue(error.description.contains("no such file"), error.description)
        }
    }
}

/// Integers a baseline or lock file gives are checked at load: a hostile count of 2^63-1 once
/// trapped (SIGILL) when counts were added up.
final class RecordIntegerTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func baselineError(_ text: String) -> String? {
        let p = dir.appendingPathComponent("b.json").path
        try? text.write(toFile: p, atomically: true, encoding: .utf8)
        do { _ = try Baseline.load(path: p); return nil } catch { return error.description }
    }

    func lockError(_ text: String) -> String? {
        let p = dir.appendingPathComponent("entitlint.lock").path
        try? text.write(toFile: p, atomically: true, encoding: .utf8)
        do { _ = try LockFile.load(path: p); return nil } catch { return "\(error)" }
    }

    func entry(count: String) -> String {
        #"{"version": 1, "findings": [{"rule": "r", "path": "a"}, {"rule": "r", "path": "b", "count": \#(count)}]}"#
    }

    func testBaselineCountOfInt64MaxIsRefusedAtLoadNamingTheFileAndKey() {
        let p = dir.appendingPathComponent("b.json").path
        XCTAssertEqual(baselineError(entry(count: "9223372036854775807")),
                       "the baseline \(p) is not valid: bad value at .findings[1].count: 9223372036854775807 is not a count (a whole number from 1 to 1000000000)")
    }

    func testNegativeAndZeroBaselineCountsAreRefusedAtLoad() {
        for count in ["-1", "0", "-9223372036854775808"] {
            let e = baselineError(entry(count: count)) ?? ""
            XCTAssertTrue(e.contains("bad value at .findings[1].count: \(count) is not a count (a whole number from 1 to 1000000000)"), e)
        }
    }

    func testBaselineCountsNoIntCanHoldAreRefusedAtTheirKeyNotCalledNotJSON() {
        for (count, shown) in [("99999999999999999999", "1e+20"), ("1e300", "1e+300"), ("2.5", "2.5")] {
            let e = baselineError(entry(count: count)) ?? ""
            XCTAssertTrue(e.contains("bad value at .findings[1].count: \(shown) is not a count"), e)
        }
        XCTAssertTrue((baselineError(#"{"version": 1e300, "findings": []}"#) ?? "").contains("bad value at .version: 1e+300 is not a version"))
        // The largest count allowed loads.
        XCTAssertNil(baselineError(entry(count: "1000000000")))
        XCTAssertNotNil(baselineError(entry(count: "1000000001")))
    }

    func testCountsSummedOverEntriesOfOneKeySaturateInsteadOfTrapping() {
        let keyer = Baseline.Keyer(baselinePath: "b.json", profiles: [], cwd: "/repo")
        let max = Baseline.maxCount
        // The same key many times at the largest count, as a hand-edited file may hold it.
        let baseline = Baseline(findings: Array(repeating: .init(rule: "r", path: "A.entitlements", count: max), count: 20))
        let f = Finding(rule: "r", severity: .error, message: "m", path: "A.entitlements", line: 1, column: 1)
        let applied = baseline.apply(to: [f, f], keyer: keyer, checked: ["A.entitlements"])
        XCTAssertEqual(applied.hidden, 2)
        XCTAssertEqual(applied.unmatched.map(\.count), [max - 2])
        // Recording keeps a file not checked at the largest count a file may hold, so it loads again.
        let recorded = Baseline.recording([f], keyer: keyer, checked: ["B.entitlements"], previous: baseline)
        XCTAssertEqual(recorded.findings.map(\.count), [max])
        let p = dir.appendingPathComponent("again.json").path
        XCTAssertNoThrow(try FileReader.writeAtomically(recorded.encoded(), to: p))
        XCTAssertEqual(try Baseline.load(path: p), recorded)
        XCTAssertEqual(Baseline.addCounts(Int.max, Int.max), max)
        XCTAssertEqual(Baseline.addCounts(2, 3), 5)
    }

    func testLockVersionsNoIntCanHoldAreAnErrorNamingTheKey() {
        let p = dir.appendingPathComponent("entitlint.lock").path
        XCTAssertEqual(lockError(#"{"version": 99999999999999999999, "units": {}}"#),
                       "lock file \(p) is not valid: bad value at .version: 1e+20 is not a version (a whole number from \(Int.min) to \(Int.max))")
        XCTAssertEqual(lockError(#"{"version": 9223372036854775807, "units": {}}"#),
                       "lock file \(p) is not valid: unsupported version 9223372036854775807")
        XCTAssertEqual(lockError(#"{"version": -1, "units": {}}"#), "lock file \(p) is not valid: unsupported version -1")
        XCTAssertNil(lockError(#"{"version": 1, "units": {}}"#))
    }

    func testLockFieldsOfTheWrongKindNameTheirKey() {
        let p = dir.appendingPathComponent("entitlint.lock").path
        XCTAssertEqual(lockError(#"{"version": 1, "units": {"A": {"default-access-group": 1e999999, "access-groups": []}}}"#),
                       "lock file \(p) is not valid: wrong type at .units.A.default-access-group")
        XCTAssertEqual(lockError(#"{"version": 1, "units": {"A": {"default-access-group": 5, "access-groups": []}}}"#),
                       "lock file \(p) is not valid: wrong type at .units.A.default-access-group")
        XCTAssertEqual(lockError(#"{"version": "1", "units": {}}"#), "lock file \(p) is not valid: wrong type at .version")
    }
}

final class ConfigurationKeysTests: XCTestCase {
    let known: Set<String> = ["comment-in-plist", "wildcard-access-group"]

    func parse(_ yaml: String) throws -> Configuration {
        try Configuration.parse(yaml, path: "c.yml", knownRules: known)
    }

    func error(_ yaml: String) -> Configuration.ConfigError? {
        do { _ = try parse(yaml); return nil } catch { return error as? Configuration.ConfigError }
    }

    func testProfilesBaselineFailOn() throws {
        let c = try parse("profiles: [profiles, Extra/One.mobileprovision]\nbaseline: b.json\nfail-on: warning\n")
        XCTAssertEqual(c.profiles, ["profiles", "Extra/One.mobileprovision"])
        XCTAssertEqual(c.baseline, "b.json")
        XCTAssertEqual(c.failOn, .warning)
        XCTAssertEqual(error("fail-on: fatal\n")?.reason, "'fail-on' must be error, warning or note, not 'fatal'")
        XCTAssertEqual(error("profiles: profiles\n")?.line, 1)
    }

    func testPlainScalarsThatAreNotStringsAreWrongTypes() throws {
        XCTAssertEqual(error("team: 1234567890\n")?.reason, "'team' must be a string, not a number (quote it: \"1234567890\")")
        XCTAssertEqual(try parse("team: \"1234567890\"\n").team, "1234567890")
        XCTAssertNotNil(error("lock: yes\n"))
        XCTAssertNotNil(error("lock: ~\n"))
        XCTAssertNotNil(error("lock:\n"))
        XCTAssertNotNil(error("variables:\n  VERSION: 1.0\n"))
        XCTAssertEqual(try parse("variables:\n  VERSION: '1.0'\n").variables, ["VERSION": "1.0"])
        XCTAssertEqual(error("apps:\n  - entitlements: a\n    bundle-id: 2024-01-01\n")?.line, 3)
    }

    func testRuleSettingsOffAsBooleanOrString() throws {
        XCTAssertEqual(try parse("rules:\n  comment-in-plist: off\n  wildcard-access-group: no\n").rules,
                       ["comment-in-plist": .off, "wildcard-access-group": .off])
        XCTAssertEqual(try parse("rules:\n  comment-in-plist: 'off'\n").rules, ["comment-in-plist": .off])
        XCTAssertNotNil(error("rules:\n  comment-in-plist: on\n"), "on is true, not a severity")
        XCTAssertNotNil(error("rules:\n  comment-in-plist: 1\n"))
    }

    func testKeysGivenTwiceAreErrors() {
        XCTAssertEqual(error("team: ABCDE12345\nlock: a\nteam: ABCDE12345\n")?.line, 3)
        XCTAssertEqual(error("team: ABCDE12345\nlock: a\nteam: ABCDE12345\n")?.reason, "'team' is given twice")
        XCTAssertEqual(error("apps:\n  - entitlements: a\n    entitlements: b\n")?.line, 3)
        XCTAssertEqual(error("rules:\n  comment-in-plist: off\n  comment-in-plist: note\n")?.line, 3)
    }

    func testUnknownKeyListsEveryKnownKey() {
        XCTAssertEqual(error("colour: red\n")?.reason,
                       "unknown key 'colour' (known: team, apps, rules, exclude, external-groups, lock, variables, profiles, baseline, fail-on, limits, profile-expiring-days, select, ignore, per-file-ignores)")
    }
}

final class StarterConfigurationTests: XCTestCase {
    /// `init` on a repository of many files of one name once tried `-2`, `-3`, ... from the
    /// start for each: quadratic. Each name now keeps the number it reached.
    func testManyFilesOfOneNameGetUniqueNamesInLinearTries() {
        let paths = Array(repeating: "App/App.entitlements", count: 10_000)
        var tries = 0
        let names = StarterConfiguration.uniqueNames(paths, tries: &tries)
        XCTAssertEqual(Set(names).count, 10_000)
        XCTAssertEqual(Array(names.prefix(3)), ["App-App", "App-App-2", "App-App-3"])
        XCTAssertLessThanOrEqual(tries, 2 * 10_000)
        // Natural names that look like numbered ones are skipped over, not overwritten.
        let mixed = StarterConfiguration.uniqueNames(["A.entitlements", "A-2.entitlements", "x/A.entitlements", "A-3.entitlements", "y/A.entitlements"])
        XCTAssertEqual(Set(mixed).count, 5)
        XCTAssertEqual(mixed, ["A", "A-2", "x-A", "A-3", "y-A"])
        let same = StarterConfiguration.uniqueNames(["A.entitlements", "A.entitlements", "A-2.entitlements", "A.entitlements"])
        XCTAssertEqual(same, ["A", "A-2", "A-2-2", "A-3"])
    }

    func file(_ path: String, _ body: String) throws -> StarterConfiguration.EntitlementsFile {
        let doc = try PropertyListReader.parse(Array("<plist><dict>\(body)</dict></plist>".utf8))
        return .init(path: path, entitlements: doc.root.dict)
    }

    let rules: [(id: String, severity: Severity)] = [("comment-in-plist", .note), ("wildcard-access-group", .error)]

    func testTeamAndBundleIDOnlyFromLiteralValues() throws {
        let text = StarterConfiguration.text(entitlements: [
            try file("App/App.entitlements", "<key>application-identifier</key><string>ABCDE12345.com.example.App</string>"),
            try file("Widget/Widget.entitlements", "<key>application-identifier</key><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>"),
        ], profiles: ["profiles/App.mobileprovision"], rules: rules)
        let c = try Configuration.parse(text, path: ".entitlint.yml", knownRules: ["comment-in-plist", "wildcard-access-group"])
        XCTAssertEqual(c.team, "ABCDE12345")
        XCTAssertEqual(c.apps.map(\.name), ["App", "Widget"])
        XCTAssertEqual(c.apps.map(\.bundleID), ["com.example.App", nil], "the widget's bundle ID is a variable: not guessed")
        XCTAssertEqual(c.profiles, ["profiles"])
        XCTAssertEqual(c.rules, [:], "rules are listed commented out")
        XCTAssertTrue(text.contains("#   wildcard-access-group: error"), text)
    }

    func testNothingWrittenThatTheFilesDoNotSay() throws {
        let text = StarterConfiguration.text(entitlements: [
            try file("A.entitlements", "<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.A</string></array>"),
            try file("Wild.entitlements", "<key>application-identifier</key><string>ABCDE12345.*</string>"),
        ], profiles: [], rules: rules)
        let c = try Configuration.parse(text, path: ".entitlint.yml", knownRules: ["comment-in-plist", "wildcard-access-group"])
        XCTAssertEqual(c.team, "ABCDE12345", "a wildcard App ID still states its prefix")
        XCTAssertEqual(c.apps.map(\.bundleID), [nil, nil], "a wildcard is not a bundle ID")
        XCTAssertEqual(c.profiles, [])
    }

    func testTwoTeamsGoPerAppAndNamesStayUnique() throws {
        let text = StarterConfiguration.text(entitlements: [
            try file("One/App.entitlements", "<key>com.apple.developer.team-identifier</key><string>ABCDE12345</string>"),
            try file("Two/App.entitlements", "<key>application-identifier</key><string>ZYXWV98765.com.example.two</string>"),
            .init(path: "Broken.entitlements", entitlements: nil),
        ], profiles: ["Root.mobileprovision"], rules: rules)
        let c = try Configuration.parse(text, path: ".entitlint.yml", knownRules: ["comment-in-plist", "wildcard-access-group"])
        XCTAssertNil(c.team)
        XCTAssertEqual(c.apps.map(\.name), ["Broken", "One-App", "Two-App"])
        XCTAssertEqual(c.apps.map(\.team), [nil, "ABCDE12345", "ZYXWV98765"])
        XCTAssertEqual(c.profiles, ["Root.mobileprovision"], "profiles at the top are listed one by one, never `.`")
    }

    func testNoFilesGivesACommentedExample() throws {
        let text = StarterConfiguration.text(entitlements: [], profiles: [], rules: rules)
        let c = try Configuration.parse(text, path: ".entitlint.yml", knownRules: [])
        XCTAssertEqual(c.apps.count, 0)
        XCTAssertNil(c.team)
        XCTAssertTrue(text.contains("# apps:"))
    }

    func testQuotingKeepsStrings() {
        XCTAssertEqual(StarterConfiguration.quoted("App/App.entitlements"), "App/App.entitlements")
        XCTAssertEqual(StarterConfiguration.quoted("1234567890"), "\"1234567890\"")
        XCTAssertEqual(StarterConfiguration.quoted("yes"), "\"yes\"")
        XCTAssertEqual(StarterConfiguration.quoted("My App: \"x\".entitlements"), "\"My App: \\\"x\\\".entitlements\"")
    }
}

final class VirtualFilesTests: XCTestCase {
    func testExclusiveSetIsTheWholeWorld() {
        let v = VirtualFiles(files: ["/r/App/A.entitlements": Array("x".utf8), "/r/Pods/P.entitlements": [], "/r/p/B.mobileprovision": []],
                             exclusive: true)
        XCTAssertEqual(v.kind("App/A.entitlements", cwd: "/r"), .file)
        XCTAssertEqual(v.kind("App", cwd: "/r"), .directory)
        XCTAssertEqual(v.kind(".", cwd: "/r"), .directory)
        XCTAssertEqual(v.kind("Nope", cwd: "/r"), .missing)
        XCTAssertEqual(v.walk(".", cwd: "/r") { _ in true }, ["App/A.entitlements", "p/B.mobileprovision"], "Pods is skipped as in a folder walk")
        XCTAssertEqual(v.walk("p", cwd: "/r") { _ in true }, ["p/B.mobileprovision"])
        XCTAssertEqual(try v.bytes("App/A.entitlements", cwd: "/r")?.get(), Array("x".utf8))
        XCTAssertTrue(v.isFile("App/A.entitlements", cwd: "/r"))
        XCTAssertFalse(v.isFile("App", cwd: "/r"), "a folder of the set is not a file")
        XCTAssertFalse(v.isFile("Nope", cwd: "/r"))
    }

    func testASetThatIsNotExclusiveAddsTheDisksFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vf-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/OnDisk.entitlements", contents: Data("x".utf8)))
        let open = VirtualFiles(files: [dir + "/Virtual.entitlements": []], exclusive: false)
        XCTAssertTrue(open.isFile("Virtual.entitlements", cwd: dir))
        XCTAssertTrue(open.isFile("OnDisk.entitlements", cwd: dir))
        XCTAssertFalse(open.isFile("Missing.entitlements", cwd: dir))
        let closed = VirtualFiles(files: [dir + "/Virtual.entitlements": []], exclusive: true)
        XCTAssertFalse(closed.isFile("OnDisk.entitlements", cwd: dir), "an exclusive set ignores the disk")
    }

    func testParseReadsBytesNotTheDisk() {
        let plist = Array("<plist><dict><key>a</key><string>b</string></dict></plist>".utf8)
        let v = VirtualFiles(files: ["/nonexistent/A.entitlements": plist, "/nonexistent/Big.entitlements": plist], exclusive: true)
        var limits = PlistLimits.default
        limits.maxBytes = plist.count
        let parsed = v.parse(["/nonexistent/A.entitlements"], limits: limits, cwd: "/")
        guard case .entitlements(let doc) = parsed[0] else { return XCTFail("\(parsed)") }
        XCTAssertEqual(doc.root.dict?["a"]?.string, "b")
        limits.maxBytes = 10
        guard case .unread(let reason, let rule) = v.parse(["/nonexistent/Big.entitlements"], limits: limits, cwd: "/")[0] else { return XCTFail() }
        XCTAssertTrue(reason.contains("larger than the limit"), reason)
        XCTAssertEqual(rule, "read-limit")
    }
}
