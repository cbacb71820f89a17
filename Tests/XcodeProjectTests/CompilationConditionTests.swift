import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// `#if` branches of the code are checked in the configurations that compile them: the
/// configuration's `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and `OTHER_SWIFT_FLAGS -D` decide.
final class CompilationConditionTests: XCTestCase {
    static let keychain = """
        enum Keys {
        #if BETA
            static let group = "ABCDE12345.com.example.beta"
        #else
            static let group = "ABCDE12345.com.example.shared"
        #endif
        }

        func save() {
            let q: [String: Any] = [kSecAttrAccessGroup as String: Keys.group]
            SecItemAdd(q as CFDictionary, nil)
        }
        """

    /// An app granted only the shared group, compiling `files` (path, text) from its synchronised
    /// folder `App`, with these settings in Debug and Release.
    func project(_ root: URL, debug: [(String, String)], release: [(String, String)],
                 files: [(String, String)] = [("App/Keys.swift", CompilationConditionTests.keychain)]) throws -> LintResult {
        for (path, text) in files { try Fixture.write(text, path, in: root) }
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: root)
        let base = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"), ("DEVELOPMENT_TEAM", "ABCDE12345"), ("CODE_SIGN_ENTITLEMENTS", "App.entitlements")]
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Debug", base + debug), ("Release", base + release)],
                           synchronizedFolders: [(path: "App", exceptions: [])])]
        try p.write(to: root)
        return try Fixture.lint([root.path])
    }

    func testABranchIsCheckedOnlyInTheConfigurationThatCompilesItAndTheFindingNamesIt() throws {
        let root = try Fixture.temporaryDirectory(self)
        let result = try project(root, debug: [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "DEBUG BETA")], release: [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "")])
        let sources = try XCTUnwrap(result.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        XCTAssertEqual(sources.compilationConditions, ["DEBUG", "BETA"])
        let findings = result.findings.filter { $0.rule == "code-group-not-entitled" }
        XCTAssertEqual(findings.count, 1, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("\"ABCDE12345.com.example.beta\"") == true, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("the entitlements of App (Debug) do not grant") == true, "\(findings.map(\.message))")
        XCTAssertEqual(findings.first?.severity, .error)
    }

    func testAFlagFromOtherSwiftFlagsCountsAndNoFlagMeansTheElseBranch() throws {
        let root = try Fixture.temporaryDirectory(self)
        let result = try project(root, debug: [("OTHER_SWIFT_FLAGS", "-D BETA -Onone")], release: [])
        let findings = result.findings.filter { $0.rule == "code-group-not-entitled" }
        XCTAssertEqual(findings.count, 1, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("App (Debug) do not grant") == true, "\(findings.map(\.message))")
        let release = try XCTUnwrap(result.units.first { $0.name == "App (Release)" }?.origin?.sources)
        XCTAssertEqual(release.compilationConditions, [])
    }

    func testConditionsAMissingXcconfigMaySetAreNotKnownAndNoBranchIsReported() throws {
        let root = try Fixture.temporaryDirectory(self)
        try Fixture.write(Self.keychain, "App/Keys.swift", in: root)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: root)
        let base = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"), ("DEVELOPMENT_TEAM", "ABCDE12345"), ("CODE_SIGN_ENTITLEMENTS", "App.entitlements"),
                    ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "$(inherited) $(LOCAL_FLAGS)")]
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Debug", base), ("Release", base)], synchronizedFolders: [(path: "App", exceptions: [])])]
        try p.write(to: root)
        let result = try Fixture.lint([root.path])
        // LOCAL_FLAGS is set nowhere: the conditions are not known, so neither branch is checked.
        XCTAssertNil(try XCTUnwrap(result.units.first { $0.name == "App (Debug)" }?.origin?.sources).compilationConditions)
        XCTAssertEqual(result.findings.filter { $0.rule.hasPrefix("code-group") }.map(\.message), [])
    }

    static let objcStore = """
        - (void)save:(NSData *)data {
            NSMutableDictionary *query = [NSMutableDictionary dictionary];
        #ifdef DEBUG
            query[(__bridge id)kSecAttrAccessGroup] = @"ABCDE12345.com.example.debug";
        #else
            query[(__bridge id)kSecAttrAccessGroup] = @"ABCDE12345.com.example.shared";
        #endif
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """

    func objcProject(_ root: URL, debug: [(String, String)], release: [(String, String)], header: String? = nil) throws -> LintResult {
        try project(root, debug: debug, release: release, files: [("App/Store.m", Self.objcStore)] + (header.map { [("App/Config.h", $0)] } ?? []))
    }

    func testAnObjectiveCBranchIsCheckedOnlyInTheConfigurationWhosePreprocessorDefinitionsCompileIt() throws {
        let root = try Fixture.temporaryDirectory(self)
        let result = try objcProject(root, debug: [("GCC_PREPROCESSOR_DEFINITIONS", "DEBUG=1 $(inherited)")],
                                     release: [("GCC_PREPROCESSOR_DEFINITIONS", "$(inherited) NS_BLOCK_ASSERTIONS=1")])
        let debug = try XCTUnwrap(result.units.first { $0.name == "App (Debug)" }?.origin?.sources)
        XCTAssertEqual(debug.preprocessorMacros, ["DEBUG": "1"])
        let findings = result.findings.filter { $0.rule == "code-group-not-entitled" }
        XCTAssertEqual(findings.map(\.line), [4], "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("\"ABCDE12345.com.example.debug\"") == true, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("#if defined(DEBUG)") == true, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("the entitlements of App (Debug) do not grant") == true, "\(findings.map(\.message))")
    }

    func testAMacroAHeaderOfTheUnitDefinesOrAPrefixHeaderLeavesTheBranchesUndecided() throws {
        let root = try Fixture.temporaryDirectory(self)
        // Release defines nothing, but a header of the target may define DEBUG: not decided there.
        let defined = try objcProject(root, debug: [("GCC_PREPROCESSOR_DEFINITIONS", "DEBUG=1")], release: [],
                                      header: "#ifndef CONFIG_H\n#define CONFIG_H\n#define DEBUG 1\n#endif\n")
        XCTAssertEqual(defined.findings.filter { $0.rule.hasPrefix("code-group") }.map(\.message), [])
        let root2 = try Fixture.temporaryDirectory(self)
        let prefixed = try objcProject(root2, debug: [("GCC_PREPROCESSOR_DEFINITIONS", "DEBUG=1"), ("GCC_PREFIX_HEADER", "App/Prefix.pch")],
                                       release: [("GCC_PREFIX_HEADER", "App/Prefix.pch")])
        XCTAssertNil(try XCTUnwrap(prefixed.units.first { $0.name == "App (Debug)" }?.origin?.sources).preprocessorMacros)
        XCTAssertEqual(prefixed.findings.filter { $0.rule.hasPrefix("code-group") }.map(\.message), [])
    }

    func testAMacroDefinedNowhereIsZeroOnlyWhileEveryHeaderTheCodeIncludesIsAmongItsFiles() throws {
        let store = Self.objcStore.replacing("#ifdef DEBUG", with: "#ifndef DEBUG")
        let settings = (debug: [("GCC_PREPROCESSOR_DEFINITIONS", "DEBUG=1")], release: [(String, String)]())
        let known = try project(try Fixture.temporaryDirectory(self), debug: settings.debug, release: settings.release,
                                files: [("App/Store.m", "#import \"Store.h\"\n" + store), ("App/Store.h", "@interface Store\n@end\n")])
        let findings = known.findings.filter { $0.rule == "code-group-not-entitled" }
        XCTAssertEqual(findings.count, 1, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("#if !defined(DEBUG)") == true, "\(findings.map(\.message))")
        XCTAssertTrue(findings.first?.message.contains("App (Release) do not grant") == true, "\(findings.map(\.message))")
        // A header the target's files do not hold may define DEBUG: Release's branch is undecided.
        let unseen = try project(try Fixture.temporaryDirectory(self), debug: settings.debug, release: settings.release,
                                 files: [("App/Store.m", "#import \"Elsewhere.h\"\n" + store)])
        XCTAssertEqual(unseen.findings.filter { $0.rule.hasPrefix("code-group") }.map(\.message), [])
    }

    func testPreprocessorDefinitionsAreSplitAsXcodeSplitsThem() {
        XCTAssertEqual(CompilationFlags.shellWords(#"A=1 "B=two words" C\ D 'E=x'"#), ["A=1", "B=two words", "C D", "E=x"])
    }
}
