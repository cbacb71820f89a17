import XCTest
@testable import EntitlintCore
import PropertyList
import Provisioning

final class VariableExpanderTests: XCTestCase {
    func testKnownVariablesExpandWithTrailingDot() {
        let e = VariableExpander(appIDPrefix: "Y54WEA9F74", teamID: "7S6YLL52WH", bundleID: "com.example.App")
        XCTAssertEqual(e.expand("$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)").text, "Y54WEA9F74.com.example.App")
        XCTAssertEqual(e.expand("${TeamIdentifierPrefix}shared").text, "7S6YLL52WH.shared")
        XCTAssertEqual(e.expand("$(DEVELOPMENT_TEAM).group").text, "7S6YLL52WH.group")
        XCTAssertEqual(e.expand("$(CFBundleIdentifier)").text, "com.example.App")
        XCTAssertTrue(e.expand("$(AppIdentifierPrefix)x").isConcrete)
    }

    func testUnknownTeamStaysSymbolicNeverGuessed() {
        let r = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil).expand("$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(r.text, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(r.symbolic.map(\.name), ["AppIdentifierPrefix"])
        XCTAssertEqual(r.unresolved, [])
    }

    func testCustomAndTemplateVariablesAreUnresolved() {
        let e = VariableExpander(appIDPrefix: "ABCDE12345", teamID: "ABCDE12345", bundleID: nil, extra: ["KNOWN": "k"])
        let r = e.expand("$(KNOWN).$(BUNDLE_ID_PREFIX).{{MAIN}}.###X###")
        XCTAssertEqual(r.text, "k.$(BUNDLE_ID_PREFIX).{{MAIN}}.###X###")
        XCTAssertEqual(r.unresolved.map(\.name), ["BUNDLE_ID_PREFIX", "MAIN", "X"])
        XCTAssertEqual(r.unresolved.map(\.isTemplate), [false, true, true])
    }
}

extension VariableExpanderTests {
    func testXcodeOperators() {
        let e = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: "com.Example.My App")
        XCTAssertEqual(e.expand("$(PRODUCT_BUNDLE_PREFIX:default=com.utmapp).UTM").text, "com.utmapp.UTM")
        XCTAssertTrue(e.expand("$(PRODUCT_BUNDLE_PREFIX:default=com.utmapp)").isConcrete)
        XCTAssertEqual(e.expand("$(PRODUCT_BUNDLE_IDENTIFIER:lower)").text, "com.example.my app")
        XCTAssertEqual(e.expand("$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)").text, "com.Example.My-App")
        XCTAssertEqual(e.expand("$(UNKNOWN:lower)").unresolved.map(\.name), ["UNKNOWN:lower"])
    }
}

final class AllowlistAndGlobTests: XCTestCase {
    func testAnchoredPrefixPatterns() {
        XCTAssertTrue(ProfileAllowlist.allows(pattern: "ABCDE12345.*", value: "ABCDE12345.com.example.shared"))
        XCTAssertTrue(ProfileAllowlist.allows(pattern: "ABCDE12345.com.example.*", value: "ABCDE12345.com.example.a"))
        XCTAssertFalse(ProfileAllowlist.allows(pattern: "ABCDE12345.com.example.*", value: "ABCDE12345.com.other"))
        XCTAssertFalse(ProfileAllowlist.allows(pattern: "ABCDE12345.*", value: "XABCDE12345.x"), "anchored at the start")
        XCTAssertFalse(ProfileAllowlist.allows(pattern: "*.example", value: "a.example"), "* only counts at the end")
        XCTAssertTrue(ProfileAllowlist.allows(pattern: "*", value: "anything"))
        XCTAssertTrue(ProfileAllowlist.allows(pattern: "com.apple.token", value: "com.apple.token"))
        XCTAssertFalse(ProfileAllowlist.allows(pattern: "com.apple.token", value: "com.apple.tokens"))
    }

    func testGlobs() {
        XCTAssertTrue(Glob("Tests/**").matches("Tests/a/b/X.entitlements"))
        XCTAssertFalse(Glob("Tests/**").matches("App/Tests.entitlements"))
        XCTAssertTrue(Glob("*.xcent").matches("deep/folder/App.xcent"))
        XCTAssertTrue(Glob("App/*.entitlements").matches("App/A.entitlements"))
        XCTAssertFalse(Glob("App/*.entitlements").matches("App/sub/A.entitlements"))
        XCTAssertTrue(Glob("**/Fixtures/*").matches("x/y/Fixtures/f.entitlements"))
        XCTAssertTrue(Glob("A?.entitlements").matches("AB.entitlements"))
    }
}

final class SigningUnitTests: XCTestCase {
    func unit(_ body: String, bundle: String? = nil, team: String? = nil) throws -> SigningUnit {
        let doc = try PropertyListReader.parse(Array("<plist><dict>\(body)</dict></plist>".utf8))
        var u = SigningUnit(name: "U", entitlementsPath: "U.entitlements", document: doc)
        if let bundle { u.bundleID = Fact(bundle, from: .flag("--bundle-id")) }
        if let team {
            u.teamID = Fact(team, from: .flag("--team-id"))
            u.appIDPrefix = Fact(team, from: .derived("team"))
        }
        return u
    }

