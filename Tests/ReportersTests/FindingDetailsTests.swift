import Foundation
import TestSupport
import XCTest
import EntitlintCore
import EntitlintRules
@testable import Reporters

/// A finding's units, notes, help and fix, in every format, in the place each format has for
/// them, escaped as the message is; the reports stay valid against their schemas.
final class FindingDetailsTests: XCTestCase {
    /// Folded over two configurations, with notes, help and a fix; one value holds a line break
    /// followed by a workflow command, and one a control character.
    static var detailed: Finding {
        var f = Finding(rule: "team-prefix-mismatch", severity: .warning, message: "group \"X.a\" is not prefixed by the team",
                        path: "App/App.entitlements", line: 5, column: 3, unit: "App (Debug)", keyPath: "keychain-access-groups[0]")
        f.units = ["App (Debug)", "App (Beta)"]
        f.notes = ["the team comes from DEVELOPMENT_TEAM in App.xcodeproj (Debug)", "the prefix is assumed\n::warning::injected"]
        f.help = "write $(AppIdentifierPrefix)a\u{7}"
        f.fix = Finding.Fix(title: "Prefix [the] group", applicability: .safe,
                            edits: [Finding.Edit(path: "App/App.entitlements", range: 120..<124, replacement: "$(AppIdentifierPrefix)a")])
        return f
    }

    /// Without a location, units, notes or fix: what most findings are.
    static let bare = Finding(rule: "parse-error", severity: .error, message: "cannot parse profile: not CMS", path: "P.mobileprovision")

    static var report: Report {
        Report(findings: [detailed, bare].sorted(), files: 2, rules: RuleRegistry.descriptions, paths: ["App/App.entitlements", "P.mobileprovision"])
    }

