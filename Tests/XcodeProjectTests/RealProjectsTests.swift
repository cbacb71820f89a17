import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// Lints each of the 20 real open-source projects in `../shared/projects/` (see its SOURCES.md) as
/// a new user would (`entitlint lint .` inside the folder) and compares every finding with the
/// expectation written here: rule, severity, file and line, and why an engineer of that app would
/// agree with it. No project may fail the run (an error) without a real defect; none has one.
final class RealProjectsTests: XCTestCase {
    struct Expected {
        var rule: String
        var severity: Severity
        var place: String
        /// Why the finding is right, judged from the project's files.
        var why: String
        init(_ rule: String, _ severity: Severity, _ place: String, _ why: String) {
            self.rule = rule
            self.severity = severity
            self.place = place
            self.why = why
        }
    }

    static let pods = "CocoaPods output is not committed: a fresh clone lacks it until `pod install` (one note for all the files)"
    static let sharedFirst = "the shared group is the app's default; it has shipped that way, so the advice is to lock it, not to reorder (its embedded targets follow it and get no note of their own)"

    static let expected: [String: [Expected]] = [
        "AzureAD+microsoft-authentication-library-for-objc": [
            .init("default-group-not-app-id", .note, "MSAL/test/automation/ios/MSALAutomation.entitlements:7",
                  "the automation app's first group is a shared UBF8T346G9 group, not its own ID: advice only"),
            .init("parse-error", .note, "MSAL/xcconfig/msal__common.xcconfig:1",
                  "five xcconfigs live in the IdentityCore git submodule, absent from a plain clone"),
        ],
        "BlueWallet+BlueWallet": [
            .init("parse-error", .note, "ios/BlueWallet.xcworkspace/contents.xcworkspacedata:7", pods),
            .init("unused-entitlements-file", .note, "ios/Stickers/Stickers.entitlements:5",
                  "no target names Stickers.entitlements in CODE_SIGN_ENTITLEMENTS"),
        ],
        "GitHawkApp+GitHawk": [],
        "LoopKit+Loop": [
            .init("unused-entitlements-file", .note, "Learn/Learn.entitlements:5", "Learn.entitlements is only a file reference; no target signs with it"),
        ],
        "ProtonVPN+ios-mac-app": [
            .init("default-group-not-app-id", .note, "apps/ios/ProtonVPN/ProtonVPN.entitlements:27", sharedFirst),
            .init("unused-entitlements-file", .note, "apps/macos/ProtonVPN/Frameworks/org.sparkle-project.Downloader.entitlements:5",
                  "Sparkle's downloader service is built outside this project"),
            .init("default-group-not-app-id", .note, "apps/macos/ProtonVPN/ProtonVPN-release.entitlements:42", sharedFirst),
            .init("default-group-not-app-id", .note, "apps/macos/ProtonVPN/ProtonVPN.entitlements:44", sharedFirst),
            .init("unused-entitlements-file", .note, "apps/macos/ProtonVPNStarter/ProtonVPNStarter.entitlements:4",
                  "no target of the workspace's projects here signs with it"),
        ],
        "element-hq+element-ios": [
            .init("parse-error", .note, "Riot/Debug.xcconfig:21", pods),
            .init("default-group-not-app-id", .note, "Riot/SupportingFiles/Riot.entitlements:43",
                  "$(KEYCHAIN_ACCESS_GROUP), the shared keychain group, is the app's first group: advice only"),
            .init("unused-entitlements-file", .note, "RiotShareExtension/SupportingFiles/RiotShareExtension.entitlements:5",
                  "the share extension's target.yml is no longer included by project.yml"),
            .init("unused-entitlements-file", .note, "SiriIntents/SiriIntents.entitlements:5",
                  "the Siri extension's target.yml is no longer included by project.yml"),
        ],
        "exelban+stats": [],
        "guardianproject+orbot-apple": [
            .init("empty-setting-in-group", .note, "ContentBlocker/ContentBlocker.entitlements:7", "Debug leaves APP_GROUP and the bundle IDs empty: a template to fill in"),
            .init("empty-setting-in-group", .note, "Orbot Mac-sys/Orbot_Mac-sys.entitlements:13", "same Debug template"),
            .init("empty-setting-in-group", .note, "Orbot Mac/Orbot_Mac.entitlements:11", "same Debug template"),
            .init("parse-error", .note, "Orbot.xcworkspace/contents.xcworkspacedata:7", pods),
            .init("empty-setting-in-group", .note, "Orbot/Orbot.entitlements:15", "same Debug template"),
            .init("empty-setting-in-group", .note, "TorVPN Mac-sys/TorVPN_Mac_sys.entitlements:11", "same Debug template"),
            .init("empty-setting-in-group", .note, "TorVPN Mac/TorVPN_Mac.entitlements:11", "same Debug template"),
            .init("empty-setting-in-group", .note, "TorVPN/TorVPN.entitlements:11", "same Debug template"),
        ],
        "ish-app+ish": [],
        "localsend+localsend": [
            .init("parse-error", .note, "app/ios/Flutter/Debug.xcconfig:2", "Flutter's Generated.xcconfig files are made by `flutter pub get`"),
            .init("parse-error", .note, "app/ios/Runner.xcworkspace/contents.xcworkspacedata:7", pods),
        ],
        "maxgoedjen+secretive": [
            .init("default-group-not-app-id", .note, "Sources/Secretive/Secretive.entitlements:25", sharedFirst),
        ],
        "metabolist+metatext": [],
        "mozilla-mobile+focus-ios": [],
        "pointfreeco+isowords": [],
        "rileytestut+AltStore": [
            .init("parse-error", .note, "AltStore.xcworkspace/contents.xcworkspacedata:10", "Roxas is a git submodule, absent from a plain clone"),
        ],
        "strongbox-password-safe+Strongbox": [
            .init("aps-environment-mismatch", .warning, "StrongBox/Strongbox.entitlements:6",
                  "`Production` is not the documented `production`; Xcode signs with the profile's value, so a warning"),
            .init("aps-environment-mismatch", .warning, "macbox/StrongBox-debug.entitlements:6", "same capitalised value"),
            .init("aps-environment-mismatch", .warning, "macbox/StrongBox.entitlements:6", "same capitalised value"),
            .init("comment-in-plist", .note, "macbox/Strongbox-NoNetworking.entitlements:21", "an XML comment inside the plist"),
        ],
        "threema-ch+threema-ios": [],
        "twofas+2fas-ios": [],
        "utmapp+UTM": [],
        "yattee+yattee": [],
    ]

