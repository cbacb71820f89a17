import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Projects on disk -> units -> findings, as `entitlint lint` sees them.
final class DiscoveryTests: XCTestCase {
    var appSuite: String { Fixture.packageRoot.appendingPathComponent("Examples/AppSuite").path }

    func testAppSuiteUnitsAndFacts() throws {
        let result = try Fixture.lint([appSuite])
        XCTAssertEqual(result.findings, [], "\(result.findings.map(\.message))")
        XCTAssertEqual(result.units.map(\.name), ["AppOne (Debug)", "AppOne (Release)", "AppTwo (Debug)", "AppTwo (Release)",
                                                  "ShareExtension (Debug)", "ShareExtension (Release)", "Widget (Debug)", "Widget (Release)"])
        let share = try XCTUnwrap(result.units.first { $0.name == "ShareExtension (Release)" })
        XCTAssertEqual(share.bundleID?.value, "com.example.AppOne.ShareExtension")
        XCTAssertEqual(share.teamID?.value, "ABCDE12345")
        XCTAssertEqual(share.origin?.kind, .appExtension)
        XCTAssertEqual(share.origin?.hostTarget, "AppOne")
        XCTAssertEqual(share.origin?.hostBundleID, "com.example.AppOne")
        XCTAssertEqual(share.origin?.sdk, "iphoneos")
        XCTAssertEqual(share.platform, .iOS)
        XCTAssertEqual(share.origin?.signingStyle, "Automatic")
        XCTAssertEqual(share.variables["HOST_BUNDLE_IDENTIFIER"], "com.example.AppOne")
        XCTAssertEqual(share.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.AppOne")
        // Where the facts came from: the team from the xcconfig line, the bundle ID from the project.
        guard case .xcode(let teamSource)? = share.teamID?.source else { return XCTFail("team source") }
        XCTAssertTrue(teamSource.hasSuffix("Config/Shared.xcconfig:4"), teamSource)
        guard case .xcode(let bundleSource)? = share.bundleID?.source else { return XCTFail("bundle source") }
        XCTAssertTrue(bundleSource.contains("project.pbxproj:"), bundleSource)
        // The conditional simulator bundle ID does not apply to the device SDK.
        XCTAssertEqual(result.units.first { $0.name == "AppTwo (Debug)" }?.bundleID?.value, "com.example.AppTwo")
        XCTAssertEqual(result.files, 6)
    }

    func testOneEntitlementsFileLintsTheUnitsThatUseIt() throws {
        let result = try Fixture.lint([appSuite + "/AppTwo/AppTwo.entitlements"])
        XCTAssertEqual(result.units.map(\.name), ["AppTwo (Debug)", "AppTwo (Release)"])
        XCTAssertEqual(result.units.first?.bundleID?.value, "com.example.AppTwo")
    }

    func testAnXcconfigLintsTheUnitsThatUseIt() throws {
        let result = try Fixture.lint([appSuite + "/Config/Shared.xcconfig"])
        XCTAssertEqual(result.units.count, 8)
    }

    func testBundleIDChangeInOneConfigurationIsCaughtByTheLock() throws {
        let broken = Fixture.packageRoot.appendingPathComponent("Examples/AppSuite-bundle-id-change").path
        let result = try Fixture.lint([broken]) { $0.lockPath = broken + "/entitlint.lock" }
        XCTAssertEqual(result.findings.map(\.rule), ["default-group-drift"])
        XCTAssertEqual(result.findings.first?.unit, "AppTwo (Release)")
        // The configuration it concerns is data (`units`), shown after the message by the text formats.
        XCTAssertEqual(result.findings.first?.units, ["AppTwo (Release)"])
        XCTAssertFalse(result.findings.first?.message.contains("(in AppTwo") ?? true, result.findings.first?.message ?? "")
        XCTAssertTrue(result.findings.first?.shownMessage.hasSuffix(" (in AppTwo (Release))") == true, result.findings.first?.shownMessage ?? "")
    }

    func testUnusedEntitlementsBesideAProjectGetOneNoteAndNothingElse() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"),
                                                               ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"),
                                                               ("DEVELOPMENT_TEAM", "ABCDE12345")])])]
        p.projectSettings = [("Release", [("SDKROOT", "iphoneos")])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        // A dead file: what it holds (a wildcard, a group of another team) is nobody's problem.
        try Fixture.write(Fixture.entitlements(["*", "ZZZZZ99999.com.example.other"]), "Old/Old.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App (Release)", "Old"])
        XCTAssertEqual(result.units.first { $0.name == "Old" }?.isUnused, true)
        XCTAssertEqual(result.units.first { $0.name == "App (Release)" }?.isUnused, false)
        XCTAssertEqual(result.findings.map(\.rule), ["unused-entitlements-file"])
        XCTAssertEqual(result.findings.first?.severity, .note)
    }

    func testWorkspaceBringsInItsProjects() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.name = "Lib"
        p.targets = [.init(name: "Tool", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Tool")])])]
        try p.write(to: dir.appendingPathComponent("Sub/Deeper"))
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
           <Group
              location = "container:Sub"
              name = "Sub">
              <FileRef
                 location = "group:Deeper/Lib.xcodeproj">
              </FileRef>
           </Group>
           <FileRef
              location = "group:Missing.xcodeproj">
           </FileRef>
        </Workspace>
        """, "Suite.xcworkspace/contents.xcworkspacedata", in: dir)
        let result = try Fixture.lint([dir.appendingPathComponent("Suite.xcworkspace").path])
        XCTAssertEqual(result.units.map(\.name), ["Tool (Release)"])
        let missing = try XCTUnwrap(result.findings.first)
        XCTAssertEqual(missing.rule, "parse-error")
        XCTAssertTrue(missing.path.hasSuffix("Suite.xcworkspace/contents.xcworkspacedata"))
        XCTAssertEqual(missing.line, 11)
        XCTAssertTrue(missing.message.contains("Missing.xcodeproj"), missing.message)
    }

    func testTargetWithoutEntitlementsIsAUnitWithItsAppID() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "Plain", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Plain"), ("DEVELOPMENT_TEAM", "ABCDE12345")])]),
                     .init(name: "Kit", productType: "com.apple.product-type.framework", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Kit")])])]
        try p.write(to: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name), ["Plain (Release)"], "frameworks without entitlements are not units")
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertEqual(unit.origin?.hasEntitlementsFile, false)
        XCTAssertEqual(unit.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.Plain")
        XCTAssertTrue(unit.entitlementsPath.hasSuffix("project.pbxproj"))
    }

    func testProfileFoundBySpecifierInAProfilesFolder() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [("CODE_SIGN_ENTITLEMENTS", "App.entitlements"),
                                                               ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"),
                                                               ("CODE_SIGN_STYLE", "Manual"),
                                                               ("PROVISIONING_PROFILE_SPECIFIER", "ABCDE12345/App Store App")])])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.other"]), "App.entitlements", in: dir)
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>App Store App</string>
        <key>UUID</key><string>11111111-2222-3333-4444-555555555555</string>
        <key>TeamIdentifier</key><array><string>LEGACY0001</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>LEGACY0001</string></array>
        <key>Entitlements</key>
        <dict>
        <key>application-identifier</key><string>LEGACY0001.com.example.App</string>
        <key>keychain-access-groups</key><array><string>LEGACY0001.*</string></array>
        </dict>
        </dict>
        </plist>
        """, "elsewhere/app.mobileprovision", in: dir.appendingPathComponent("..").appendingPathComponent(dir.lastPathComponent + "-profiles"))
        let profiles = dir.deletingLastPathComponent().appendingPathComponent(dir.lastPathComponent + "-profiles").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: profiles) }
        let result = try Fixture.lint([dir.path]) { $0.profileFolders = [profiles] }
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertEqual(unit.profile?.profile.name, "App Store App")
        XCTAssertEqual(unit.appIDPrefix?.value, "LEGACY0001")
        XCTAssertEqual(unit.teamID?.value, "LEGACY0001")
    }

    func testAutomaticSigningWithoutAProfileIsFine() throws {
        let result = try Fixture.lint([appSuite])
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertNil(unit.profile)
        XCTAssertEqual(unit.origin?.profileNote, "automatic signing; no matching profile on disk")
    }

    func testTargetsOfTheSameNameInTwoProjectsAreNamedWithTheirProject() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for name in ["One", "Two"] {
            var p = ProjectFixture()
            p.name = name
            p.targets = [.init(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.\(name)")])])]
            try p.write(to: dir.appendingPathComponent(name))
        }
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["One/App (Release)", "Two/App (Release)"])
    }

    /// A Flutter app has `ios/Runner.xcodeproj` and `macos/Runner.xcodeproj`, both with a target
    /// `Runner`: the project's name alone does not tell their units apart, the folder does.
    func testProjectsOfTheSameNameInTwoFoldersAreNamedWithTheirFolder() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for platform in ["ios", "macos"] {
            var p = ProjectFixture()
            p.name = "Runner"
            p.targets = [.init(name: "Runner", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.\(platform)")])])]
            try p.write(to: dir.appendingPathComponent(platform))
        }
        let result = try Fixture.lint([dir.path])
        let names = result.units.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "unit names are unique: \(names)")
        XCTAssertEqual(names.count, 2)
        XCTAssertTrue(names.contains { $0.hasSuffix("ios/Runner/Runner (Release)") && !$0.contains("macos") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasSuffix("macos/Runner/Runner (Release)") }, "\(names)")
    }
}
