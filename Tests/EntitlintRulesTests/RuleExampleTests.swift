import XCTest
import EntitlintCore
import PropertyList
@testable import EntitlintRules

/// The catalogue of rules and what every rule carries (examples of both kinds, citations, fresh
/// pages); the examples run as tests of their own rule in `RuleExampleCases`.
final class RuleExampleTests: XCTestCase {
    func testCatalogueHasEveryRuleInOrder() {
        let ids = RuleRegistry.descriptions.map(\.id)
        XCTAssertEqual(ids, [
            "parse-error", "team-prefix-mismatch", "missing-team-prefix", "wildcard-access-group", "empty-access-group",
            "default-group-drift", "group-missing-from-profile", "non-string-access-group", "unresolved-variable",
            "double-prefix", "default-group-not-app-id", "duplicate-key", "duplicate-access-group", "token-group-claimed",
            "comment-in-plist", "literal-app-id-prefix", "unused-suppression",
            // Profiles in depth and built products.
            "profile-expired", "profile-expiring", "certificate-expired", "entitlement-not-in-profile",
            "entitlement-value-mismatch", "profile-app-id-mismatch", "get-task-allow-in-distribution",
            "aps-environment-mismatch", "app-clip-access-groups", "der-unencodable-value", "profile-der-mismatch",
            "macos-restricted-without-profile", "xml-der-entitlements-mismatch",
            // Xcode projects: sharing across targets.
            "shared-group-single-member", "team-mismatch-across-targets", "app-group-format", "inconsistent-default-group",
            "watch-shares-phone-group",
            // Xcode projects as Xcode reads them.
            "empty-setting-in-group", "unused-entitlements-file",
            // Keychain groups in code.
            "code-group-not-entitled", "code-group-missing-prefix", "code-group-wrong-prefix", "code-group-foreign-prefix",
            "code-group-unexpanded-variable", "save-to-shared-default-group",
            "access-group-unused-in-code",
            // The linter's own findings about its run.
            "unreadable-path", "read-limit", "link-outside-root", "findings-truncated", "output-truncated",
        ])
    }

    static let aboutTheRun = Set(ToolFindings.ids).subtracting([ToolFindings.parseError])

    func testEveryRuleHasBothKindsOfExamples() {
        // The findings about the run itself (a file that could not be read, findings left out)
        // are made by the file system or the size of a run, not by a file's content: they have
        // no example, and their tests build such runs (ToolFindingTests).
        for d in RuleRegistry.descriptions where !Self.aboutTheRun.contains(d.id) {
            XCTAssertFalse(d.triggering.isEmpty, "\(d.id) has no triggering example")
            XCTAssertFalse(d.nonTriggering.isEmpty, "\(d.id) has no non-triggering example")
            XCTAssertTrue(d.rationale.contains(GuideCitations.page), "\(d.id) rationale must cite \(GuideCitations.page)")
        }
    }

    /// What the engine and SARIF read about a rule is in its description, and consistent: a rule
    /// that reads only the file is the most precise kind, a code rule the least; scores are CVSS
    /// numbers; the ids the engine still names by string are rules of the catalogue.
    func testEveryRulesMetadataIsConsistent() {
        let ids = Set(RuleRegistry.descriptions.map(\.id))
        for d in RuleRegistry.descriptions {
            if d.readsOnlyTheFile { XCTAssertEqual(d.precision, .veryHigh, d.id) }
            if d.category == .code { XCTAssertEqual(d.precision, .medium, d.id); XCTAssertFalse(d.readsOnlyTheFile, d.id) }
            if d.category == .project, !d.readsOnlyTheFile { XCTAssertNotEqual(d.precision, .veryHigh, "\(d.id): a project rule reads more than the file") }
            if let score = d.securityScore {
                let value = Double(score)
                XCTAssertNotNil(value, d.id)
                XCTAssertTrue((0...10).contains(value ?? -1), d.id)
            }
            // A rule that offers fixes says what they do (its page's "Fix" section, `explain`).
            XCTAssertEqual(d.canFix, d.fixes != nil, d.id)
            // Every rule declares the unit facts it needs; one that reads only the file needs none.
            // A rule may be certain with a fact it does not need: its findings that rest on the
            // fact (`facts(behind:)`) are capped while it is assumed, the others stand while it is
            // unknown (default-group-drift compares symbolic groups, but a prefix change needs both prefixes).
            let facts = d.facts
            XCTAssertNotNil(facts, "\(d.id) declares no facts (RuleDescription.facts)")
            if d.readsOnlyTheFile { XCTAssertEqual(facts, .nothing, d.id) }
            // A reason for being uncapped only where nothing is capped.
            if let facts, facts.uncapped != nil { XCTAssertEqual(facts.certainWith, [], d.id) }
        }
        XCTAssertTrue(RuleStage.deadFileRules.isSubset(of: ids))
        XCTAssertTrue(ids.contains(FindingStage.unusedSuppressionID))
        // The engine's sets, read from the descriptions.
        XCTAssertEqual(Set(RuleRegistry.descriptions.filter(\.readsOnlyTheFile).map(\.id)),
                       ["parse-error", "wildcard-access-group", "empty-access-group", "non-string-access-group", "double-prefix",
                        "duplicate-key", "duplicate-access-group", "comment-in-plist", "der-unencodable-value", "unused-entitlements-file"])
        XCTAssertEqual(Set(RuleRegistry.descriptions.filter { $0.category == .tool }.map(\.id)), Set(ToolFindings.ids + ["unused-suppression"]))
        for d in RuleRegistry.descriptions where Self.aboutTheRun.contains(d.id) {
            XCTAssertTrue(d.triggering.isEmpty && d.nonTriggering.isEmpty, "\(d.id): a finding about the run has no example")
        }
    }

