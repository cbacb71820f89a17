import XCTest
@testable import EntitlintCore
import EntitlintRules
import PropertyList

/// Directives in Swift, Objective-C, xcconfig and YAML files: which lines are directives, what
/// each covers, and what the finding stage does with them.
final class SourceSuppressionTests: XCTestCase {
    func set(_ text: String, _ path: String) throws -> SuppressionSet {
        let syntax = try XCTUnwrap(DirectiveSyntax(path: path), path)
        return try XCTUnwrap(SuppressionSet(bytes: Array(text.utf8), syntax: syntax), "no directive read in \(path)")
    }

    /// Each directive as "line command rules -> covered lines".
    func summary(_ s: SuppressionSet) -> [String] {
        zip(s.directives, s.covered).map { d, c in
            "\(d.location.line) \(d.command) \(d.rules.joined(separator: ",")) -> \(c.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "-")"
        }
    }

    func testKindsByName() {
        XCTAssertEqual(DirectiveSyntax(path: "A/B.swift"), .slashes(blockComments: true, multilineStrings: true))
        XCTAssertEqual(DirectiveSyntax(path: "K.mm"), .slashes(blockComments: true, multilineStrings: false))
        XCTAssertEqual(DirectiveSyntax(path: "K.h"), .slashes(blockComments: true, multilineStrings: false))
        XCTAssertEqual(DirectiveSyntax(path: "Config/Base.XCCONFIG"), .slashes(blockComments: false, multilineStrings: false))
        XCTAssertEqual(DirectiveSyntax(path: "project.yml"), .hash)
        XCTAssertEqual(DirectiveSyntax(path: ".entitlint.yaml"), .hash)
        XCTAssertNil(DirectiveSyntax(path: "A.xcodeproj/project.pbxproj"), "Xcode drops comments it did not write")
        XCTAssertNil(DirectiveSyntax(path: "App.entitlements"))
        XCTAssertNil(DirectiveSyntax(path: "swift"))
    }

    func testNextLineSkipsBlankLinesAndStackedDirectives() throws {
        let s = try set("""
        import Security
        // entitlint:disable-next-line code-group-not-entitled: vendor SDK

        \t// entitlint:disable-next-line code-group-prefix-missing
        let q = [kSecAttrAccessGroup: "x"]
        // an ordinary comment
        // entitlint:disable-next-line a
        // the line it covers
        let r = 1
        // entitlint:disable-file b, c: generated
        // entitlint:disable-next-line d
        """, "A.swift")
        XCTAssertEqual(summary(s), ["2 disable-next-line code-group-not-entitled -> 5-5", "4 disable-next-line code-group-prefix-missing -> 5-5",
                                    "7 disable-next-line a -> 8-8", "10 disable-file b,c -> -", "11 disable-next-line d -> -"])
        XCTAssertEqual(s.directives[1].location.column, 2, "after the tab")
    }

