import XCTest
@testable import EntitlintCore
import EntitlintRules
import PropertyList

/// Inline `entitlint:` directives: what each covers, what is reported about them, and their bounds.
final class SuppressionTests: XCTestCase {
    let path = "App.entitlements"

    func lint(_ body: String, overrides: [String: Configuration.RuleSetting] = [:], configuration: Configuration? = nil) -> [Finding] {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n"
        let linter = Linter(rules: RuleRegistry.all, severityOverrides: overrides)
        guard case .entitlements(let doc) = DocumentReader.parse(bytes: Array(text.utf8), path: path, limits: .default) else { return [] }
        let unit = linter.unit(document: doc, path: path)
        let context = UnitContext(unit: unit, lock: nil)
        let raw = RuleRegistry.all.flatMap { $0.check(context) }
        return FindingStage(linter).finish(raw, documents: [path: doc], configuration: configuration, cwd: "/repo")
    }

    func summary(_ findings: [Finding]) -> [String] { findings.map { "\($0.line) \($0.rule)" } }

    func testNextLineCoversTheKeyAndItsValue() {
        let found = lint("""
        <!-- entitlint:disable-next-line wildcard-access-group: vendor SDK -->
        <key>keychain-access-groups</key>
        <array>
        \t<string>*</string>
        \t<string>com.example.*</string>
        </array>
        <key>com.apple.security.application-groups</key>
        <array>
        \t<string>group.*</string>
        </array>
        """)
        XCTAssertEqual(summary(found), ["12 wildcard-access-group"], "only the wildcard outside the next element is left")
    }

    func testNextLineInsideAnArrayCoversOneItem() {
        let found = lint("""
        <key>keychain-access-groups</key>
        <array>
        \t<string>*</string>
        \t<!-- entitlint:disable-next-line wildcard-access-group -->
        \t<string>com.example.*</string>
        \t<string>org.example.*</string>
        </array>
        """)
        XCTAssertEqual(summary(found), ["6 wildcard-access-group", "9 wildcard-access-group"])
    }

    func testNextLineMeansAfterTheCommentsLastLine() {
        // On the line of an element, the element is not "next"; a comment over several lines
        // covers the element after its last line.
        let found = lint("""
        <key>keychain-access-groups</key>
        <array>
        \t<string>*</string> <!-- entitlint:disable-next-line wildcard-access-group -->
        \t<!-- entitlint:disable-next-line
        \t     duplicate-access-group: the two spellings stay until 2.0 -->
        \t<string>*</string>
        </array>
        """)
        XCTAssertEqual(summary(found), ["6 wildcard-access-group"], "line 9: the wildcard by the first, the duplicate by the second")
    }

    func testFileScopeSilencesOnlyTheRulesItNames() {
        let found = lint("""
        <!-- entitlint:disable-file wildcard-access-group, duplicate-key: generated file -->
        <key>keychain-access-groups</key>
        <array>
        \t<string>*</string>
        \t<string>*</string>
        </array>
        <key>get-task-allow</key><true/>
        <key>get-task-allow</key><false/>
        """)
        XCTAssertEqual(summary(found), ["8 duplicate-access-group"])
    }

    func testADirectiveIsNoCommentFindingButOtherCommentsAre() {
        let found = lint("""
        <!-- entitlint:disable-next-line wildcard-access-group -->
        <key>keychain-access-groups</key>
        <array><string>*</string></array>
        <!-- Keychain Sharing -->
        """)
        XCTAssertEqual(summary(found), ["7 comment-in-plist"])
    }

    func testUnusedDirectivesAreReportedOnlyWhereTheRuleCouldJudge() {
        let body = """
        <!-- entitlint:disable-next-line duplicate-access-group, group-missing-from-profile: reason -->
        <key>keychain-access-groups</key>
        <array><string>$(AppIdentifierPrefix)com.example.a</string></array>
        """
        let found = lint(body)
        XCTAssertEqual(summary(found), ["4 unused-suppression"])
        XCTAssertEqual(found[0].severity, .warning)
        XCTAssertTrue(found[0].message.contains("no duplicate-access-group finding on lines 5-6 (the next element)"), found[0].message)
        XCTAssertTrue(found[0].message.contains("remove that rule from it"), found[0].message)
        XCTAssertFalse(found[0].message.contains("group-missing-from-profile"), "needs a profile this run lacks: not judged")
        // A rule that does not run here (off, or ignored for the path) cannot be judged either.
        XCTAssertEqual(lint(body, overrides: ["duplicate-access-group": .off]), [])
        var config = Configuration()
        config.path = "/repo/.entitlint.yml"
        config.perFileIgnores = [.init(glob: Glob("*.entitlements"), rules: ["duplicate-access-group"])]
        XCTAssertEqual(lint(body, configuration: config), [])
        // Nor is anything said when unused-suppression is off, or silenced by name.
        XCTAssertEqual(lint(body, overrides: ["unused-suppression": .off]), [])
        XCTAssertEqual(lint("<!-- entitlint:disable-file unused-suppression -->\n" + body), [])
    }

