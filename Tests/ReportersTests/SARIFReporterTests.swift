import Foundation
import TestSupport
import XCTest
import EntitlintCore
import EntitlintRules
@testable import Reporters

final class SARIFReporterTests: XCTestCase {
    func decode(_ report: Report) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(SARIFReporter().render(report).utf8)) as? [String: Any])
    }

    func run(_ log: [String: Any]) throws -> [String: Any] {
        try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
    }

    func results(_ report: Report) throws -> [[String: Any]] {
        try XCTUnwrap(run(decode(report))["results"] as? [[String: Any]])
    }

    func physical(_ result: [String: Any]) throws -> [String: Any] {
        let locations = try XCTUnwrap(result["locations"] as? [[String: Any]])
        return try XCTUnwrap(locations.first?["physicalLocation"] as? [String: Any])
    }

    func lineHash(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?["primaryLocationLineHash"]
    }

    func testLogHasSchemaVersionAndEveryEnabledRule() throws {
        let log = try decode(ReportFixtures.hostile)
        XCTAssertEqual(log["$schema"] as? String, SARIFReporter.schemaURI)
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let driver = try XCTUnwrap((run(log)["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "entitlint")
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        // Every rule, less the findings about the run (besides parse-error) that no result names.
        XCTAssertEqual(rules.compactMap { $0["id"] as? String },
                       RuleRegistry.descriptions.map(\.id).filter { !ToolFindings.contains($0) || $0 == ToolFindings.parseError })
        for rule in rules {
            let id = rule["id"] as! String
            XCTAssertNotNil((rule["shortDescription"] as? [String: String])?["text"], id)
            XCTAssertNotNil((rule["fullDescription"] as? [String: String])?["text"], id)
            let help = try XCTUnwrap(rule["help"] as? [String: String], id)
            XCTAssertTrue(help["text"]?.contains("Rules/\(id).md") == true, id)
            XCTAssertTrue(help["markdown"]?.contains("`Rules/\(id).md`") == true, id)
            XCTAssertFalse(help["markdown"]?.contains("↓") == true, "example markers are removed")
        }
    }

    /// Every rule links its page and carries the properties GitHub code scanning reads; a
    /// security severity only with the `security` tag, where GitHub counts it.
    func testRulesLinkTheirPageAndCarryTagsPrecisionAndSecuritySeverity() throws {
        let driver = try XCTUnwrap((run(decode(ReportFixtures.hostile))["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: SchemaValidator.packageRoot.appendingPathComponent("Rules").path))
        var security: [String: String] = [:]
        for rule in rules {
            let id = rule["id"] as! String
            XCTAssertEqual(rule["helpUri"] as? String, "https://github.com/entitlint/entitlint/blob/main/Rules/\(id).md")
            XCTAssertTrue(pages.contains("\(id).md"), "helpUri of \(id) names a page that does not exist")
            let properties = try XCTUnwrap(rule["properties"] as? [String: Any], id)
            let tags = try XCTUnwrap(properties["tags"] as? [String], id)
            XCTAssertEqual(tags.first, "entitlements", id)
            XCTAssertTrue(["very-high", "high", "medium", "low"].contains(properties["precision"] as? String ?? ""), id)
            if let score = properties["security-severity"] as? String {
                XCTAssertTrue(tags.contains("security"), id)
                XCTAssertNotNil(Double(score).flatMap { (0.0...10.0).contains($0) ? $0 : nil }, "\(id): \(score)")
                security[id] = score
            } else {
                XCTAssertFalse(tags.contains("security"), id)
            }
        }
        XCTAssertEqual(security["get-task-allow-in-distribution"], "7.5")
        XCTAssertEqual(security["wildcard-access-group"], "6.5")
        XCTAssertEqual(security["code-group-not-entitled"], "5.0", "a keychain error")
        XCTAssertNil(security["entitlement-not-in-profile"], "a signing error, not a keychain one")
        XCTAssertNil(security["duplicate-access-group"], "a warning")
        let precision = Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as! String, ($0["properties"] as! [String: Any])["precision"] as! String) })
        XCTAssertEqual(precision["wildcard-access-group"], "very-high")
        XCTAssertEqual(precision["code-group-not-entitled"], "medium")
        XCTAssertEqual(precision["entitlement-not-in-profile"], "high")
    }

    func testOnlyEnabledRulesWithTheirConfiguredSeverity() throws {
        let enabled = Report.enabledRules(RuleRegistry.descriptions, settings: ["comment-in-plist": .off, "duplicate-key": .error])
        XCTAssertFalse(enabled.contains { $0.id == "comment-in-plist" })
        XCTAssertEqual(enabled.first { $0.id == "duplicate-key" }?.severity, .error)
        let log = try decode(Report(findings: [], files: 0, rules: enabled))
        let rules = try XCTUnwrap(((run(log)["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        // All but the one turned off, the opt-in rules not named, and the findings about the run
        // that no result names.
        let optIn = RuleRegistry.descriptions.filter(\.optIn)
        XCTAssertFalse(optIn.isEmpty)
        XCTAssertEqual(rules.count, RuleRegistry.descriptions.count - 1 - optIn.count - (ToolFindings.ids.count - 1))
        XCTAssertFalse(rules.contains { r in optIn.contains { $0.id == r["id"] as? String } })
        let duplicate = try XCTUnwrap(rules.first { $0["id"] as? String == "duplicate-key" })
        XCTAssertEqual((duplicate["defaultConfiguration"] as? [String: String])?["level"], "error")
    }

    /// An opt-in rule a run names (a severity in `rules:`, as `--select` and `select:` give it) is
    /// listed with that severity, as its findings are kept.
    func testANamedOptInRuleIsListed() throws {
        let id = try XCTUnwrap(RuleRegistry.descriptions.first(where: \.optIn)).id
        XCTAssertEqual(Report.enabledRules(RuleRegistry.descriptions, settings: [id: .warning]).first { $0.id == id }?.severity, .warning)
        XCTAssertFalse(Report.enabledRules(RuleRegistry.descriptions, settings: [id: .off]).contains { $0.id == id })
    }

    func testResultsPointAtTheirRuleAndCarryLevel() throws {
        let report = ReportFixtures.hostile
        let rs = try results(report)
        XCTAssertEqual(rs.count, report.findings.count)
        for (r, f) in zip(rs, report.findings) {
            XCTAssertEqual(r["ruleId"] as? String, f.rule)
            XCTAssertEqual(r["ruleIndex"] as? Int, report.rules.firstIndex { $0.id == f.rule })
            XCTAssertEqual(r["level"] as? String, f.severity.rawValue)
            XCTAssertEqual((r["message"] as? [String: String])?["text"], f.message)
        }
    }

    func testRuleMissingFromTheListStillGetsADescriptor() throws {
        let f = Finding(rule: "custom-rule", severity: .warning, message: "m", path: "A.entitlements", line: 1, column: 1)
        let log = try decode(Report(findings: [f], files: 1))
        let run = try run(log)
        let rules = try XCTUnwrap((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["custom-rule"])
        XCTAssertEqual((run["results"] as? [[String: Any]])?.first?["ruleIndex"] as? Int, 0)
    }

    func testURIsArePercentEncodedRelativePaths() throws {
        let rs = try results(ReportFixtures.hostile)
        let uris = try rs.map { try XCTUnwrap((physical($0)["artifactLocation"] as? [String: Any])?["uri"] as? String) }
        XCTAssertTrue(uris.contains("My%20App/App%20Store.entitlements"), "\(uris)")
        XCTAssertTrue(uris.contains("Sub%3Adir%2Cx/A.entitlements"), "a colon must not read as a scheme: \(uris)")
        XCTAssertEqual(URIReference.encodePath("a b/100%/é.entitlements"), "a%20b/100%25/%C3%A9.entitlements")
        XCTAssertEqual(URIReference.reference(forPath: "/tmp/x y.entitlements"), "file:///tmp/x%20y.entitlements")
        XCTAssertEqual(URIReference.folder("/work/my repo"), "file:///work/my%20repo/")
    }

    func testPathsAreRelativeToTheRepositoryRoot() throws {
        var report = ReportFixtures.hostile
        report.sourceRoot = SourceRoot(root: "/work/repo", currentDirectory: "/work/repo/ios")
        let log = try decode(report)
        let run = try run(log)
        let bases = try XCTUnwrap(run["originalUriBaseIds"] as? [String: [String: String]])
        XCTAssertEqual(bases["%SRCROOT%"]?["uri"], "file:///work/repo/")
        let artifact = try XCTUnwrap(physical(XCTUnwrap((run["results"] as? [[String: Any]])?.first))["artifactLocation"] as? [String: String])
        XCTAssertEqual(artifact["uri"], "ios/My%20App/App%20Store.entitlements")
        XCTAssertEqual(artifact["uriBaseId"], "%SRCROOT%")

        let root = SourceRoot(root: "/work/repo", currentDirectory: "/work/repo/ios")
        XCTAssertEqual(root.relative("A.entitlements"), "ios/A.entitlements")
        XCTAssertEqual(root.relative("../B/B.entitlements"), "B/B.entitlements")
        XCTAssertNil(root.relative("/elsewhere/C.entitlements"))

        let outside = Finding(rule: "r", severity: .error, message: "m", path: "../../elsewhere/D.entitlements", line: 1, column: 1)
        let outsideResult = try XCTUnwrap(results(Report(findings: [outside], files: 1, sourceRoot: root)).first)
        let outsideArtifact = try XCTUnwrap(physical(outsideResult)["artifactLocation"] as? [String: String])
        XCTAssertEqual(outsideArtifact["uri"], "file:///work/elsewhere/D.entitlements", "outside the work tree: an absolute URI")
        XCTAssertNil(outsideArtifact["uriBaseId"])
    }

    func testFindingWithoutLineHasNoRegionAndOthersStartAtLineOne() throws {
        for r in try results(ReportFixtures.hostile) {
            let p = try physical(r)
            if r["ruleId"] as? String == "parse-error" {
                XCTAssertNil(p["region"], "a profile has no lines: the result is about the whole file")
            } else {
                let region = try XCTUnwrap(p["region"] as? [String: Int])
                XCTAssertGreaterThanOrEqual(try XCTUnwrap(region["startLine"]), 1)
            }
        }
    }

    func testFingerprintsSurviveLineChangesButNotKeyPathChanges() throws {
        let before = try results(Report(findings: [ReportFixtures.wildcard], files: 1))
        let after = try results(Report(findings: [ReportFixtures.moved(ReportFixtures.wildcard, line: 42, column: 9)], files: 1))
        XCTAssertNotNil(lineHash(before[0]))
        XCTAssertEqual(lineHash(before[0]), lineHash(after[0]), "an edit above the finding keeps the alert")

        var other = ReportFixtures.wildcard
        other.keyPath = "keychain-access-groups[1]"
        XCTAssertNotEqual(lineHash(before[0]), lineHash(try results(Report(findings: [other], files: 1))[0]))
        var elsewhere = ReportFixtures.wildcard
        elsewhere.path = "Other.entitlements"
        XCTAssertNotEqual(lineHash(before[0]), lineHash(try results(Report(findings: [elsewhere], files: 1))[0]))
        var message = ReportFixtures.wildcard
        message.message = "already listed on line 12"
        XCTAssertEqual(lineHash(before[0]), lineHash(try results(Report(findings: [message], files: 1))[0]), "messages quote lines")
    }

    func testSameIdentityIsNumbered() throws {
        let a = Finding(rule: "comment-in-plist", severity: .note, message: "one", path: "A.entitlements", line: 3, column: 1)
        let b = Finding(rule: "comment-in-plist", severity: .note, message: "two", path: "A.entitlements", line: 8, column: 1)
        let hashes = try results(Report(findings: [a, b], files: 1)).compactMap(lineHash)
        XCTAssertEqual(hashes.count, 2)
        XCTAssertTrue(hashes[0].hasSuffix(":1") && hashes[1].hasSuffix(":2"), "\(hashes)")
        XCTAssertEqual(hashes[0].dropLast(2), hashes[1].dropLast(2))
    }

    func testFNV1aReferenceValues() {
        // Test vectors of the FNV reference code (draft-eastlake-fnv).
        XCTAssertEqual(StableHash.fnv1a64("".utf8), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(StableHash.fnv1a64("a".utf8), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(StableHash.fnv1a64("foobar".utf8), 0x8594_4171_f739_67e8)
        XCTAssertNotEqual(StableHash.fnv1a64(["ab", "c"]), StableHash.fnv1a64(["a", "bc"]))
        XCTAssertEqual(StableHash.hex(0xab), "00000000000000ab")
    }

    func testOutputIsByteStable() {
        XCTAssertEqual(SARIFReporter().render(ReportFixtures.hostile), SARIFReporter().render(ReportFixtures.hostile))
        XCTAssertTrue(SARIFReporter().render(ReportFixtures.clean).hasPrefix("{\n  \"$schema\""))
    }
}
