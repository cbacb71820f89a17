import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// The Tuist and Bazel apps of `../shared/projects/` give the units a reader of their manifests
/// lists (`Rules/reference/tuist-and-bazel.md`, "The shared apps"): name, bundle ID, team,
/// entitlements file and host of each target and configuration.
final class TuistBazelRealProjectsTests: XCTestCase {
    static let projects = RealProjectsTests.projects

    func units(_ folder: String) throws -> (units: Set<String>, notices: [String]) {
        let dir = Self.projects.appendingPathComponent(folder)
        let result = try Fixture.lint([dir.path]) { $0.discoverySources = [XcodeDiscoverer(), TuistSource(), BazelSource()] }
        let prefix = dir.path + "/"
        func relative(_ p: String) -> String {
            let abs = p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p
            return abs.hasPrefix(prefix) ? String(abs.dropFirst(prefix.count)) : p
        }
        let units = result.units.map { u in
            let entitlements = u.origin?.hasEntitlementsFile == false ? "" : relative(u.entitlementsPath)
            return [u.name, u.bundleID?.value ?? "", u.teamID?.value ?? "", entitlements, u.origin?.hostTarget ?? ""].joined(separator: "|")
        }
        return (Set(units), result.notices.map(\.message))
    }

    /// Each of `rows` for the Debug and the Release configuration: `{c}` stands for its name.
    static func debugAndRelease(_ rows: [String]) -> Set<String> {
        Set(["Debug", "Release"].flatMap { c in rows.map { $0.replacingOccurrences(of: "{c}", with: c) } })
    }

    func checkShared() throws {
        guard FileManager.default.fileExists(atPath: Self.projects.path) else {
            throw XCTSkip("../shared/projects is absent (../shared beside the repository holds the real projects): real-project test skipped")
        }
    }

    func testTuistApps() throws {
        try checkShared()
        let team = "864VDCS2QY"
        XCTAssertEqual(try units("Infomaniak+ios-kDrive").units, Self.debugAndRelease([
            "kDrive ({c})|com.infomaniak.drive|\(team)|kDrive/Resources/kDrive.entitlements|",
            "kDriveFileProvider ({c})|com.infomaniak.drive.FileProvider|\(team)|kDriveFileProvider/FileProvider.entitlements|kDrive",
            "kDriveShareExtension ({c})|com.infomaniak.drive.ShareExtension|\(team)|kDriveShareExtension/ShareExtension.entitlements|kDrive",
            "kDriveActionExtension ({c})|com.infomaniak.drive.ActionExtension|\(team)|kDriveActionExtension/ActionExtension.entitlements|kDrive",
        ]))

        let mailExtensions = [("MailShareExtension", "ShareExtension"), ("MailNotificationServiceExtension", "NotificationServiceExtension"),
                              ("MailNotificationContentExtension", "NotificationContentExtension"), ("MailAppIntentsExtension", "MailAppIntentsExtension")]
        XCTAssertEqual(try units("Infomaniak+ios-kMail").units, Self.debugAndRelease([
            "Infomaniak Mail ({c})|com.infomaniak.mail|\(team)|MailResources/Mail.entitlements|",
            "Infomaniak Mail Lite ({c}, Mac Catalyst)|com.infomaniak.mail|\(team)|MailResources/Mail.entitlements|",
        ] + mailExtensions.flatMap { name, id in [
            "\(name) ({c})|com.infomaniak.mail.\(id)|\(team)|MailResources/MailExtensions.entitlements|Infomaniak Mail",
            "\(name) ({c}, Mac Catalyst)|com.infomaniak.mail.\(id)|\(team)|MailResources/MailExtensions.entitlements|Infomaniak Mail Lite",
        ] }))

        // ugglan: the team from the xcconfig hierarchy; the apps' dependencies are built by
        // closures, so the extensions' hosts are unknown.
        let hedvig = Self.debugAndRelease([
            "Ugglan ({c})|com.hedvigForsakring.test.app|4MS87FK8B3|Projects/App/Config/Test/Ugglan.entitlements|",
            "Hedvig ({c})|com.hedvig.app|4MS87FK8B3|Projects/App/Config/Production/Hedvig.entitlements|",
            "NotificationService ({c})|com.hedvigForsakring.test.app.NotificationService|4MS87FK8B3|Projects/NotificationService/Config/Dev/NotificationService.entitlements|",
            "NotificationServiceProd ({c})|com.hedvig.app.NotificationService|4MS87FK8B3|Projects/NotificationService/Config/Prod/NotificationService.entitlements|",
            "Codegen ({c})|com.hedvig.codegen|||",
        ])
        XCTAssertEqual(try units("HedvigInsurance+ugglan").units, hedvig)

        // olvid: the app targets and their entitlements are built by Swift helpers: not read, said.
        let olvid = try units("olvid-io+olvid-ios")
        XCTAssertEqual(olvid.units.filter { !$0.hasPrefix("ObvImageEditorViewControllerExample") }, [], "only the committed example project")
        XCTAssertTrue(olvid.notices.contains { $0.contains("places in this file build targets that need evaluation") }, "\(olvid.notices)")
    }

    func testBazelApps() throws {
        try checkShared()
        let santa = try units("northpolesec+santa")
        XCTAssertEqual(santa.units, [
            "SNTTestGUI (default)|com.northpolesec.santatestgui|||",
            "Santa (adhoc_build)|com.northpolesec.santa||Source/gui/Santa.app-adhoc.entitlements|",
            "com.northpolesec.santa.daemon (adhoc_build)|com.northpolesec.santa.daemon||Source/santad/com.northpolesec.santa.daemon.systemextension-adhoc.entitlements|",
            "com.northpolesec.santa.daemon (debugger_build)|com.northpolesec.santa.daemon|ZMCG7MLDV9|Source/santad/com.northpolesec.santa.daemon.systemextension-debugger.entitlements|",
        ])
        XCTAssertTrue(santa.notices.contains { $0.contains("Santa (default)") && $0.contains("@profiles//:santa_dev") }, "\(santa.notices)")
        let presence = try units("mjm+pi-tools")
        XCTAssertEqual(presence.units, [], "the app takes its entitlements from its profile")
        XCTAssertTrue(presence.notices.contains { $0.contains("ios_ad_hoc (default)") && $0.contains("Presence_Ad_Hoc.mobileprovision") }, "\(presence.notices)")
    }
}