    func testTextPutsDetailsOnIndentedLinesUnderTheFindingLine() {
        let lines = TextReporter().render(Self.report).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(6)), [
            "App/App.entitlements:5:3: warning: [*] group \"X.a\" is not prefixed by the team (in App (Debug), App (Beta)) [team-prefix-mismatch]",
            "  = note: the team comes from DEVELOPMENT_TEAM in App.xcodeproj (Debug)",
            "  = note: the prefix is assumed\\n::warning::injected",
            "  = help: write $(AppIdentifierPrefix)a\\u{7}",
            "  = fix (safe): Prefix [the] group",
            "P.mobileprovision: error: cannot parse profile: not CMS [parse-error]",
        ])
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testJSONCarriesEveryFieldAndLeavesOutWhatIsAbsent() throws {
        let text = JSONReporter().render(Self.report)
        try SchemaValidator.validate(text, format: "json")
        let doc = try json(text)
        XCTAssertEqual(doc["version"] as? Int, 2)
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        let f = try XCTUnwrap(findings.first { $0["rule"] as? String == "team-prefix-mismatch" })
        XCTAssertEqual(f["message"] as? String, "group \"X.a\" is not prefixed by the team", "the units are not in the message")
        XCTAssertEqual(f["units"] as? [String], ["App (Debug)", "App (Beta)"])
        XCTAssertEqual(f["unit"] as? String, "App (Debug)")
        XCTAssertEqual(f["notes"] as? [String], Self.detailed.notes)
        XCTAssertEqual(f["help"] as? String, Self.detailed.help)
        XCTAssertEqual(f["line"] as? Int, 5)
        XCTAssertEqual(f["column"] as? Int, 3)
        let fix = try XCTUnwrap(f["fix"] as? [String: Any])
        XCTAssertEqual(fix["title"] as? String, "Prefix [the] group")
        XCTAssertEqual(fix["applicability"] as? String, "safe")
        let edits = try XCTUnwrap(fix["edits"] as? [[String: Any]])
        XCTAssertEqual(edits.count, 1)
        XCTAssertEqual(edits[0]["path"] as? String, "App/App.entitlements")
        XCTAssertEqual(edits[0]["start"] as? Int, 120)
        XCTAssertEqual(edits[0]["end"] as? Int, 124)
        XCTAssertEqual(edits[0]["replacement"] as? String, "$(AppIdentifierPrefix)a")

        let bare = try XCTUnwrap(findings.first { $0["rule"] as? String == "parse-error" })
        for key in ["line", "column", "unit", "help", "fix"] { XCTAssertNil(bare[key], "\(key) is left out when absent") }
        XCTAssertEqual(bare["units"] as? [String], [])
        XCTAssertEqual(bare["notes"] as? [String], [])
    }

    func testTheJSONValidatorRejectsWhatVersion2Forbids() throws {
        var doc = try json(JSONReporter().render(Self.report))
        var findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        findings[0]["line"] = 0
        doc["findings"] = findings
        let zeroLine = String(decoding: try JSONSerialization.data(withJSONObject: doc), as: UTF8.self)
        XCTAssertFalse(try SchemaValidator.check(zeroLine, format: "json").valid, "line 0 is no location: left out, never 0")
        doc["version"] = 1
        findings[0]["line"] = 5
        doc["findings"] = findings
        let oldVersion = String(decoding: try JSONSerialization.data(withJSONObject: doc), as: UTF8.self)
        XCTAssertFalse(try SchemaValidator.check(oldVersion, format: "json").valid)
    }

    func testSARIFShowsDetailsInTheMessageAndCarriesThemAndTheFixAsData() throws {
        let text = SARIFReporter().render(Self.report)
        try SchemaValidator.validate(text, format: "sarif")
        let run = try XCTUnwrap((try json(text)["runs"] as? [[String: Any]])?.first)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let r = try XCTUnwrap(results.first { $0["ruleId"] as? String == "team-prefix-mismatch" })
        let message = try XCTUnwrap((r["message"] as? [String: Any])?["text"] as? String)
        XCTAssertEqual(message, """
            group "X.a" is not prefixed by the team (in App (Debug), App (Beta))

            Note: the team comes from DEVELOPMENT_TEAM in App.xcodeproj (Debug)
            Note: the prefix is assumed
            ::warning::injected
            Help: write $(AppIdentifierPrefix)a\u{7}
            """)
        let properties = try XCTUnwrap(r["properties"] as? [String: Any])
        XCTAssertEqual(properties["units"] as? [String], ["App (Debug)", "App (Beta)"])
        XCTAssertEqual(properties["notes"] as? [String], Self.detailed.notes)
        XCTAssertEqual(properties["help"] as? String, Self.detailed.help)
        let fix = try XCTUnwrap((r["fixes"] as? [[String: Any]])?.first)
        XCTAssertEqual((fix["description"] as? [String: Any])?["text"] as? String, "Prefix \\[the\\] group")
        XCTAssertEqual((fix["properties"] as? [String: Any])?["applicability"] as? String, "safe")
        let change = try XCTUnwrap((fix["artifactChanges"] as? [[String: Any]])?.first)
        XCTAssertEqual((change["artifactLocation"] as? [String: Any])?["uri"] as? String, "App/App.entitlements")
        let replacement = try XCTUnwrap((change["replacements"] as? [[String: Any]])?.first)
        XCTAssertEqual(replacement["deletedRegion"] as? [String: Int], ["byteOffset": 120, "byteLength": 4])
        XCTAssertEqual((replacement["insertedContent"] as? [String: Any])?["text"] as? String, "$(AppIdentifierPrefix)a")

        let bare = try XCTUnwrap(results.first { $0["ruleId"] as? String == "parse-error" })
        XCTAssertNil(bare["properties"])
        XCTAssertNil(bare["fixes"])
        XCTAssertEqual((bare["message"] as? [String: Any])?["text"] as? String, "cannot parse profile: not CMS")
    }

    func testGitHubPutsDetailsInTheAnnotationBodyAndNoValueStartsACommand() {
        let out = GitHubReporter().guarded(GitHubReporter().render(Self.report))
        XCTAssertTrue(out.contains("::warning file=App/App.entitlements,line=5,col=3,title=entitlint%3A team-prefix-mismatch::"
                                   + "group \"X.a\" is not prefixed by the team (in App (Debug), App (Beta))"
                                   + "%0A  = note: the team comes from DEVELOPMENT_TEAM in App.xcodeproj (Debug)"
                                   + "%0A  = note: the prefix is assumed%0A::warning::injected"
                                   + "%0A  = help: write $(AppIdentifierPrefix)a\\u{7}%0A  = fix (safe): Prefix [the] group\n"), out)
    }

    func testEveryFormatCarriesTheDetailsAndNoLineIsAnInjectedCommand() throws {
        for reporter in Reporters.all {
            let name = type(of: reporter).identifier
            let out = reporter.guarded(reporter.render(Self.report))
            XCTAssertTrue(out.contains("the team comes from DEVELOPMENT_TEAM"), "\(name): the note")
            XCTAssertTrue(out.contains("AppIdentifierPrefix)a"), "\(name): the help")
            XCTAssertTrue(out.contains("App (Beta)"), "\(name): the units")
            for line in out.split(separator: "\n") {
                XCTAssertFalse(line.drop { $0 == " " || $0 == "\t" }.hasPrefix("::warning::injected"), "\(name): \(line)")
            }
        }
        try SchemaValidator.validate(GitLabReporter().render(Self.report), format: "gitlab")
        try SchemaValidator.validate(JUnitReporter().render(Self.report), format: "junit")
        try SchemaValidator.validate(CheckstyleReporter().render(Self.report), format: "checkstyle")
    }

    func testJUnitCountsEveryToolFindingAsAnError() {
        let findings = ToolFindings.ids.map { Finding(rule: $0, severity: .warning, message: "m", path: "\($0).entitlements") }
            + [Finding(rule: "wildcard-access-group", severity: .error, message: "m", path: "W.entitlements", line: 1)]
        let suites = JUnitReporter.suites(for: Report(findings: findings, files: findings.count))
        XCTAssertEqual(suites.reduce(0) { $0 + $1.errors }, ToolFindings.ids.count)
        XCTAssertEqual(suites.reduce(0) { $0 + $1.failures }, 1)
    }

    func testSARIFListsAToolFindingAboutTheRunOnlyWhenAResultNamesIt() throws {
        func ids(_ findings: [Finding]) throws -> [String] {
            let report = Report(findings: findings, files: 1, rules: RuleRegistry.descriptions)
            let run = try XCTUnwrap((try json(SARIFReporter().render(report))["runs"] as? [[String: Any]])?.first)
            let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
            return rules.compactMap { $0["id"] as? String }
        }
        let none = try ids([])
        XCTAssertTrue(none.contains("parse-error"))
        XCTAssertFalse(none.contains("unreadable-path"))
        let one = try ids([Finding(rule: "unreadable-path", severity: .error, message: "cannot read", path: "Gone.entitlements")])
        XCTAssertTrue(one.contains("unreadable-path"))
        XCTAssertFalse(one.contains("findings-truncated"))
    }
}
