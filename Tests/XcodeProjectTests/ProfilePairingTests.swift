import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Profiles are paired as code signing pairs them: automatic signing chooses its own, manual
/// signing takes the one the settings name, a target never takes a profile its synchronised
/// folders exclude, and a profile never pairs with a unit of another project of the run.
final class ProfilePairingTests: XCTestCase {
    /// A decoded profile (`security cms -D` output) for `TEAM.pattern`.
    func profile(name: String, team: String = "ABCDE12345", pattern: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>\(name)</string>
        <key>UUID</key><string>\(UUID().uuidString)</string>
        <key>TeamIdentifier</key><array><string>\(team)</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
        <key>Entitlements</key>
        <dict>
        <key>application-identifier</key><string>\(team).\(pattern)</string>
        <key>keychain-access-groups</key><array><string>\(team).*</string></array>
        </dict>
        </dict>
        </plist>
        """
    }

    func target(_ name: String, bundle: String, style: String, specifier: String? = nil,
                synchronized: [(path: String, exceptions: [String])] = []) -> ProjectFixture.Target {
        var settings = [("CODE_SIGN_ENTITLEMENTS", "\(name)/\(name).entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", bundle),
                        ("DEVELOPMENT_TEAM", "ABCDE12345"), ("CODE_SIGN_STYLE", style)]
        if let specifier { settings.append(("PROVISIONING_PROFILE_SPECIFIER", specifier)) }
        var t = ProjectFixture.Target(name: name, settings: [("Release", settings)])
        t.synchronizedFolders = synchronized
        return t
    }

    func writeApp(_ t: ProjectFixture.Target, in dir: URL) throws {
        var p = ProjectFixture()
        p.name = t.name
        p.targets = [t]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "\(t.name)/\(t.name).entitlements", in: dir)
    }

    func testAutomaticSigningDoesNotAssumeACommittedProfile() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeApp(target("App", bundle: "com.example.App", style: "Automatic"), in: dir)
        try Fixture.write(profile(name: "App Dev", pattern: "com.example.App"), "signing/App.mobileprovision", in: dir)
        let result = try Fixture.lint([dir.path])
        let unit = try XCTUnwrap(result.units.first { $0.origin != nil })
        XCTAssertNil(unit.profile, "Xcode chooses the profile with automatic signing")
        XCTAssertTrue(unit.origin?.profileNote?.contains("signing/App.mobileprovision") == true, unit.origin?.profileNote ?? "")
        // The same profile given by the user is paired.
        let given = try Fixture.lint([dir.path]) { $0.profileFolders = [dir.appendingPathComponent("signing").path] }
        XCTAssertEqual(given.units.first { $0.origin != nil }?.profile?.profile.name, "App Dev")
    }

    func testManualSigningTakesTheProfileTheSettingsName() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeApp(target("App", bundle: "com.example.App", style: "Manual", specifier: "App Store"), in: dir)
        try Fixture.write(profile(name: "App Dev", pattern: "com.example.App"), "signing/Dev.mobileprovision", in: dir)
        try Fixture.write(profile(name: "App Store", pattern: "com.example.*"), "signing/Store.mobileprovision", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.first { $0.origin != nil }?.profile?.profile.name, "App Store",
                       "the named profile, though another matches the App ID more closely")
    }

    func testAProfileNeverPairsWithAUnitOfAnotherProject() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for name in ["One", "Two"] {
            try writeApp(target(name, bundle: "com.example.\(name)", style: "Manual"), in: dir.appendingPathComponent(name))
        }
        // Only One has a profile; it covers every App ID of the team.
        try Fixture.write(profile(name: "Team Wildcard", pattern: "*"), "One/signing/Wildcard.mobileprovision", in: dir)
        let result = try Fixture.lint([dir.path])
        let one = try XCTUnwrap(result.units.first { $0.origin?.target == "One" })
        let two = try XCTUnwrap(result.units.first { $0.origin?.target == "Two" })
        XCTAssertEqual(one.profile?.profile.name, "Team Wildcard")
        XCTAssertNil(two.profile, "a profile in One's folders is not Two's")
    }

    func testAProfileTheTargetExcludesIsNotPaired() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let kept = target("App", bundle: "com.example.App", style: "Manual", synchronized: [("App", ["Old.mobileprovision"])])
        try writeApp(kept, in: dir)
        try Fixture.write(profile(name: "Old", pattern: "com.example.App"), "App/Old.mobileprovision", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertNil(result.units.first { $0.origin != nil }?.profile, "membershipExceptions leaves the profile out of the target")

        let other = try Fixture.temporaryDirectory(self)
        try writeApp(target("App", bundle: "com.example.App", style: "Manual", synchronized: [("App", ["Info.plist"])]), in: other)
        try Fixture.write(profile(name: "Old", pattern: "com.example.App"), "App/Old.mobileprovision", in: other)
        XCTAssertEqual(try Fixture.lint([other.path]).units.first { $0.origin != nil }?.profile?.profile.name, "Old")
    }
}