    /// The examples themselves run one test case per rule (`RuleExampleCases`), each failure at
    /// the example's own line: every example knows where it is written, in a rule's source file.
    func testEveryExampleKnowsItsSourceLine() throws {
        for d in RuleRegistry.descriptions {
            for ex in d.triggering + d.nonTriggering {
                XCTAssertTrue(ex.sourceFile.contains("/Sources/EntitlintRules/"), "\(d.id): \(ex.sourceFile)")
                XCTAssertFalse(ex.sourceFile.hasSuffix("ExampleProfiles.swift"), "\(d.id): the helper's line, not the example's")
                let lines = try String(contentsOfFile: ex.sourceFile, encoding: .utf8).components(separatedBy: "\n")
                XCTAssertTrue(ex.sourceLine >= 1 && ex.sourceLine <= lines.count, "\(d.id): line \(ex.sourceLine)")
            }
        }
    }

    /// The generated pages in `Rules/` must match the rules' descriptions.
    func testRuleDocsAreFresh() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for rule in RuleRegistry.all {
            let id = type(of: rule).description.id
            let url = root.appendingPathComponent("Rules/\(id).md")
            let onDisk = try? String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(onDisk == RuleDocs.markdown(for: rule),
                          "Rules/\(id).md is stale or missing: run `swift run entitlint generate-docs Rules`")
        }
        let index = try? String(contentsOf: root.appendingPathComponent("Rules/README.md"), encoding: .utf8)
        XCTAssertTrue(index == RuleDocs.index(RuleRegistry.all), "Rules/README.md is stale: run `swift run entitlint generate-docs Rules`")
        let pages = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Rules").path).filter { $0.hasSuffix(".md") }
        let handWritten: Set<String> = ["README.md", GuideCitations.page]
        XCTAssertEqual(Set(pages).subtracting(handWritten), Set(RuleRegistry.ids.map { "\($0).md" }),
                       "Rules/ has pages for rules that do not exist")
    }
}

final class DoublePrefixDetectionTests: XCTestCase {
    func testForms() {
        let doubled = ["$(AppIdentifierPrefix).x", "${TeamIdentifierPrefix}.x", "$(AppIdentifierPrefix)ABCDE12345.x",
                       "$(AppIdentifierPrefix)$(TeamIdentifierPrefix)x", "$(DEVELOPMENT_TEAM).ABCDE12345.x",
                       "ABCDE12345..x", "ABCDE12345.ABCDE12345.x"]
        let single = ["$(AppIdentifierPrefix)com.example.x", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)",
                      "ABCDE12345.com.example", "group.com.example", "", "$(AppIdentifierPrefix)"]
        for group in doubled { XCTAssertNotNil(DoublePrefixRule.problem(group), group) }
        for group in single { XCTAssertNil(DoublePrefixRule.problem(group), group) }
    }
}

/// Correction examples: each rule with fixes shows at least one, and each is what the rule's
/// fixes make of its example's bytes.
final class RuleCorrectionTests: XCTestCase {
    func testEveryRuleWithFixesHasACorrectionExample() {
        for d in RuleRegistry.descriptions where d.canFix {
            XCTAssertNotNil(d.fixes, "\(d.id) offers fixes but does not say what they do")
            XCTAssertTrue(d.triggering.contains { $0.fixed != nil }, "\(d.id) offers fixes but has no correction example")
        }
        for d in RuleRegistry.descriptions where !d.canFix {
            XCTAssertTrue(d.triggering.allSatisfy { $0.fixed == nil }, "\(d.id) has a correction example but no fix")
        }
    }

    /// A wildcard listed first is the app's default group: removing it would move the default and
    /// strand what was saved without a group, so it gets no fix; listed later, or `*` alone (which
    /// the keychain refuses), it does.
    func testAWildcardThatIsTheDefaultGroupIsNotRemoved() {
        let rule = WildcardAccessGroupRule()
        let first = RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n\t<string>ABCDE12345.com.example.app</string>\n</array>")
        let firstFindings = RuleExampleRunner.run(rule, on: first)
        XCTAssertEqual(firstFindings.count, 1)
        XCTAssertNil(firstFindings.first?.fix)
        XCTAssertNil(RuleExampleRunner.corrected(rule, on: first))
        let later = RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.app</string>\n\t<string>ABCDE12345.*</string>\n</array>")
        XCTAssertEqual(RuleExampleRunner.run(rule, on: later).first?.fix?.applicability, .unsafe)
        let star = RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>*</string>\n</array>")
        XCTAssertEqual(RuleExampleRunner.run(rule, on: star).first?.fix?.applicability, .unsafe)
    }

    func testCorrectionExamplesAreWhatTheFixesMake() {
        for rule in RuleRegistry.all {
            let d = type(of: rule).description
            for ex in d.triggering {
                let got = RuleExampleRunner.corrected(rule, on: ex)
                if let fixed = ex.fixed {
                    let want = RuleExampleRunner.prepare(RuleExample(fixed)).text
                    XCTAssertEqual(got, want, "\(d.id): the example at line \(ex.sourceLine) fixes to another file")
                } else if let got, d.canFix {
                    // An example without a correction shown still fixes to a file that parses.
                    XCTAssertNoThrow(try PropertyListReader.parse(Array(got.utf8)), "\(d.id) line \(ex.sourceLine)")
                }
            }
            // No example that is not reported offers a fix.
            for ex in d.nonTriggering {
                XCTAssertTrue(RuleExampleRunner.run(rule, on: ex).allSatisfy { $0.fix == nil }, "\(d.id) line \(ex.sourceLine)")
            }
        }
    }
}
