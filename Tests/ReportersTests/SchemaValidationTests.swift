import TestSupport
import XCTest
import EntitlintCore
@testable import Reporters

/// Every machine format, rendered from hostile and empty reports, checked by the real validator
/// against the real schema (not by comparing strings).
final class SchemaValidationTests: XCTestCase {
    let withRoot: Report = {
        var r = ReportFixtures.hostile
        r.sourceRoot = SourceRoot(root: "/work/repo", currentDirectory: "/work/repo/ios")
        return r
    }()

    func testSARIFIsValid() throws {
        try SchemaValidator.validate(SARIFReporter().render(ReportFixtures.hostile), format: "sarif")
        try SchemaValidator.validate(SARIFReporter().render(withRoot), format: "sarif")
        try SchemaValidator.validate(SARIFReporter().render(ReportFixtures.clean), format: "sarif")
    }

    /// What the run could not see goes where SARIF keeps such messages (3.20.21
    /// `toolExecutionNotifications`), and into JSON's `notices`; neither is a result or a finding.
    func testNoticesAreToolNotificationsInSARIFAndNoticesInJSON() throws {
        var report = ReportFixtures.clean
        report.notices = [Notice(message: "Pods/Pods.xcodeproj is not here \u{1b}[31m", path: "App.xcworkspace/contents.xcworkspacedata", line: 7, column: 4),
                          Notice(message: "no line", path: "My App/App.entitlements")]
        let sarif = SARIFReporter().render(report)
        try SchemaValidator.validate(sarif, format: "sarif")
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual((run["results"] as? [Any])?.count, ReportFixtures.clean.findings.count, "notices are not results")
        let notes = try XCTUnwrap(((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"]) as? [[String: Any]])
        XCTAssertEqual(notes.count, 2)
        XCTAssertEqual(notes.first?["level"] as? String, "note")
        let cleanLog = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(SARIFReporter().render(ReportFixtures.clean).utf8)) as? [String: Any])
        XCTAssertNil((cleanLog["runs"] as? [[String: Any]])?.first?["invocations"], "no invocation object without notices")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(JSONReporter().render(report).utf8)) as? [String: Any])
        let notices = try XCTUnwrap(json["notices"] as? [[String: Any]])
        XCTAssertEqual(notices.map { $0["path"] as? String }, ["App.xcworkspace/contents.xcworkspacedata", "My App/App.entitlements"])
        XCTAssertEqual(notices.first?["line"] as? Int, 7)
    }

    func testGitLabIsValidPerElement() throws {
        try SchemaValidator.validate(GitLabReporter().render(ReportFixtures.hostile), format: "gitlab")
        try SchemaValidator.validate(GitLabReporter().render(withRoot), format: "gitlab")
        try SchemaValidator.validate(GitLabReporter().render(ReportFixtures.clean), format: "gitlab")
    }

    func testJUnitIsValid() throws {
        try SchemaValidator.validate(JUnitReporter().render(ReportFixtures.hostile), format: "junit")
        try SchemaValidator.validate(JUnitReporter().render(ReportFixtures.clean), format: "junit")
        try SchemaValidator.validate(JUnitReporter().render(Report(findings: [], files: 0)), format: "junit")
    }

    func testCheckstyleIsValid() throws {
        try SchemaValidator.validate(CheckstyleReporter().render(ReportFixtures.hostile), format: "checkstyle")
        try SchemaValidator.validate(CheckstyleReporter().render(ReportFixtures.clean), format: "checkstyle")
        try SchemaValidator.validate(CheckstyleReporter().render(Report(findings: [], files: 0)), format: "checkstyle")
    }

    /// The validators themselves catch what they should, so a passing test means something.
    /// (Each check runs outside the assertion: a missing schema or tool skips the test, which a
    /// skip thrown inside an assertion would turn into a failure.)
    func testValidatorsRejectBrokenReports() throws {
        let sarif = SARIFReporter().render(ReportFixtures.hostile)
        let rawSpace = sarif.replacingOccurrences(of: "My%20App/App%20Store.entitlements", with: "My App/App Store.entitlements")
        let verdict1 = try SchemaValidator.check(rawSpace, format: "sarif")
        XCTAssertFalse(verdict1.valid, "a raw space in a URI")
        let lineZero = sarif.replacingOccurrences(of: "\"startLine\" : 7", with: "\"startLine\" : 0")
        let verdict2 = try SchemaValidator.check(lineZero, format: "sarif")
        XCTAssertFalse(verdict2.valid, "startLine 0")
        let noHelp = sarif.replacingOccurrences(of: "\"markdown\"", with: "\"markdow\"")
        let verdict3 = try SchemaValidator.check(noHelp, format: "sarif")
        XCTAssertFalse(verdict3.valid, "help.markdown missing")

        let gitlab = GitLabReporter().render(ReportFixtures.hostile)
        let noFingerprint = gitlab.replacingOccurrences(of: "\"fingerprint\"", with: "\"fingerprin\"")
        let verdict4 = try SchemaValidator.check(noFingerprint, format: "gitlab")
        XCTAssertFalse(verdict4.valid, "fingerprint missing")

        let checkstyle = CheckstyleReporter().render(ReportFixtures.hostile).replacingOccurrences(of: "line=\"7\"", with: "line=\"0\"")
        let verdict5 = try SchemaValidator.check(checkstyle, format: "checkstyle")
        XCTAssertFalse(verdict5.valid, "line=\"0\" is not an xs:positiveInteger")

        let junit = JUnitReporter().render(ReportFixtures.hostile).replacingOccurrences(of: "<testcase classname", with: "<testcase line=\"7\" classname")
        let verdict6 = try SchemaValidator.check(junit, format: "junit")
        XCTAssertFalse(verdict6.valid, "the Jenkins schema has no line on a testcase")
    }
}
