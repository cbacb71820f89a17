import XCTest
import TestSupport
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Projects read as Xcode and XcodeGen read them (keychain-access-groups.md section 2.1): undefined settings are
/// empty, generated and per-developer files are expected to be missing from a fresh clone, includes
/// differing in case open on macOS, included XcodeGen specs resolve their own paths.
final class XcodeSemanticsTests: XCTestCase {
    func app(_ name: String, _ configs: [String: [(String, String)]], bases: [String: String] = [:]) -> ProjectFixture.Target {
        .init(name: name, settings: configs.keys.sorted().map { ($0, configs[$0]!) }, baseConfigurations: bases)
    }

    /// A project of one app target (bundle ID com.example.App) whose Release configuration is based
    /// on `base`, with `files` (path: text) beside it and a `.git` folder when `inGitWorkTree`,
    /// linted; the result and its finding about `subject` (the test fails without one).
    func lintApp(basedOn base: String, files: [String: String] = [:], inGitWorkTree: Bool = false,
                 findingAbout subject: String) throws -> (result: LintResult, finding: Finding) {
        let result = try lintApp(basedOn: base, files: files, inGitWorkTree: inGitWorkTree)
        let finding = try XCTUnwrap(result.findings.first { $0.message.contains(subject) }, "\(result.findings.map(\.message))")
        return (result, finding)
    }