    func testAccessGroupOrderAndDefault() throws {
        let u = try unit("""
        <key>com.apple.security.application-groups</key><array><string>group.com.example</string></array>
        <key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.shared</string></array>
        """, bundle: "com.example.App", team: "ABCDE12345")
        let list = u.accessGroups
        XCTAssertEqual(list.entries.map(\.value), ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.App", "group.com.example"])
        XCTAssertEqual(list.defaultGroup?.value, "ABCDE12345.com.example.shared")
        XCTAssertEqual(list.entries.map(\.origin), [.keychainAccessGroups, .applicationIdentifier, .appGroup])
    }

    func testDefaultIsAppIDWithoutKeychainGroupsAndAppGroupNeverDefault() throws {
        let u = try unit("<key>com.apple.security.application-groups</key><array><string>group.x</string></array>", bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App")
    }

    func testNonStringElementDropsWholeKeychainEntitlement() throws {
        let u = try unit("<key>keychain-access-groups</key><array><string>ABCDE12345.a</string><integer>1</integer></array>", bundle: "b", team: "ABCDE12345")
        XCTAssertFalse(u.accessGroups.keychainEntitlementHonoured)
        XCTAssertEqual(u.accessGroups.defaultGroup?.value, "ABCDE12345.b")
    }

    func testAppClipSkipsAppGroups() throws {
        let u = try unit("""
        <key>com.apple.developer.on-demand-install-capable</key><true/>
        <key>com.apple.security.application-groups</key><array><string>group.x</string></array>
        """, bundle: "b.Clip", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.b.Clip"])
    }

    func testListIsNotDeduplicatedTheAppIDListedAgainAppearsTwice() throws {
        let u = try unit("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string></array>",
                         bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.App", "ABCDE12345.com.example.App"])
        XCTAssertEqual(u.accessGroups.entries.map(\.origin), [.keychainAccessGroups, .applicationIdentifier])
        XCTAssertEqual(u.accessGroups.distinctValues, ["ABCDE12345.com.example.App"])
    }

    func testTokenGroupMovesToTheEndAndIsNeverTheDefault() throws {
        let u = try unit("""
        <key>keychain-access-groups</key><array><string>com.apple.token</string><string>$(AppIdentifierPrefix)com.example.shared</string></array>
        <key>com.apple.security.application-groups</key><array><string>group.x</string></array>
        """, bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.App", "group.x", "com.apple.token"])
        let only = try unit("<key>keychain-access-groups</key><array><string>com.apple.token</string></array>", bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(only.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App")
    }

    func testAppClipRecognisedByProductTypeAndBundleNotOnlyByTheKey() throws {
        var u = try unit("<key>com.apple.security.application-groups</key><array><string>group.x</string></array>", bundle: "b.Clip", team: "ABCDE12345")
        XCTAssertFalse(u.isAppClip)
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.b.Clip", "group.x"])
        u.origin = UnitOrigin(projectFile: "A.xcodeproj/project.pbxproj", projectName: "A", target: "Clip", configuration: "Release",
                              kind: UnitOrigin.Kind(productType: "com.apple.product-type.application.on-demand-install-capable"))
        XCTAssertTrue(u.isAppClip)
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.b.Clip"])
        u.origin = nil
        u.artifact = BuiltArtifactFacts(bundlePath: "A.app/AppClips/Clip.app", bundleKind: .appClip, entitlementsSource: .codeSignatureXML)
        XCTAssertTrue(u.isAppClip)
        XCTAssertEqual(UnitOrigin.Kind(productType: "application.on-demand-install-capable"), .appClip, "XcodeGen's type")
    }

    func testNonStringElementDropsWholeAppGroupsAndAssociatedIDs() throws {
        let u = try unit("""
        <key>com.apple.developer.associated-application-identifier</key><array><string>ABCDE12345.ios</string><true/></array>
        <key>com.apple.security.application-groups</key><array><string>group.x</string><integer>2</integer></array>
        """, bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.App"])
    }

    func testCatalystWithoutKeychainGroupsDefaultsToItsAssociatedIOSAppID() throws {
        let u = try unit("""
        <key>com.apple.developer.associated-application-identifier</key><array><string>ABCDE12345.com.example.ios</string></array>
        <key>com.apple.security.application-groups</key><array><string>group.x</string></array>
        """, bundle: "maccatalyst.com.example.ios", team: "ABCDE12345")
        XCTAssertEqual(u.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.ios")
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.ios", "ABCDE12345.maccatalyst.com.example.ios", "group.x"])
    }

    func testMacCatalystAssociatedIdentifierComesBeforeAppID() throws {
        let u = try unit("""
        <key>com.apple.developer.associated-application-identifier</key><array><string>ABCDE12345.com.example.ios</string></array>
        <key>com.apple.application-identifier</key><string>ABCDE12345.maccatalyst.com.example</string>
        """)
        XCTAssertEqual(u.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.ios", "ABCDE12345.maccatalyst.com.example"])
    }

    func testProfilePairingMostSpecificWins() throws {
        func profile(_ appID: String, _ path: String) throws -> ProfileFile {
            let text = """
            <plist><dict><key>Name</key><string>\(path)</string><key>UUID</key><string>u</string>
            <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
            <key>Entitlements</key><dict><key>application-identifier</key><string>\(appID)</string></dict></dict></plist>
            """
            return ProfileFile(path: path, profile: try ProfileDecoder.decode(Array(text.utf8)))
        }
        let wildcard = try profile("ABCDE12345.*", "wild")
        let partial = try profile("ABCDE12345.com.example.*", "partial")
        let exact = try profile("ABCDE12345.com.example.App", "exact")
        let other = try profile("ZYXWV98765.com.example.App", "other")
        let u = try unit("", bundle: "com.example.App", team: "ABCDE12345")
        XCTAssertEqual(UnitFormer.bestProfile(for: u, among: [wildcard, partial, exact, other])?.path, "exact")
        XCTAssertEqual(UnitFormer.bestProfile(for: u, among: [wildcard, partial, other])?.path, "partial")
        XCTAssertEqual(UnitFormer.bestProfile(for: u, among: [wildcard])?.path, "wild")
        let noBundle = try unit("")
        XCTAssertNil(UnitFormer.bestProfile(for: noBundle, among: [wildcard]))
    }
}