    static let projects = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/projects")

    func testEveryRealProjectGivesTheFindingsItsEngineersWouldAgreeWith() throws {
        guard FileManager.default.fileExists(atPath: Self.projects.path) else {
            throw XCTSkip("../shared/projects is absent: real-project test skipped")
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.projects.path).filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertEqual(Set(folders), Set(Self.expected.keys), "every project has its expectations")
        let previous = FileManager.default.currentDirectoryPath
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        for folder in folders {
            FileManager.default.changeCurrentDirectoryPath(Self.projects.appendingPathComponent(folder).path)
            let result = try Fixture.lint(["."])
            let got = result.findings.map { "\($0.rule) \($0.severity.rawValue) \($0.path):\($0.line)" }.sorted()
            let want = (Self.expected[folder] ?? []).map { "\($0.rule) \($0.severity.rawValue) \($0.place)" }.sorted()
            XCTAssertEqual(got, want, "\(folder):\n" + result.findings.map { "\($0.path):\($0.line): \($0.severity.rawValue): \($0.message) [\($0.rule)]" }.joined(separator: "\n"))
            XCTAssertFalse(result.findings.contains { $0.severity == .error }, "\(folder) would fail the run with no real defect")
            // The lock file and the report key units by name.
            let names = result.units.map(\.name)
            XCTAssertEqual(Set(names).count, names.count, "\(folder): two units share a name")
        }
    }
}
