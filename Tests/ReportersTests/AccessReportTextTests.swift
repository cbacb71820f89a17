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
}
