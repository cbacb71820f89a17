import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// Facts only a project states (keychain-access-groups.md section 9): a macOS configuration that
/// signs to run locally, and a watchOS target embedded by an iPhone app.
final class AppleSemanticsProjectTests: XCTestCase {
    /// A macOS app target `Mac` (bundle ID com.example.Mac) whose entitlements list a keychain
    /// group, with `debug` and `release` as its settings (after the entitlements and bundle ID);
    /// `base`: the Debug configuration's xcconfig, which is not written. Linted.
    func lintMac(debug: [(String, String)], release: [(String, String)] = [("DEVELOPMENT_TEAM", "ABCDE12345")],
                 base: String? = nil) throws -> LintResult {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.projectSettings = [("Debug", [("SDKROOT", "macosx")]), ("Release", [("SDKROOT", "macosx")])]
        let common = [("CODE_SIGN_ENTITLEMENTS", "Mac/Mac.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Mac")]
        p.targets = [.init(name: "Mac", settings: [("Debug", common + debug), ("Release", common + release)],
                           baseConfigurations: base.map { ["Debug": $0] } ?? [:])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Mac/Mac.entitlements", in: dir)
        return try Fixture.lint([dir.path])
    }

    func local(_ r: LintResult) -> [Finding] { r.findings.filter { $0.rule == "macos-restricted-without-profile" } }

    func testMacDebugSigningToRunLocallyWithKeychainGroupsIsAnErrorForThatConfiguration() throws {
        let r = try lintMac(debug: [("CODE_SIGN_IDENTITY", "-")])
        let f = local(r)
        XCTAssertEqual(f.count, 1, "\(r.findings.map(\.message))")
        XCTAssertEqual(f.first?.severity, .error)
        XCTAssertEqual(f.first?.keyPath, "keychain-access-groups")
        XCTAssertTrue(f.first?.message.hasPrefix("configuration Debug of target Mac signs to run locally (CODE_SIGN_IDENTITY = \"-\" at ") == true, f.first?.message ?? "")
        XCTAssertTrue(f.first?.message.contains("Fixture.xcodeproj/project.pbxproj:") == true, f.first?.message ?? "")
        XCTAssertTrue(f.first?.message.contains("set a development team with automatic signing for this configuration, or give it an entitlements file without keychain-access-groups") == true)
    }

    func testATeamAProfileOrAnUnknownSettingKeepsItSilent() throws {
        XCTAssertEqual(local(try lintMac(debug: [("CODE_SIGN_IDENTITY", "-"), ("DEVELOPMENT_TEAM", "ABCDE12345")])), [])
        XCTAssertEqual(local(try lintMac(debug: [("CODE_SIGN_IDENTITY", "-"), ("PROVISIONING_PROFILE_SPECIFIER", "Mac Development")])), [])
        // Not set at all: what Xcode signs with is not stated by the project.
        XCTAssertEqual(local(try lintMac(debug: [])), [])
        // An identity that signs with a certificate: a profile comes with the team.
        XCTAssertEqual(local(try lintMac(debug: [("CODE_SIGN_IDENTITY", "Apple Development")])), [])
        // The team may be set in a per-developer file that is missing: unknown, so silent.
        XCTAssertEqual(local(try lintMac(debug: [("CODE_SIGN_IDENTITY", "-")], base: "Config/Local.xcconfig")), [])
    }

    func testIOSSigningToRunLocallyIsNotThisRulesCase() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        let settings = [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_IDENTITY", "-")]
        p.targets = [.init(name: "App", settings: [("Debug", settings), ("Release", settings)])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        XCTAssertEqual(local(try Fixture.lint([dir.path])), [])
    }

    /// An iPhone app `App` embedding a watch app `Watch` (SDKROOT watchos) that lists `watchGroups`
    /// and compiles its folder `Watch/` (Xcode 16 folders), which holds `Token.swift` with `code`.
    func lintWatch(watchGroups: [String], code: String = "let query = [kSecAttrAccessGroup as String: \"ABCDE12345.com.example.shared\"]\n") throws -> [Finding] {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        let team = ("DEVELOPMENT_TEAM", "ABCDE12345")
        let app = [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), team]
        let watch = [("CODE_SIGN_ENTITLEMENTS", "Watch/Watch.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App.watchkitapp"),
                     ("SDKROOT", "watchos"), team]
        p.targets = [.init(name: "App", settings: [("Release", app)], embeds: ["Watch"]),
                     .init(name: "Watch", productType: "com.apple.product-type.application.watchapp2", settings: [("Release", watch)],
                           synchronizedFolders: [(path: "Watch", exceptions: [])])]
        p.projectSettings = [("Release", [("SDKROOT", "iphoneos")])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)com.example.shared"]),
                          "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(watchGroups), "Watch/Watch.entitlements", in: dir)
        try Fixture.write(code, "Watch/Token.swift", in: dir)
        return try Fixture.lint([dir.path]).findings.filter { $0.rule == "watch-shares-phone-group" }
    }

    func testAWatchAppListingItsIPhoneAppsGroupsIsWarnedOncePerGroup() throws {
        let f = try lintWatch(watchGroups: ["$(AppIdentifierPrefix)com.example.App.watchkitapp", "$(AppIdentifierPrefix)com.example.shared", "ABCDE12345.com.example.App"])
        XCTAssertEqual(f.map(\.keyPath), ["keychain-access-groups[1]", "keychain-access-groups[2]"], "\(f.map(\.message))")
        XCTAssertEqual(Set(f.map(\.severity)), [.warning])
        XCTAssertTrue(f[0].message.contains("\"ABCDE12345.com.example.shared\" is a keychain group of the iPhone app App"), f[0].message)
        XCTAssertTrue(f[1].message.contains("\"ABCDE12345.com.example.App\" is a keychain group of the iPhone app App"), f[1].message)
        XCTAssertTrue(f[0].message.contains("WatchConnectivity") && f[0].message.contains("kSecAttrSynchronizable"), f[0].message)
    }

    func testAWatchAppWithItsOwnGroupsIsSilent() throws {
        XCTAssertEqual(try lintWatch(watchGroups: ["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), [])
    }

    func testAWatchAppWhoseCodeUsesSynchronizableItemsIsSilent() throws {
        let code = "let keychain = Keychain(service: \"sync\").synchronizable(true)\n"
        XCTAssertEqual(try lintWatch(watchGroups: ["$(AppIdentifierPrefix)com.example.shared"], code: code), [])
    }
    /// The same macOS target `Mac` in an XcodeGen spec, `debug` the lines under its Debug configuration's settings.
    func lintMacSpec(debug: String) throws -> [Finding] {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        name: Suite
        targets:
          Mac:
            type: application
            platform: macOS
            entitlements:
              path: Mac/Mac.entitlements
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.example.Mac
              configs:
                Debug:
        \(debug)
                Release:
                  DEVELOPMENT_TEAM: ABCDE12345

        """, "project.yml", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Mac/Mac.entitlements", in: dir)
        return local(try Fixture.lint([dir.path]))
    }

    func testAnXcodeGenMacDebugConfigurationSigningToRunLocallyIsTheSameError() throws {
        let f = try lintMacSpec(debug: "          CODE_SIGN_IDENTITY: \"-\"")
        XCTAssertEqual(f.count, 1, "\(f.map(\.message))")
        XCTAssertEqual(f.first?.severity, .error)
        XCTAssertEqual(f.first?.keyPath, "keychain-access-groups")
        XCTAssertTrue(f.first?.message.hasPrefix("configuration Debug of target Mac signs to run locally (CODE_SIGN_IDENTITY = \"-\" at ") == true, f.first?.message ?? "")
        XCTAssertTrue(f.first?.message.contains("project.yml:") == true, f.first?.message ?? "")
        XCTAssertTrue(f.first?.message.contains("set a development team with automatic signing for this configuration") == true)
    }

    func testAnXcodeGenMacConfigurationWithATeamOrNoIdentityIsSilent() throws {
        XCTAssertEqual(try lintMacSpec(debug: "          CODE_SIGN_IDENTITY: \"-\"\n          DEVELOPMENT_TEAM: ABCDE12345"), [])
        XCTAssertEqual(try lintMacSpec(debug: "          CODE_SIGN_IDENTITY: \"-\"\n          PROVISIONING_PROFILE_SPECIFIER: Mac Development"), [])
        XCTAssertEqual(try lintMacSpec(debug: "          CODE_SIGN_STYLE: Automatic"), [])
        XCTAssertEqual(try lintMacSpec(debug: "          CODE_SIGN_IDENTITY: Apple Development"), [])
    }
}