    func lintApp(basedOn base: String, files: [String: String] = [:], inGitWorkTree: Bool = false) throws -> LintResult {
        let dir = try Fixture.temporaryDirectory(self)
        if inGitWorkTree { try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true) }
        for (path, text) in files { try Fixture.write(text, path, in: dir) }
        var p = ProjectFixture()
        p.targets = [app("App", ["Release": [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App")]], bases: ["Release": base])]
        try p.write(to: dir)
        return try Fixture.lint([dir.path])
    }

    /// The run's notice about `subject` (the test fails without one), and that the run has no finding.
    func lintAppNotice(basedOn base: String, files: [String: String] = [:], inGitWorkTree: Bool = false,
                       about subject: String) throws -> (result: LintResult, notice: Notice) {
        let result = try lintApp(basedOn: base, files: files, inGitWorkTree: inGitWorkTree)
        XCTAssertEqual(result.findings, [], "a file a fresh clone lacks is no finding")
        let notice = try XCTUnwrap(result.notices.first { $0.message.contains(subject) }, "\(result.notices.map(\.message))")
        return (result, notice)
    }

    func testCocoaPodsProjectBeforePodInstallGivesOneNoticeAndKeepsItsFacts() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.name = "App"
        p.projectSettings = [("Debug", [("SDKROOT", "iphoneos"), ("DEVELOPMENT_TEAM", "ABCDE12345")]),
                             ("Release", [("SDKROOT", "iphoneos"), ("DEVELOPMENT_TEAM", "ABCDE12345")])]
        let settings = [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App")]
        p.targets = [app("App", ["Debug": settings, "Release": settings],
                         bases: ["Debug": "Pods/Target Support Files/Pods-App/Pods-App.debug.xcconfig",
                                 "Release": "Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig"])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace version = "1.0">
           <FileRef location = "group:App.xcodeproj"></FileRef>
           <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
        </Workspace>
        """, "App.xcworkspace/contents.xcworkspacedata", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings, [], "\(result.findings.map(\.message))")
        let pods = result.notices.filter { $0.message.contains("pod install") }
        XCTAssertEqual(pods.count, 1, "one notice for the three files one step makes: \(pods.map(\.message))")
        XCTAssertTrue(pods.first?.message.contains("3 files are not here") == true, "\(pods.map(\.message))")
        let unit = try XCTUnwrap(result.units.first { $0.name == "App (Debug)" })
        XCTAssertEqual(unit.teamID?.value, "ABCDE12345", "a setting a committed level sets is known whatever a missing file adds")
        XCTAssertEqual(unit.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App")
    }

    func testPerDeveloperFileWithATemplateBesideItIsANotice() throws {
        let (result, n) = try lintAppNotice(basedOn: "Config/App.xcconfig", files: [
            "Config/App.xcconfig": "#include \"Local.xcconfig\"\nDEVELOPMENT_TEAM = ABCDE12345\n",
            "Config/Local.xcconfig.sample": "DEVELOPMENT_TEAM = YOURTEAMID\n",
        ], about: "Local.xcconfig")
        XCTAssertTrue(n.message.contains("Local.xcconfig.sample"), n.message)
        XCTAssertTrue(n.path.hasSuffix("Config/App.xcconfig") && n.line == 1, "\(n.path):\(n.line)")
        XCTAssertEqual(result.units.first?.teamID?.value, "ABCDE12345")
    }

    func testMissingFileGitIgnoresIsANotice() throws {
        let (_, n) = try lintAppNotice(basedOn: "Secrets.xcconfig", files: [".gitignore": "Secrets.xcconfig\n"], inGitWorkTree: true,
                                       about: "Secrets.xcconfig")
        XCTAssertTrue(n.message.contains("ignored by git"), n.message)
    }

    func testMissingFileNothingExplainsIsTheSameNoticeInAndOutOfAGitWorkTree() throws {
        // Xcode warns about a missing xcconfig and builds on (a build step may make it): never an
        // error by itself, and whether the folder is a git work tree changes nothing.
        let (_, inTree) = try lintAppNotice(basedOn: "Shared/Base.xcconfig", inGitWorkTree: true, about: "Base.xcconfig")
        let (_, plain) = try lintAppNotice(basedOn: "Shared/Base.xcconfig", inGitWorkTree: false, about: "Base.xcconfig")
        XCTAssertTrue(inTree.message.contains("not committed") || inTree.message.contains("not here either"), inTree.message)
        XCTAssertTrue(plain.message.contains("is not here"), plain.message)
    }

    func testSubmoduleFileIsANoticeNamingTheStep() throws {
        let (_, n) = try lintAppNotice(basedOn: "Config/App.xcconfig", files: [
            ".gitmodules": "[submodule \"Core\"]\n\tpath = Vendor/Core\n\turl = https://example.com/core.git\n",
            "Config/App.xcconfig": "#include \"../Vendor/Core/Config/Common.xcconfig\"\n",
        ], inGitWorkTree: true, about: "Common.xcconfig")
        XCTAssertTrue(n.message.contains("git submodule update --init"), n.message)
    }

    func testIncludeDifferingInCaseIsReadWithANote() throws {
        let (result, f) = try lintApp(basedOn: "Config/App.xcconfig", files: [
            "Config/App.xcconfig": "#include \"Version.public.xcconfig\"\n",
            "Config/Version.Public.xcconfig": "DEVELOPMENT_TEAM = ABCDE12345\n",
        ], findingAbout: "differ only in case")
        XCTAssertEqual(f.severity, .note)
        XCTAssertTrue(f.message.contains("case-sensitive"), f.message)
        XCTAssertEqual(result.units.first?.teamID?.value, "ABCDE12345", "read as macOS reads it")
    }

    func testIncludeFromTheProjectFolderIsFound() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [app("App", ["Release": [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App")]], bases: ["Release": "App/Common.xcconfig"])]
        try p.write(to: dir)
        try Fixture.write("#include \"Config/Team.xcconfig\"\n", "App/Common.xcconfig", in: dir)
        try Fixture.write("DEVELOPMENT_TEAM = ABCDE12345\n", "Config/Team.xcconfig", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings, [])
        XCTAssertEqual(result.units.first?.teamID?.value, "ABCDE12345")
    }

    func testSettingSetOnlyForReleaseLeavesTheDebugGroupWithoutAName() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        let settings = [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"),
                        ("DEVELOPMENT_TEAM", "ABCDE12345")]
        p.targets = [app("App", ["Debug": settings, "Release": settings], bases: ["Release": "Config/Release.xcconfig"])]
        try p.write(to: dir)
        try Fixture.write("VAULT_GROUP = com.example.vault\n", "Config/Release.xcconfig", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(VAULT_GROUP)"]), "App/App.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        let f = try XCTUnwrap(result.findings.first { $0.rule == "empty-setting-in-group" }, "\(result.findings.map(\.message))")
        XCTAssertEqual(f.severity, .error)
        XCTAssertTrue(f.message.contains("\"ABCDE12345.\"") && f.message.contains("$(VAULT_GROUP)"), f.message)
        XCTAssertTrue(f.message.contains("Config/Release.xcconfig:1"), "where it is set: \(f.message)")
        XCTAssertEqual(f.units, ["App (Debug)"], "Release is fine: \(f.shownMessage)")
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [])
        XCTAssertEqual(result.units.first { $0.name == "App (Release)" }?.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.vault")
    }

    func testSettingThatHoldsThePrefixIsExpandedThroughTheEntitlements() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [app("App", ["Release": [("CODE_SIGN_ENTITLEMENTS", "App.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"),
                                             ("DEVELOPMENT_TEAM", "ABCDE12345"),
                                             ("KEYCHAIN_GROUP", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER).shared")]])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(KEYCHAIN_GROUP)"]), "App.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.first?.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App.shared")
        XCTAssertEqual(result.findings.filter { $0.severity != .note }, [], "\(result.findings.map(\.message))")
    }

    func testXcodeGenIncludedSpecResolvesItsOwnPaths() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        name: Suite
        options:
          bundleIdPrefix: com.example
        include:
          - path: App/target.yml
        """, "project.yml", in: dir)
        try Fixture.write("""
        targets:
          App:
            type: application
            platform: iOS
            configFiles:
              Debug: Debug.xcconfig
              Release: Debug.xcconfig
            entitlements:
              path: App.entitlements
        """, "App/target.yml", in: dir)
        try Fixture.write("DEVELOPMENT_TEAM = ABCDE12345\n", "App/Debug.xcconfig", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings, [], "\(result.findings.map(\.message))")
        let unit = try XCTUnwrap(result.units.first { $0.name == "App (Release)" })
        XCTAssertEqual(unit.teamID?.value, "ABCDE12345", "App/Debug.xcconfig, beside the included spec")
        XCTAssertTrue(unit.entitlementsPath.hasSuffix("App/App.entitlements"), unit.entitlementsPath)
    }

    func testXcodeGenFileAnotherTargetGeneratesIsNotMissing() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write(SyntheticProject.spec("Suite", team: nil, targets: [
            SpecTarget("App", settings: ["  PRODUCT_BUNDLE_IDENTIFIER: com.example.App"], entitlements: "Shared/App.entitlements",
                       properties: ["com.apple.security.application-groups: [group.com.example.suite]"]),
            SpecTarget("AppBeta", settings: ["  PRODUCT_BUNDLE_IDENTIFIER: com.example.App.beta", "  CODE_SIGN_ENTITLEMENTS: Shared/App.entitlements"]),
        ]), "project.yml", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings.filter { $0.rule == "parse-error" }, [], "\(result.findings.map(\.message))")
        XCTAssertTrue(result.units.contains { $0.name == "AppBeta (Debug)" })
    }

    func testXcodeGenMultiPlatformTargetFormsOneUnitPerPlatform() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write(SyntheticProject.spec("Suite", team: nil, targets: [
            SpecTarget("App", platform: "[iOS, macOS]", settings: ["  PRODUCT_BUNDLE_IDENTIFIER: com.example.app.${platform}"]),
        ]), "project.yml", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App_iOS (Debug)", "App_iOS (Release)", "App_macOS (Debug)", "App_macOS (Release)"])
        XCTAssertEqual(result.units.first { $0.name == "App_macOS (Debug)" }?.platform, .macOS)
        XCTAssertEqual(result.units.first { $0.name == "App_iOS (Debug)" }?.bundleID?.value, "com.example.app.iOS")
    }
}