    func testMistakesInDirectivesAreReportedWithSuggestions() {
        let found = lint("""
        <!-- entitlint:disable-nextline wildcard-access-group -->
        <!-- entitlint:disable-file wildcard-acess-group, all, parse-error -->
        <!-- entitlint:disable-file -->
        <key>a</key><string>b</string>
        """)
        XCTAssertEqual(summary(found), ["4 unused-suppression", "5 unused-suppression", "6 unused-suppression"])
        XCTAssertTrue(found[0].message.contains("is not a directive (did you mean 'disable-next-line'?)"), found[0].message)
        XCTAssertTrue(found[1].message.contains("unknown rule 'wildcard-acess-group' (did you mean 'wildcard-access-group'?)"), found[1].message)
        XCTAssertTrue(found[1].message.contains("names 'all', which is not accepted"), found[1].message)
        XCTAssertTrue(found[1].message.contains("names parse-error, which no directive suppresses"), found[1].message)
        XCTAssertTrue(found[2].message.contains("names no rule"), found[2].message)
    }

    func testParseErrorIsNeverSuppressed() throws {
        let doc = try PropertyListReader.parse(Array("<plist><dict><!-- entitlint:disable-file parse-error --></dict></plist>".utf8))
        let set = try XCTUnwrap(SuppressionSet(document: doc))
        XCTAssertNil(set.directive(suppressing: Finding(rule: "parse-error", severity: .error, message: "m", path: path, line: 1, column: 1)))
        XCTAssertNil(SuppressionSet(document: try PropertyListReader.parse(Array("<plist><dict><!-- entitlint --></dict></plist>".utf8))),
                     "a comment without `entitlint:` is no directive")
    }

    // MARK: hostile input

    func testDirectivesPerFileAreBounded() throws {
        // 10,000 directives: 100 are read, and one finding says the rest are not.
        let comments = String(repeating: "<!-- entitlint:disable-file wildcard-access-group -->\n", count: 10_000)
        let doc = try PropertyListReader.parse(Array("<plist><dict>\n\(comments)<key>a</key><string>*</string></dict></plist>".utf8))
        let set = try XCTUnwrap(SuppressionSet(document: doc))
        XCTAssertEqual(set.directives.count, SuppressionDirective.maxPerFile)
        XCTAssertEqual(set.dropped, 10_000 - SuppressionDirective.maxPerFile)
        let found = lint(comments)
        let notice = found.filter { $0.message.hasPrefix("more than 100 entitlint directives") }
        XCTAssertEqual(notice.map(\.line), [4 + SuppressionDirective.maxPerFile])
        XCTAssertEqual(found.count, 1 + SuppressionDirective.maxPerFile, "each directive read is unused; the notice for the rest")
    }

    func testRuleIdsPerDirectiveAreBoundedInNumberAndLength() throws {
        let many = (0..<100_000).map { "r\($0)" }.joined(separator: ",")
        let long = String(repeating: "x", count: 1 << 20)
        let doc = try PropertyListReader.parse(Array("<plist><dict><!-- entitlint:disable-file \(many) --><!-- entitlint:disable-file \(long) --></dict></plist>".utf8))
        let set = try XCTUnwrap(SuppressionSet(document: doc))
        XCTAssertEqual(set.directives[0].rules.count, SuppressionDirective.maxRules)
        XCTAssertTrue(set.directives[0].tooManyRules)
        XCTAssertEqual(set.directives[1].rules.map(\.count), [SuppressionDirective.maxRuleLength + 1])
        let found = lint("<!-- entitlint:disable-file \(many) -->\n<!-- entitlint:disable-file \(long) -->")
        XCTAssertEqual(found.count, 2)
        XCTAssertTrue(found[0].message.contains("names more than 32 rules"))
        for f in found { XCTAssertLessThan(f.message.utf8.count, 8_000, "messages stay short whatever the directive holds") }
    }
}
