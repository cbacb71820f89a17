import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// The place that passes a group, written inside Swift `#if` branches, is checked only in the
/// configurations that compile it; C++ and Objective-C++ files read `OTHER_CPLUSPLUSFLAGS`.
extension CompilationConditionTests {
    /// A function that saves the `query` its `branches` (`#if ...` lines and `query(...)`s) define.
    static func swiftSave(_ branches: String) -> String {
        """
        func save(_ data: Data) {
        \(branches)
            SecItemAdd(query as CFDictionary, nil)
        }
        """
    }

    static func query(_ group: String) -> String {
        "    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: \"\(group)\"]"
    }

    static let debugOnly = [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "DEBUG")]
    static let noConditions = [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "")]

    func swiftProject(_ branches: String, debug: [(String, String)] = CompilationConditionTests.debugOnly,
                      release: [(String, String)] = CompilationConditionTests.noConditions) throws -> LintResult {
        try project(try Fixture.temporaryDirectory(self), debug: debug, release: release,
                    files: [("App/Store.swift", Self.swiftSave(branches))])
    }

    func notEntitled(_ result: LintResult) -> [Finding] {
        result.findings.filter { $0.rule == "code-group-not-entitled" }
    }

    /// Asserts that `result`'s `code-group-not-entitled` findings are, in line order, one per
    /// `(line, text)`, each message holding its `#if` condition and the units it names (`text`).
    func assertFindings(_ result: LintResult, _ expected: [(line: Int, text: [String])], file: StaticString = #filePath, line: UInt = #line) {
        let findings = notEntitled(result).sorted { $0.line < $1.line }
        XCTAssertEqual(findings.map(\.line), expected.map(\.line), "\(findings.map(\.message))", file: file, line: line)
        for (finding, wanted) in zip(findings, expected) {
            XCTAssertEqual(finding.severity, .error, file: file, line: line)
            for text in wanted.text {
                XCTAssertTrue(finding.message.contains(text), "\(text) not in: \(finding.message)", file: file, line: line)
            }
        }
    }

    func testASwiftSiteUnderIfDebugIsReportedForDebugOnlyAndTheFindingNamesIt() throws {
        let result = try swiftProject("#if DEBUG\n" + Self.query("ABCDE12345.com.example.debug") + "\n#else\n"
                                      + Self.query("ABCDE12345.com.example.shared") + "\n#endif")
        assertFindings(result, [(3, ["\"ABCDE12345.com.example.debug\"", "from #if DEBUG)", "the entitlements of App (Debug) do not grant"])])
    }

    func testASwiftSiteInTheElseOfIfDebugIsReportedForReleaseOnly() throws {
        let result = try swiftProject("#if DEBUG\n" + Self.query("ABCDE12345.com.example.shared") + "\n#else\n"
                                      + Self.query("ABCDE12345.com.example.release") + "\n#endif")
        assertFindings(result, [(5, ["from #if !DEBUG)", "the entitlements of App (Release) do not grant"])])
        // Without `#if`, the same place is checked in both configurations.
        assertFindings(try swiftProject(Self.query("ABCDE12345.com.example.release")), [(2, ["App (Debug, Release) do not grant"])])
    }

    func testASwiftSiteUnderAPlatformTestIsNotCheckedAndTheCodeListsItWithItsCondition() throws {
        let result = try swiftProject("#if os(iOS)\n" + Self.query("ABCDE12345.com.example.other") + "\n#endif")
        XCTAssertEqual(result.findings.filter { $0.rule.hasPrefix("code-group") }.map(\.message), [])
        for unit in result.units where unit.origin?.target == "App" {
            let sources = try XCTUnwrap(unit.origin?.sources)
            let uses = try XCTUnwrap(result.codeIndex).code(for: sources).groups
            XCTAssertEqual(uses.map(\.resolved.value), ["ABCDE12345.com.example.other"], unit.name)
            XCTAssertEqual(uses.map(\.resolved.undecided), ["os(iOS)"], unit.name)
            XCTAssertEqual(uses.first?.resolved.steps.first, "#if os(iOS)", unit.name)
        }
    }

    func testNestedSwiftIfsJoinTheirConditions() throws {
        let branches = "#if DEBUG\n#if BETA\n" + Self.query("ABCDE12345.com.example.beta") + "\n#else\n"
            + Self.query("ABCDE12345.com.example.debug") + "\n#endif\n#else\n" + Self.query("ABCDE12345.com.example.shared") + "\n#endif"
        let result = try swiftProject(branches, debug: [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "DEBUG BETA")],
                                      release: [("OTHER_SWIFT_FLAGS", "-DDEBUG")])
        assertFindings(result, [(4, ["#if DEBUG && BETA", "App (Debug) do not grant"]), (6, ["#if DEBUG && !BETA", "App (Release) do not grant"])])
    }

    func testAWrapperArgumentUnderSwiftIfIsDecidedToo() throws {
        let branches = "#if DEBUG\n    let keychain = Keychain(service: \"s\", accessGroup: \"ABCDE12345.com.example.debug\")\n#endif\n"
            + Self.query("ABCDE12345.com.example.shared")
        assertFindings(try swiftProject(branches), [(3, ["KeychainAccess", "App (Debug) do not grant"])])
    }

    /// `objcStore` with its `#ifdef DEBUG` branch under `FEATURE` instead.
    static let featureStore = objcStore.replacing("DEBUG", with: "FEATURE")

    /// The same store in `App/Store.mm` and `App/Plain.m`, with these settings in Debug and none in Release.
    func featureProject(_ debug: [(String, String)]) throws -> LintResult {
        try project(try Fixture.temporaryDirectory(self), debug: debug, release: [],
                    files: [("App/Store.mm", Self.featureStore), ("App/Plain.m", Self.featureStore)])
    }

    func testAnObjectiveCPlusPlusFileReadsTheMacrosOfOtherCPlusPlusFlags() throws {
        let result = try featureProject([("OTHER_CPLUSPLUSFLAGS", "-DFEATURE")])
        let debug = try XCTUnwrap(result.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        XCTAssertEqual(debug.preprocessorMacros, [:])
        XCTAssertEqual(debug.cplusplusMacros, ["FEATURE": "1"])
        // Only the `.mm` file is compiled with FEATURE, and only in Debug.
        let findings = notEntitled(result)
        XCTAssertEqual(findings.map(\.fileName), ["Store.mm"], "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("App (Debug) do not grant") == true, "\(findings.map(\.message))")
    }

    func testOtherCPlusPlusFlagsDefaultsToOtherCFlagsAndInheritsThem() throws {
        let unset = try featureProject([("OTHER_CFLAGS", "-DFEATURE")])
        let sources = try XCTUnwrap(unset.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        XCTAssertEqual(sources.cplusplusMacros, ["FEATURE": "1"])
        XCTAssertEqual(Set(notEntitled(unset).map(\.fileName)), ["Store.mm", "Plain.m"])
        // `$(inherited)` at the bottom is the default, `$(OTHER_CFLAGS)`; `-U` then removes a macro.
        let inherited = try featureProject([("OTHER_CFLAGS", "-DFEATURE -DKEPT"), ("OTHER_CPLUSPLUSFLAGS", "$(inherited) -UFEATURE")])
        let both = try XCTUnwrap(inherited.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        XCTAssertEqual(both.preprocessorMacros, ["FEATURE": "1", "KEPT": "1"])
        XCTAssertEqual(both.cplusplusMacros, ["KEPT": "1"])
        XCTAssertEqual(notEntitled(inherited).map(\.fileName), ["Plain.m"])
    }

    func testAHeaderKnowsOnlyTheMacrosCAndCPlusPlusCompilesDefineAlike() throws {
        // The header's `#ifdef FEATURE` holds in the `.mm` file's compile and not in the `.m`'s: not decided.
        let header = Self.featureStore.replacing("- (void)save:(NSData *)data {", with: "static void saveIt(NSData *data) {")
        let result = try project(try Fixture.temporaryDirectory(self), debug: [("OTHER_CPLUSPLUSFLAGS", "-DFEATURE")], release: [],
                                 files: [("App/Store.h", header), ("App/Store.mm", "#import \"Store.h\"\n"), ("App/Plain.m", "#import \"Store.h\"\n")])
        XCTAssertEqual(notEntitled(result).map(\.message), [])
        let sources = try XCTUnwrap(result.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        let uses = try XCTUnwrap(result.codeIndex).code(for: sources).groups
        XCTAssertEqual(uses.map(\.resolved.undecided), ["defined(FEATURE)", "!defined(FEATURE)"])
    }
}

private extension Finding {
    var fileName: String { URL(fileURLWithPath: path).lastPathComponent }
}
