import Foundation
import TestSupport
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace

/// Inputs kept by `Scripts/fuzz.sh yaml-config` in `Tests/Fuzz/Regressions/yaml-config/`: each
/// must give a configuration or a `ConfigError`, quickly, never crash.
final class ConfigFuzzRegressionTests: XCTestCase {
    func testYAMLConfigRegressionsParseOrThrow() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/yaml-config") {
            do {
                _ = try Configuration.parse(String(decoding: bytes, as: UTF8.self), path: name,
                                            knownRules: ["parse-error", "duplicate-key"])
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
        }
    }
}

/// Found by fuzzing: Yams reads nesting recursively, and `[[[[...` in `.entitlint.yml` crashed
/// the linter with a stack overflow. Deep nesting is now an error naming the line.
final class ConfigNestingTests: XCTestCase {
    func expectNestingError(_ text: String, line: Int? = nil, file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try Configuration.parse(text, path: "c.yml", knownRules: []), file: file, line: l) { error in
            guard let e = error as? Configuration.ConfigError else { return XCTFail("\(error)", file: file, line: l) }
            XCTAssertTrue(e.reason.contains("nested more than 100 levels"), e.reason, file: file, line: l)
            if let line { XCTAssertEqual(e.line, line, file: file, line: l) }
        }
    }

    func testDeepFlowSequencesAreAnErrorNotACrash() {
        expectNestingError(String(repeating: "[", count: 200_000), line: 1)
        expectNestingError("team: ABCDE12345\nexclude: " + String(repeating: "{a: ", count: 5_000), line: 2)
    }

    func testDeepBlockNestingIsAnErrorNotACrash() {
        expectNestingError(String(repeating: "- ", count: 50_000) + "x")
        var text = ""
        for depth in 0..<500 { text += String(repeating: " ", count: depth) + "k\(depth):\n" }
        expectNestingError(text, line: 101)
    }

    /// Every line break libyaml knows (yaml_private.h `IS_BREAK`): a pre-check that split lines
    /// at LF only took `"\r" + "- " x 100,000` for one blank line, and Yams then overflowed the stack.
    static let lineBreaks: [(name: String, text: String)] = [
        ("LF", "\n"), ("CR", "\r"), ("CRLF", "\r\n"), ("NEL", "\u{85}"), ("LS", "\u{2028}"), ("PS", "\u{2029}"),
    ]

    func testCompactSequencesAfterEveryLineBreakFormAreAnErrorNotACrash() {
        for (name, br) in Self.lineBreaks {
            expectNestingError(br + String(repeating: "- ", count: 100_000), line: 2)
            XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: "exclude:" + br + String(repeating: "- ", count: 100_000)), 2, name)
        }
    }

    func testIndentedBlocksSplitByEveryLineBreakFormAreAnErrorNotACrash() {
        for (name, br) in Self.lineBreaks {
            var text = ""
            for depth in 0..<300 { text += String(repeating: " ", count: depth) + "k\(depth):" + br }
            XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: text), 101, name)
            expectNestingError(text, line: 101)
        }
    }

    func testCompactNestingByEveryIndicatorIsCounted() {
        // `? - ? - ...` (explicit keys) and `- ? - ? ...` nest one level per indicator.
        expectNestingError(String(repeating: "? - ", count: 50_000) + "x")
        expectNestingError("\r" + String(repeating: "- ? ", count: 50_000) + "x", line: 2)
        // Single-pair mappings inside flow sequences: `[a: [a: ...` opens two levels per bracket.
        XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: String(repeating: "[a: ", count: 50)), nil)
        XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: String(repeating: "[a: ", count: 51)), 1)
        expectNestingError(String(repeating: "[a: ", count: 100_000), line: 1)
        expectNestingError("team: X\u{2028}exclude: " + String(repeating: "{a: ", count: 100_000), line: 2)
    }

    func testDepthIsCountedExactlyAtTheLimit() {
        // A hundred levels pass, a hundred and one do not, whichever way they are written.
        XCTAssertNil(YAMLNestingLimit.firstLineDeeperThan(100, in: String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
        XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: String(repeating: "[", count: 101) + String(repeating: "]", count: 101)), 1)
        XCTAssertNil(YAMLNestingLimit.firstLineDeeperThan(100, in: "\r" + String(repeating: "- ", count: 100) + "x"))
        XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: "\r" + String(repeating: "- ", count: 101) + "x"), 2)
    }

    func testTheDepthCheckReadsOneEventPerToken() {
        // Linear: 100,000 closed flow sequences side by side are 200,000 events and no depth.
        var events = 0
        let text = "[" + Array(repeating: "[]", count: 100_000).joined(separator: ",") + "]"
        XCTAssertNil(YAMLNestingLimit.firstLineDeeperThan(100, in: text, events: &events))
        XCTAssertLessThanOrEqual(events, 200_010)
        XCTAssertGreaterThanOrEqual(events, 200_002)
        // Past the limit it stops at once.
        events = 0
        XCTAssertEqual(YAMLNestingLimit.firstLineDeeperThan(100, in: String(repeating: "[", count: 1_000_000), events: &events), 1)
        XCTAssertLessThanOrEqual(events, 110)
    }

    func testTextLibyamlRejectsIsLeftToTheParserToReport() {
        XCTAssertThrowsError(try Configuration.parse("-\t" + String(repeating: "-\t", count: 100_000), path: "c.yml", knownRules: [])) { error in
            let reason = (error as? Configuration.ConfigError)?.reason ?? ""
            XCTAssertTrue(reason.hasPrefix("not valid YAML: scanner:"), reason)
        }
    }

    func testBracketsInQuotesAndCommentsDoNotCount() throws {
        let brackets = String(repeating: "[", count: 300)
        let text = """
        team: ABCDE12345   # \(brackets)
        exclude: ["\(brackets)", '\(brackets)', "a\\"\(brackets)"]
        variables:
          X: "it's \(brackets)"
        """
        let config = try Configuration.parse(text, path: "c.yml", knownRules: [])
        XCTAssertEqual(config.team, "ABCDE12345")
        XCTAssertEqual(config.variables["X"], "it's " + brackets)
    }

    func testRealConfigurationsAreFarBelowTheLimit() {
        XCTAssertNil(YAMLNestingLimit.firstLineDeeperThan(8, in: """
        team: ABCDE12345
        apps:
          - name: AppOne
            entitlements: AppOne/AppOne.entitlements
            bundle-id: com.example.AppOne
        rules: { comment-in-plist: off, duplicate-key: warning }
        exclude: ["Tests/**", "*.xcent"]
        """))
    }
}
