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

    func project(_ root: URL, debug: [(String, String)], release: [(String, String)]) throws -> LintResult {
        try Fixture.write(Self.keychain, "App/Keys.swift", in: root)
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
}
