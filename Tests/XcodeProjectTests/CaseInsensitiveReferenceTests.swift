import XCTest
import EntitlintCore
import EntitlintWorkspace
import TestSupport
@testable import XcodeProject

/// Every file reference discovery follows, when the exact name is missing, opens the file whose
/// name differs only in case, as Xcode on a case-insensitive volume (the macOS default) does,
/// with a note saying a case-sensitive volume breaks on it; never an error. One synthetic project
/// per kind of reference.
final class CaseInsensitiveReferenceTests: XCTestCase {
    static let appSettings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")]

    func caseNotes(_ result: LintResult) -> [Finding] { result.findings.filter { $0.message.contains("differ only in case") } }

    func assertOnlyNotes(_ result: LintResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(result.findings.contains { $0.severity > .note }, "\(result.findings.map(\.message))", file: file, line: line)
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-entitlements-file" }, file: file, line: line)
    }

    func testAWorkspaceMemberNamedInAnotherCaseIsRead() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.name = "App"
        p.targets = [.init(name: "App", settings: [("Release", Self.appSettings + [("DEVELOPMENT_TEAM", "ABCDE12345")])])]
        try p.write(to: dir.appendingPathComponent("App"))
        try SyntheticProject.write(["App/App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"]),
                                    "Suite.xcworkspace/contents.xcworkspacedata": """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
           <FileRef
              location = "group:app/app.xcodeproj">
           </FileRef>
        </Workspace>
        """], in: dir)
        let result = try Fixture.lint([dir.appendingPathComponent("Suite.xcworkspace").path])
        XCTAssertEqual(result.units.map(\.name), ["App (Release)"])
        XCTAssertEqual(result.units.first?.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App")
        let notes = caseNotes(result)
        XCTAssertEqual(notes.count, 1, "\(result.findings.map(\.message))")
        XCTAssertEqual(notes.first?.severity, .note)
        XCTAssertTrue(notes.first?.path.hasSuffix("contents.xcworkspacedata") == true)
        XCTAssertTrue(notes.first?.message.contains("App/App.xcodeproj") == true, notes.first?.message ?? "")
        assertOnlyNotes(result)
    }

    func testABaseConfigurationNamedInAnotherCaseIsRead() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", Self.appSettings)], baseConfigurations: ["Release": "config/app.xcconfig"])]
        try p.write(to: dir)
        try SyntheticProject.write(["Config/App.xcconfig": "DEVELOPMENT_TEAM = ABCDE12345\n",
                                    "App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"])], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.first?.teamID?.value, "ABCDE12345", "read as macOS reads it")
        XCTAssertEqual(caseNotes(result).count, 1, "\(result.findings.map(\.message))")
        assertOnlyNotes(result)
    }

    func xcodeGenSpec(include: String? = nil, configFile: String? = nil) -> String {
        """
        name: App
        \(include.map { "include:\n  - path: \($0)\n" } ?? "")targets:
          App:
            type: application
            platform: iOS
        \(configFile.map { "    configFiles:\n      Debug: \($0)\n      Release: \($0)\n" } ?? "")    settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.example.App
            entitlements:
              path: App/App.entitlements
        """
    }

    func testAnXcodeGenConfigFileNamedInAnotherCaseIsRead() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": xcodeGenSpec(configFile: "config/app.xcconfig"),
                                    "Config/App.xcconfig": "DEVELOPMENT_TEAM = ABCDE12345\n",
                                    "App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"])], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.teamID?.value), ["ABCDE12345", "ABCDE12345"], "\(result.findings.map(\.message))")
        XCTAssertFalse(caseNotes(result).isEmpty)
        assertOnlyNotes(result)
    }

    func testAnXcodeGenIncludeNamedInAnotherCaseIsRead() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": xcodeGenSpec(include: "Common.yml"),
                                    "common.yml": "settings:\n  base:\n    DEVELOPMENT_TEAM: ABCDE12345\n",
                                    "App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"])], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.teamID?.value), ["ABCDE12345", "ABCDE12345"], "\(result.findings.map(\.message))")
        let notes = caseNotes(result)
        XCTAssertEqual(notes.count, 1, "\(result.findings.map(\.message))")
        XCTAssertTrue(notes.first?.message.contains("include:") == true, notes.first?.message ?? "")
        assertOnlyNotes(result)
    }

    func testABazelBuildFilesProfileAndEntitlementsNamedInAnotherCaseAreTheFiles() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write([
            "ios/BUILD.bazel": "ios_application(\n    name = \"ios\",\n    entitlements = \"app.entitlements\",\n    provisioning_profile = \"app_development.mobileprovision\",\n)\n",
            "ios/App_Development.mobileprovision": Fixture.expiredProfile("Named"), "ios/App.entitlements": Fixture.entitlements(["com.example.App"]),
        ], in: dir)
        let result = try Fixture.lint([dir.path])
        let expired = result.findings.filter { $0.rule == "profile-expired" }.map { Paths.baseName($0.path) }
        XCTAssertEqual(expired, ["App_Development.mobileprovision"], "checked as the profile the build names: \(result.findings.map(\.message))")
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-entitlements-file" }, "\(result.findings.map(\.message))")
        XCTAssertEqual(caseNotes(result).count, 2, "\(result.findings.map(\.message))")
    }
}
