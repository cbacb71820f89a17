import XCTest
import EntitlintCore
import PropertyList
@testable import Reporters

/// Every format of `report` shows a target once: one row, card or section for the configurations
/// that agree on every fact, group and finding, one per configuration where they differ. Two
/// targets x two configurations: Widget's agree; App's Debug has its own bundle ID.
final class AccessReportSectionsTests: XCTestCase {
    func unit(_ target: String, _ configuration: String, bundleID: String) throws -> SigningUnit {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t</array>\n</dict>\n</plist>\n"
        let document = try PropertyListReader.parse(Array(text.utf8))
        var u = SigningUnit(name: "\(target) (\(configuration))", entitlementsPath: "\(target)/\(target).entitlements", document: document,
                            bundleID: Fact(bundleID, from: .xcode("PRODUCT_BUNDLE_IDENTIFIER at App.xcodeproj/project.pbxproj:\(configuration.count)")),
                            teamID: Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:9")), platform: .iOS)
        u.appIDPrefix = Fact("ABCDE12345", from: .derived("App ID prefix taken to be the Team ID"))
        u.origin = UnitOrigin(projectFile: "App.xcodeproj/project.pbxproj", projectName: "App", target: target, configuration: configuration,
                              kind: target == "App" ? .app : .appExtension, sdk: "iphoneos")
        return u
    }

    func report() throws -> AccessReport {
        AccessReport(units: [try unit("App", "Debug", bundleID: "com.example.App.debug"), try unit("App", "Release", bundleID: "com.example.App"),
                             try unit("Widget", "Debug", bundleID: "com.example.App.widget"), try unit("Widget", "Release", bundleID: "com.example.App.widget")])
    }

    func testJSONListsEveryUnitAndEachTargetOnceWithASectionPerSetOfAgreeingConfigurations() throws {
        let json = AccessReportFormat.json.render(try report())
        let decoded = try JSONDecoder().decode(AccessReport.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.version, 2)
        XCTAssertEqual(decoded.units.map(\.name), ["App (Debug)", "App (Release)", "Widget (Debug)", "Widget (Release)"], "per-unit data stays")
        XCTAssertEqual(decoded.targets.map(\.target), ["App", "Widget"])
        XCTAssertEqual(decoded.targets[0].sections.map(\.name), ["App (Debug)", "App (Release)"], "App's configurations differ")
        XCTAssertEqual(decoded.targets[0].sections.map(\.units), [["App (Debug)"], ["App (Release)"]])
        XCTAssertEqual(decoded.targets[1].sections.map(\.name), ["Widget (Debug, Release)"])
        XCTAssertEqual(decoded.targets[1].sections[0].configurations, ["Debug", "Release"])
        XCTAssertEqual(decoded.targets[1].sections[0].units, ["Widget (Debug)", "Widget (Release)"])
        XCTAssertEqual(decoded.targets[1].project, "App.xcodeproj/project.pbxproj")
    }

    func testMarkdownHasOneRowPerSectionAndMatrixColumnsToMatch() throws {
        let md = AccessReportFormat.markdown.render(try report())
        XCTAssertTrue(md.contains("| 3 | Widget (Debug, Release) | app-extension, iphoneos | `com.example.App.widget` |"), md)
        XCTAssertTrue(md.contains("| 1 | App (Debug) |") && md.contains("| 2 | App (Release) |"), md)
        XCTAssertFalse(md.contains("Widget (Release)"), md)
        XCTAssertTrue(md.contains("| group | 1 | 2 | 3 | Findings |"), "three columns, not four: \(md)")
        XCTAssertTrue(md.contains("**Widget (Debug, Release)** — `Widget/Widget.entitlements`"), md)
        XCTAssertTrue(md.contains("are one row"), md)
    }

    func testHTMLHasOneMatrixRowAndOneCardPerSection() throws {
        let html = AccessReportFormat.html.render(try report())
        XCTAssertEqual(html.components(separatedBy: "<h3>").count - 1, 3, html)
        XCTAssertTrue(html.contains("<h3>Widget (Debug, Release)</h3>"), html)
        XCTAssertTrue(html.contains("<h3>App (Debug)</h3>") && html.contains("<h3>App (Release)</h3>"), html)
        XCTAssertEqual(html.components(separatedBy: "<td class=\"unit\">").count - 1, 3, html)
        XCTAssertTrue(html.contains("<td class=\"unit\">Widget<span class=\"kind\">app-extension · Debug, Release</span>"), html)
        XCTAssertTrue(html.contains("4 units of 2 targets"), html)
    }
}
