import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// A signing fact only a missing per-developer file sets is unknown with why, not merely absent;
/// the App ID prefix taken from a project's team is assumed.
final class UnknownFactTests: XCTestCase {
    func lint(xcconfig: String, files: [String: String]) throws -> LintResult {
        let dir = try Fixture.temporaryDirectory(self)
        for (path, text) in files { try Fixture.write(text, path, in: dir) }
        try Fixture.write(xcconfig, "Config/App.xcconfig", in: dir)
        let settings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")]
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Debug", settings)], baseConfigurations: ["Debug": "Config/App.xcconfig"])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"]), "App/App.entitlements", in: dir)
        return try Fixture.lint([dir.path])
    }

    func testATeamOnlyAMissingPerDeveloperFileSetsIsUnknownWithWhy() throws {
        let result = try lint(xcconfig: "#include? \"Local.xcconfig\"\n", files: ["Config/Local.xcconfig.sample": "DEVELOPMENT_TEAM = YOURTEAM\n"])
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertNil(unit.teamID)
        guard case .unknown(let why) = unit.certainty(of: .teamID) else { return XCTFail("\(unit.certainty(of: .teamID))") }
        XCTAssertTrue(why.hasPrefix("DEVELOPMENT_TEAM comes from ") && why.hasSuffix(", which this checkout lacks") && why.contains("Local.xcconfig"), why)
        XCTAssertEqual(unit.certainty(of: .appIDPrefix), .unknown(why), "the prefix would be taken from that team")
        XCTAssertEqual(unit.certainty(of: .bundleID), .known)
        XCTAssertEqual(unit.certainty(of: .profile), .unknown("no matching profile found"), "why the target has no profile")
    }

    func testATeamTheProjectSetsMakesTheAppIDPrefixAssumed() throws {
        let result = try lint(xcconfig: "DEVELOPMENT_TEAM = ABCDE12345\n", files: [:])
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertEqual(unit.certainty(of: .teamID), .known)
        XCTAssertEqual(unit.unknownFacts, [:])
        guard case .assumed(let what) = unit.certainty(of: .appIDPrefix) else { return XCTFail("\(unit.certainty(of: .appIDPrefix))") }
        XCTAssertTrue(what.hasPrefix("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM at ") && what.hasSuffix("Config/App.xcconfig:1)"), what)
    }
}