    func testOnlyACommentAloneOnItsLineIsADirective() throws {
        let s = try set(##"""
        let a = "// entitlint:disable-file code-group-not-entitled"
        let b = 1 // entitlint:disable-file code-group-not-entitled
        let c = """
            // entitlint:disable-file code-group-not-entitled: text of a string, not a comment
            """
        let d = #"""
        // entitlint:disable-file code-group-not-entitled
        """#
        // entitlint:disable-next-line code-group-not-entitled: a comment again
        let e = 2
        """##, "A.swift")
        XCTAssertEqual(summary(s), ["9 disable-next-line code-group-not-entitled -> 10-10"])
        XCTAssertNil(SuppressionSet(bytes: Array("let a = \"// entitlint:disable-file x\"\n".utf8), syntax: .slashes(blockComments: true, multilineStrings: true)))
    }

    func testBlockCommentsInSwiftAndObjectiveC() throws {
        let s = try set("""
        /* entitlint:disable-next-line code-group-not-entitled: one line */
        NSDictionary *q = @{(id)kSecAttrAccessGroup: @"x"};
        /* entitlint:disable-next-line code-default-group-mismatch:
           the reason goes on */
        SecItemAdd(q, NULL);
        /* entitlint:disable-file x */ int after = 1;
        /* an ordinary
           comment */
        """, "K.m")
        XCTAssertEqual(summary(s), ["1 disable-next-line code-group-not-entitled -> 2-2", "3 disable-next-line code-default-group-mismatch -> 5-5"])
        XCTAssertEqual(s.directives[1].endLine, 4)
        // An xcconfig has `//` comments only.
        let x = try set("/* entitlint:disable-file a */\n// entitlint:disable-next-line team-mismatch-across-targets\r\nDEVELOPMENT_TEAM = ABCDE12345\r\n", "Base.xcconfig")
        XCTAssertEqual(summary(x), ["2 disable-next-line team-mismatch-across-targets -> 3-3"])
    }

    func testYAMLHashComments() throws {
        let s = try set("""
        targets:
          App:
            entitlements:
              properties:
                com.apple.security.application-groups:
                  # entitlint:disable-next-line app-group-format: legacy name
                  - suite
                  // entitlint:disable-next-line x
        """, "project.yml")
        XCTAssertEqual(summary(s), ["6 disable-next-line app-group-format -> 7-7"])
        XCTAssertEqual(s.directives[0].location.column, 11)
    }

    func testDirectivesPerFileAreBounded() throws {
        let n = SuppressionDirective.maxPerFile + 3
        let text = (0..<n).map { _ in "// entitlint:disable-next-line a\nx\n" }.joined()
        let s = try set(text, "A.swift")
        XCTAssertEqual(s.directives.count, SuppressionDirective.maxPerFile)
        XCTAssertEqual(s.dropped, 3)
        XCTAssertEqual(s.firstDropped?.line, 2 * SuppressionDirective.maxPerFile + 1)
        // An unclosed block comment holds no directive, whatever follows.
        XCTAssertNil(SuppressionSet(bytes: Array("/* entitlint:disable-file a\nx\n".utf8), syntax: .slashes(blockComments: true, multilineStrings: false)))
    }

    func finish(_ findings: [Finding], files: [String: String], overrides: [String: Configuration.RuleSetting] = [:]) -> [Finding] {
        let linter = Linter(rules: RuleRegistry.all, severityOverrides: overrides)
        return FindingStage(linter).finish(findings, documents: [:], configuration: nil, cwd: "/repo",
                                           readSource: { files[$0].map { Array($0.utf8) } })
    }

    func testFindingsInSourcesAreSuppressedAndMistakesReported() {
        let swift = """
        // entitlint:disable-next-line code-group-not-entitled: the SDK's group
        let q = [kSecAttrAccessGroup: "x"]
        // entitlint:disable-next-line code-group-not-entiteld
        let r = [kSecAttrAccessGroup: "y"]
        // entitlint:disable-next-line wildcard-access-group
        let s = 1
        """
        let findings = [2, 4].map { Finding(rule: "code-group-not-entitled", severity: .error, message: "m", path: "App/A.swift", line: $0, column: 10) }
            + [Finding(rule: "team-mismatch-across-targets", severity: .warning, message: "m", path: "Base.xcconfig", line: 2, column: 0)]
        let found = finish(findings, files: ["/repo/App/A.swift": swift, "/repo/Base.xcconfig": "// entitlint:disable-file team-mismatch-across-targets\nDEVELOPMENT_TEAM = A\n"])
        XCTAssertEqual(found.map { "\($0.path):\($0.line) \($0.rule)" },
                       ["App/A.swift:3 unused-suppression", "App/A.swift:4 code-group-not-entitled", "App/A.swift:5 unused-suppression"])
        XCTAssertTrue(found[0].message.contains("unknown rule 'code-group-not-entiteld' (did you mean 'code-group-not-entitled'?)"), found[0].message)
        XCTAssertTrue(found[2].message.contains("no wildcard-access-group finding on line 6"), found[2].message)
        // Without a reader (an entry point with no files on disk), sources are not read.
        let linter = Linter(rules: RuleRegistry.all)
        XCTAssertEqual(FindingStage(linter).finish(findings, documents: [:], configuration: nil, cwd: "/repo").count, 3)
    }

    func testAFileIsReadOnlyForItsFindingsAndAToolFindingIsNeverSuppressed() {
        var asked: [String] = []
        let linter = Linter(rules: RuleRegistry.all)
        let findings = [Finding(rule: "parse-error", severity: .error, message: "m", path: "project.yml", line: 2, column: 1),
                        Finding(rule: "team-mismatch-across-targets", severity: .warning, message: "m", path: "A.xcodeproj/project.pbxproj", line: 9, column: 0)]
        let found = FindingStage(linter).finish(findings, documents: [:], configuration: nil, cwd: "/repo", readSource: { path in
            asked.append(path)
            return Array("# entitlint:disable-next-line parse-error\nname: [\n".utf8)
        })
        XCTAssertEqual(asked, ["/repo/project.yml"], "a pbxproj is no kind with directives, and no other file has findings")
        XCTAssertEqual(found.map(\.rule), ["team-mismatch-across-targets", "unused-suppression", "parse-error"])
        XCTAssertTrue(found[1].message.contains("names parse-error, which no directive suppresses"), found[0].message)
    }
}
