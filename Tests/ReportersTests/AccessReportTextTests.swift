import XCTest
import EntitlintCore
import PropertyList
@testable import Reporters

/// The text report shows a target once when its configurations agree on every fact, group and
/// finding, and one section per configuration where they differ.
final class AccessReportTextTests: XCTestCase {
    func unit(_ configuration: String, bundleID: String, group: String) throws -> SigningUnit {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>\(group)</string>\n\t</array>\n</dict>\n</plist>\n"
        let document = try PropertyListReader.parse(Array(text.utf8))
        var u = SigningUnit(name: "App (\(configuration))", entitlementsPath: "App/App.entitlements", document: document,
                            bundleID: Fact(bundleID, from: .xcode("PRODUCT_BUNDLE_IDENTIFIER at App.xcodeproj/project.pbxproj:\(configuration.count)")),
                            teamID: Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:9")), platform: .iOS)
        u.appIDPrefix = Fact("ABCDE12345", from: .derived("App ID prefix taken to be the Team ID"))
        u.origin = UnitOrigin(projectFile: "App.xcodeproj/project.pbxproj", projectName: "App", target: "App", configuration: configuration,
                              kind: .app, sdk: "iphoneos")
        return u
    }

    func testConfigurationsThatAgreeAreOneSectionAndOnesThatDifferAreTheirOwn() throws {
        let same = AccessReport(units: [try unit("Debug", bundleID: "com.example.App", group: "$(AppIdentifierPrefix)com.example.shared"),
                                        try unit("Release", bundleID: "com.example.App", group: "$(AppIdentifierPrefix)com.example.shared")])
        let text = AccessReportText.render(same)
        XCTAssertTrue(text.contains("\nApp (Debug, Release)  app, iphoneos"), text)
        XCTAssertFalse(text.contains("\nApp (Release)"), text)
        XCTAssertTrue(text.contains("Access groups of 2 units"), "the count is of units: \(text)")

        let differ = AccessReport(units: [try unit("Debug", bundleID: "com.example.App.debug", group: "$(AppIdentifierPrefix)com.example.shared"),
                                          try unit("Release", bundleID: "com.example.App", group: "$(AppIdentifierPrefix)com.example.shared")])
        let both = AccessReportText.render(differ)
        XCTAssertTrue(both.contains("\nApp (Debug)  ") && both.contains("\nApp (Release)  "), both)
        XCTAssertFalse(both.contains("shown once"), both)
    }

    func testTheEntitlementsFileAndProfileSayWhereTheyAreNamed() throws {
        var named = try unit("Release", bundleID: "com.example.App", group: "$(AppIdentifierPrefix)com.example.shared")
        named.origin?.settingSources = ["CODE_SIGN_ENTITLEMENTS": "app/BUILD.bazel:9",
                                        "provisioning_profile": "app/App.mobileprovision (app/BUILD.bazel:11)"]
        var xcode = try unit("Debug", bundleID: "com.example.App.debug", group: "$(AppIdentifierPrefix)com.example.shared")
        xcode.origin?.settingSources = ["CODE_SIGN_ENTITLEMENTS": "App.xcodeproj/project.pbxproj:212",
                                        "PROVISIONING_PROFILE_SPECIFIER": "Config/App.xcconfig:4", "PROVISIONING_PROFILE": "Config/App.xcconfig:5"]
        var loose = try unit("Loose", bundleID: "com.example.loose", group: "$(AppIdentifierPrefix)com.example.loose")
        loose.origin = nil
        let report = AccessReport(units: [named, xcode, loose])
        let byName = Dictionary(uniqueKeysWithValues: report.units.map { ($0.name, $0) })
        XCTAssertEqual(byName["App (Release)"]?.entitlementsSource, "CODE_SIGN_ENTITLEMENTS at app/BUILD.bazel:9")
        XCTAssertEqual(byName["App (Release)"]?.profileSource, "provisioning_profile app/App.mobileprovision (app/BUILD.bazel:11)")
        XCTAssertEqual(byName["App (Debug)"]?.profileSource, "PROVISIONING_PROFILE_SPECIFIER at Config/App.xcconfig:4", "the specifier first")
        XCTAssertNil(byName["App (Loose)"]?.entitlementsSource)
        XCTAssertNil(byName["App (Loose)"]?.profileSource)
        let text = AccessReportText.render(report)
        XCTAssertTrue(text.contains("CODE_SIGN_ENTITLEMENTS at app/BUILD.bazel:9"), text)
        XCTAssertTrue(text.contains("provisioning_profile app/App.mobileprovision (app/BUILD.bazel:11)"), text)
        XCTAssertTrue(text.contains("CODE_SIGN_ENTITLEMENTS at App.xcodeproj/project.pbxproj:212"), text)
        let html = AccessReportHTML.render(report)
        XCTAssertTrue(html.contains("PROVISIONING_PROFILE_SPECIFIER at Config/App.xcconfig:4"), html)
    }
}
