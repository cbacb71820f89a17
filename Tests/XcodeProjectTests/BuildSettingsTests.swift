import XCTest
import EntitlintCore
import PropertyList
@testable import XcodeProject

final class BuildSettingsTests: XCTestCase {
    func a(_ key: String, _ value: String, file: String = "p", line: Int = 1) -> SettingAssignment {
        let (name, conditions) = SettingAssignment.splitKey(key)!
        return SettingAssignment(name: name, conditions: conditions, value: value, file: file, location: SourceLocation(line: line, column: 1))
    }

    func evaluator(_ entries: [SettingAssignment], builtins: [String: String] = [:], sdk: String = "iphoneos",
                   configuration: String = "Release") -> SettingsEvaluator {
        SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: sdk, configuration: configuration))
    }

    func testLaterLevelsWin() {
        let e = evaluator([a("PRODUCT_BUNDLE_IDENTIFIER", "com.example.project"), a("PRODUCT_BUNDLE_IDENTIFIER", "com.example.target", line: 9)])
        let r = e.resolve("PRODUCT_BUNDLE_IDENTIFIER")
        XCTAssertEqual(r.value, "com.example.target")
        XCTAssertEqual(r.source?.location.line, 9)
    }

    func testInheritedReachesTheLevelsBelow() {
        let e = evaluator([a("FLAGS", "-a"), a("FLAGS", "$(inherited) -b"), a("FLAGS", "$(FLAGS) -c")])
        XCTAssertEqual(e.resolve("FLAGS").value, "-a -b -c")
    }

    func testInheritedOfNothingIsEmptyNotUnresolved() {
        let r = evaluator([a("FLAGS", "$(inherited) -b")]).resolve("FLAGS")
        XCTAssertEqual(r.value, " -b")
        XCTAssertEqual(r.undefined, [])
    }

    func testVariableFormsAndNesting() {
        let e = evaluator([a("PREFIX", "com.example"), a("KIND", "APP"), a("NAME_APP", "One"),
                           a("A", "$(PREFIX).${NAME_$(KIND)}"), a("B", "$PREFIX.x")])
        XCTAssertEqual(e.resolve("A").value, "com.example.One")
        XCTAssertEqual(e.resolve("B").value, "com.example.x")
    }

    func testOperators() {
        let e = evaluator([a("N", "My App_2"), a("L", "$(N:lower)"), a("R", "com.example.$(N:rfc1034identifier)"),
                           a("C", "$(N:c99extidentifier)"), a("D", "$(MISSING:default=fallback)"), a("P", "/a/b/c.entitlements"),
                           a("F", "$(P:file) $(P:dir) $(P:base) $(P:suffix)")],
                          builtins: [:])
        XCTAssertEqual(e.resolve("L").value, "my app_2")
        XCTAssertEqual(e.resolve("R").value, "com.example.My-App-2")
        XCTAssertEqual(e.resolve("C").value, "My_App_2")
        XCTAssertEqual(e.resolve("D").value, "fallback")
        XCTAssertEqual(e.resolve("F").value, "c.entitlements /a/b c .entitlements")
    }

    func testUnsupportedOperatorIsAProblem() {
        let r = evaluator([a("N", "x"), a("Y", "$(N:frobnicate)")]).resolve("Y")
        XCTAssertNil(r.value)
        XCTAssertNotNil(r.problem)
    }

    func testConditionalSettingsMatchTheDeviceSDKAndConfiguration() {
        let e = evaluator([a("ID", "com.example.app"), a("ID[sdk=iphonesimulator*]", "com.example.sim"),
                           a("TEAM[config=Debug]", "DEBUGTEAM1"), a("TEAM[config=Release][sdk=iphoneos*]", "RELTEAM123"),
                           a("X[arch=arm64]", "arm"), a("Y[variant=normal]", "normal"), a("Z[weird=1]", "never")])
        XCTAssertEqual(e.resolve("ID").value, "com.example.app")
        XCTAssertEqual(e.resolve("TEAM").value, "RELTEAM123")
        XCTAssertEqual(e.resolve("X").value, "arm")
        XCTAssertEqual(e.resolve("Y").value, "normal")
        XCTAssertFalse(e.resolve("Z").isSet)
        XCTAssertEqual(evaluator([a("ID[sdk=iphonesimulator*]", "sim")], sdk: "iphonesimulator").resolve("ID").value, "sim")
    }

    func testUndefinedSettingIsTheEmptyStringAsInXcode() {
        let r = evaluator([a("PRODUCT_BUNDLE_IDENTIFIER", "$(BUNDLE_PREFIX).app")]).resolve("PRODUCT_BUNDLE_IDENTIFIER")
        XCTAssertEqual(r.value, ".app")
        XCTAssertEqual(r.undefined, ["BUNDLE_PREFIX"])
        XCTAssertEqual(r.source?.value, "$(BUNDLE_PREFIX).app")
    }

    func testSigningPrefixesStayForTheEntitlementsExpander() {
        let r = evaluator([a("KEYCHAIN_GROUP", "$(AppIdentifierPrefix)$(BASE).shared"), a("BASE", "com.example")]).resolve("KEYCHAIN_GROUP")
        XCTAssertEqual(r.value, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(r.undefined, [])
    }

    func testBuiltinsAndConfigVariablesAreTheLowestLevel() {
        let e = evaluator([a("PRODUCT_BUNDLE_IDENTIFIER", "$(BUNDLE_PREFIX).$(TARGET_NAME:rfc1034identifier)")],
                          builtins: ["TARGET_NAME": "App One", "BUNDLE_PREFIX": "com.example"])
        XCTAssertEqual(e.resolve("PRODUCT_BUNDLE_IDENTIFIER").value, "com.example.App-One")
    }

    func testCycleIsAProblemNotAHang() {
        let r = evaluator([a("A", "$(B)"), a("B", "$(C)"), a("C", "$(A)")]).resolve("A")
        XCTAssertNil(r.value)
        XCTAssertTrue(r.problem?.contains("refers to itself") == true, "\(r)")
    }

    func testExponentialExpansionIsBounded() {
        // Each level doubles: 2^30 bytes if expanded naively.
        var entries = [a("L0", "xxxxxxxxxxxxxxxx")]
        for i in 1...26 { entries.append(a("L\(i)", "$(L\(i - 1))$(L\(i - 1))")) }
        let r = evaluator(entries).resolve("L26")
        XCTAssertNil(r.value)
        XCTAssertTrue(r.problem?.contains("grows past") == true, "\(r)")
    }

    func testDeepNestingIsBounded() {
        var entries = [a("V0", "x")]
        for i in 1...200 { entries.append(a("V\(i)", "$(V\(i - 1))")) }
        let r = evaluator(entries).resolve("V200")
        XCTAssertNil(r.value)
        XCTAssertNotNil(r.problem)
    }

    /// Brackets nested inside one value are bounded like references through settings, and
    /// unclosed openers stay as written: a 6,000-byte value of 3,000 nested `$(` took 270 MB and
    /// a scan to the end of the value per opener before.
    func testNestedAndUnclosedBracketsInOneValue() {
        let nested = evaluator([a("A", String(repeating: "$(", count: 3_000) + "B" + String(repeating: ")", count: 3_000))]).resolve("A")
        XCTAssertNil(nested.value)
        XCTAssertEqual(nested.problem, "references nested deeper than 64 levels")
        let within = evaluator([a("B", "b"), a("A", String(repeating: "$(", count: 10) + "B" + String(repeating: ")", count: 10))]).resolve("A")
        XCTAssertEqual(within.value, "", "the names formed inside are undefined: empty, as in Xcode")
        XCTAssertNil(within.problem)
        let unclosed = String(repeating: "$(", count: 50_000)
        XCTAssertEqual(evaluator([a("U", unclosed)]).resolve("U").value, unclosed)
        XCTAssertEqual(SettingsEvaluator.matchingCloses(Array("$(a$(b)c)$(".utf8)), [8, -1, -1, 6, -1, -1, -1, -1, -1, -1, -1])
    }

    /// Found by the xcconfig fuzz harness (a timeout): each level naming its own setting several
    /// times made the evaluation exponential in the number of levels. Each assignment is now
    /// expanded once, so the work is linear: at most one expansion per reference written.
    func testSelfReferenceRepeatedOverManyLevelsIsExpandedOncePerLevel() {
        var entries = [a("DIR", "base")]
        for i in 1...20 { entries.append(a("DIR", "${DIR}/a \"$(DIR)\" $(inherited)", line: i + 1)) }
        let e = evaluator(entries)
        let r = e.resolve("DIR")
        XCTAssertNil(r.value)
        XCTAssertTrue(r.problem?.contains("grows past") == true, "\(r)")
        XCTAssertLessThanOrEqual(e.expansions, 3 * entries.count, "three references a level, each expanded once")
        let small = evaluator([a("X", "x"), a("X", "$(X)-$(X)"), a("X", "$(X)+$(inherited)")])
        XCTAssertEqual(small.resolve("X").value, "x-x+x-x")
        XCTAssertLessThanOrEqual(small.expansions, 6)
    }

    func testHoleMakesLowerLevelsUnknown() {
        let entries = [a("DEVELOPMENT_TEAM", "ABCDE12345"), .hole("Missing.xcconfig cannot be read", file: "p", location: .unknown),
                       a("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app")]
        let e = evaluator(entries)
        XCTAssertEqual(e.resolve("PRODUCT_BUNDLE_IDENTIFIER").value, "com.example.app")
        let team = e.resolve("DEVELOPMENT_TEAM")
        XCTAssertNil(team.value)
        XCTAssertTrue(team.problem?.contains("cannot be read") == true)
    }

    func testSplitKey() {
        XCTAssertEqual(SettingAssignment.splitKey("A_B")?.name, "A_B")
        XCTAssertEqual(SettingAssignment.splitKey("X[sdk=iphoneos*][arch=arm64]")?.conditions.map(\.key), ["sdk", "arch"])
        XCTAssertEqual(SettingAssignment.splitKey("X[sdk=a,config=b]")?.conditions.map(\.pattern), ["a", "b"])
        XCTAssertNil(SettingAssignment.splitKey("9X"))
        XCTAssertNil(SettingAssignment.splitKey("X[sdk"))
        XCTAssertNil(SettingAssignment.splitKey("X Y"))
    }

    func testDeviceSDK() {
        XCTAssertEqual(deviceSDK(sdkRoot: "iphoneos17.2", supportedPlatforms: nil), "iphoneos")
        XCTAssertEqual(deviceSDK(sdkRoot: "macosx", supportedPlatforms: nil), "macosx")
        XCTAssertEqual(deviceSDK(sdkRoot: "auto", supportedPlatforms: "iphonesimulator iphoneos macosx"), "iphoneos")
        XCTAssertNil(deviceSDK(sdkRoot: nil, supportedPlatforms: nil))
    }
}

extension BuildSettingsTests {
    /// `:rfc1034identifier` and `:identifier` give the same value whether a build setting or the
    /// entitlements file applies them, non-ASCII letters and a leading digit included.
    func testIdentifierOperatorsAgreeBetweenSettingsAndEntitlements() {
        for name in ["Café App", "2nd App", "My App_2", "Ünïcödé.Name"] {
            let settings = evaluator([a("N", name), a("R", "$(N:rfc1034identifier)"), a("I", "$(N:identifier)"), a("C", "$(N:c99extidentifier)")])
            let entitlements = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil, extra: ["N": name])
            for (setting, op) in [("R", "rfc1034identifier"), ("I", "identifier"), ("C", "c99extidentifier")] {
                XCTAssertEqual(settings.resolve(setting).value, entitlements.expand("$(N:\(op))").text, "\(name) :\(op)")
            }
        }
        XCTAssertEqual(evaluator([a("N", "Café App"), a("R", "$(N:rfc1034identifier)")]).resolve("R").value, "Caf--App")
    }
}
