import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
@_spi(Testing) import PropertyList

/// Hostile patterns, limits and inputs whose cost must stay bounded: each generated here,
/// each asserting a count of work or a size, never a time.
final class BoundsTests: XCTestCase {
    // MARK: glob and gitignore patterns

    /// The most steps a match of a pattern against `n` characters may take (WildcardProgram).
    func stepBound(_ n: Int) -> Int { (2 * n + 2) * (n + 1) }

    /// `**/` 100,000 times: the recursive matcher overflowed the stack; collapsed, it is one token.
    func testLongDoubleStarChainInAnExcludeGlobIsLinear() {
        let path = "a/b/c/d/x"
        let glob = Glob(String(repeating: "**/", count: 100_000) + "x")
        var steps = 0
        XCTAssertTrue(glob.matches(path, steps: &steps))
        XCTAssertLessThanOrEqual(steps, stepBound(path.count))
        XCTAssertLessThanOrEqual(glob.program.tokens.count, 2)
        steps = 0
        XCTAssertFalse(glob.matches("a/b/c/d/y", steps: &steps))
        XCTAssertLessThanOrEqual(steps, stepBound(path.count))
    }

    /// `*a*a*a...b` against `aaaa...`: exponential for a backtracking matcher.
    func testStarChainInAnExcludeGlobIsPolynomialAndRefusedWhenLongerThanThePath() {
        let path = String(repeating: "a", count: 200)
        var steps = 0
        XCTAssertFalse(Glob(String(repeating: "*a", count: 100) + "b").matches(path, steps: &steps))
        XCTAssertLessThanOrEqual(steps, stepBound(path.count))
        // A pattern needing more characters than the path has: refused before any step.
        steps = 0
        XCTAssertFalse(Glob(String(repeating: "*a", count: 30_000)).matches(path, steps: &steps))
        XCTAssertEqual(steps, 0)
    }

    func testLongDoubleStarChainInAGitignoreIsLinear() {
        let pattern = Array((String(repeating: "**/", count: 100_000) + "x").utf8)
        let program = GitIgnore.compile(pattern)
        XCTAssertLessThanOrEqual(program.tokens.count, 2)
        var steps = 0
        XCTAssertTrue(program.matches(Array("a/b/c/x".utf8), steps: &steps))
        XCTAssertFalse(program.matches(Array("a/b/c/xy".utf8), steps: &steps))
        XCTAssertLessThanOrEqual(steps, 2 * stepBound(8))
        // And through a real .gitignore read by a walk.
        let lines = Array((String(repeating: "**/", count: 100_000) + "x\n" + String(repeating: "a*", count: 20_000) + "b\n").utf8)
        let patterns = GitIgnore.parse(lines, base: [])
        XCTAssertEqual(patterns.count, 2)
        XCTAssertTrue(patterns[0].program.matches(Array("q/x".utf8)))
        steps = 0
        XCTAssertFalse(patterns[1].program.matches(Array(String(repeating: "a", count: 300).utf8), steps: &steps))
        XCTAssertLessThanOrEqual(steps, stepBound(300))
    }

    /// Gitignore semantics kept: `**/` is whole components, classes, escapes, trailing `/**`.
    func testGitignoreMatcherKeepsWildmatchSemantics() {
        func m(_ p: String, _ s: String) -> Bool { GitIgnore.wildmatch(Array(p.utf8), Array(s.utf8)) }
        XCTAssertTrue(m("**/x", "x"))
        XCTAssertTrue(m("**/x", "a/b/x"))
        XCTAssertFalse(m("**/x", "ax"))
        XCTAssertTrue(m("a/**/b", "a/b"))
        XCTAssertTrue(m("a/**/b", "a/x/y/b"))
        XCTAssertTrue(m("a/**", "a/x/y"))
        XCTAssertFalse(m("a*", "ab/c"))
        XCTAssertTrue(m("[a-c]x", "bx"))
        XCTAssertFalse(m("[!a-c]x", "bx"))
        XCTAssertTrue(m("\\*x", "*x"))
        XCTAssertFalse(m("\\*x", "ax"))
        XCTAssertTrue(m("[ab", "[ab"))
        XCTAssertFalse(m("?", "/"))
        // A class of 300,000 ranges is read once, into a table.
        let big = "[" + String(repeating: "a-b", count: 100_000) + "]"
        XCTAssertTrue(m(big, "a"))
        XCTAssertFalse(m(big, "c"))
    }

    // MARK: configuration limits

    func testAConfigurationCannotRaiseALimitAboveItsCeiling() throws {
        let config = try Configuration.parse("limits: {max-depth: 100000, max-file-size: 1024, max-findings: 5000000}",
                                             path: ".entitlint.yml", knownRules: [])
        let (limits, notes) = RunLimits.clamped(config.limits, configPath: ".entitlint.yml")
        XCTAssertEqual(limits["max-depth"], 256)
        XCTAssertEqual(limits["max-file-size"], 1024, "lowering is allowed")
        XCTAssertEqual(limits["max-findings"], 100_000)
        XCTAssertEqual(notes.map(\.name).sorted(), ["max-depth", "max-findings"])
        XCTAssertTrue(notes.contains { $0.text.contains("limits.max-depth to 100000, above 256") && $0.text.contains("--max-depth 100000 on the command line") },
                      "\(notes)")
        // Every limit has a ceiling at or above its default.
        for name in RunLimits.names { XCTAssertNotNil(RunLimits.ceilings[name], name) }
        XCTAssertGreaterThanOrEqual(RunLimits.ceilings["max-depth"]!, PlistLimits.default.maxDepth)
        XCTAssertLessThanOrEqual(RunLimits.ceilings["max-depth"]!, PlistLimits.readerMaxDepth)
    }

    /// A billion-laughs value (nine levels of anchors, each naming the one before nine times: 9^9
    /// strings in a few hundred bytes) under each key of `.entitlint.yml`. Aliases are kept shared
    /// by the YAML reader, and the configuration is read by type, key by key: the first value of
    /// the wrong shape stops it, before anything walks the expansion (a walk would not end).
    func testYAMLAliasBombInAConfigurationIsRefusedAtItsFirstValue() throws {
        var value = "&a0 [" + Array(repeating: "\"lol\"", count: 9).joined(separator: ", ") + "]"
        for level in 1...8 { value = "&a\(level) [" + value + Array(repeating: ", *a\(level - 1)", count: 8).joined() + "]" }
        XCTAssertLessThan(value.utf8.count, 600)
        for key in ["exclude", "external-groups", "apps", "rules", "variables", "profiles", "limits", "team", "lock", "baseline", "fail-on",
                    "select", "ignore", "per-file-ignores"] {
            let text = "team: ABCDE12345\n\(key == "team" ? "lock" : key): \(value)\n"
            XCTAssertThrowsError(try Configuration.parse(text, path: ".entitlint.yml", knownRules: ["wildcard-access-group"]), key) { error in
                let e = error as? Configuration.ConfigError
                XCTAssertEqual(e?.line, 2, "\(key): \(error)")
                XCTAssertLessThan(e?.reason.utf8.count ?? .max, 300, "\(key): the message does not spell the expansion")
            }
        }
    }

    // MARK: findings per run

    func testFindingsPastTheLimitBecomeOneFindingWithTheWorstSeverity() {
        let findings = (0..<25).map { i in
            Finding(rule: "comment-in-plist", severity: i == 20 ? .error : .note, message: "m\(i)", path: String(format: "F%02d", i))
        }.sorted()
        let capped = FindingStage.capped(findings, at: 10)
        XCTAssertEqual(capped.count, 11)
        XCTAssertEqual(Array(capped.prefix(10)), Array(findings.prefix(10)))
        let notice = capped[10]
        XCTAssertEqual(notice.rule, "findings-truncated")
        XCTAssertEqual(notice.severity, .error, "an error among those left out keeps the run failing")
        XCTAssertEqual(notice.path, "F10")
        XCTAssertTrue(notice.message.hasPrefix("15 more findings are not shown"), notice.message)
        XCTAssertTrue(notice.message.contains("--max-findings N"), notice.message)
        XCTAssertEqual(FindingStage.capped(findings, at: 25), findings)
        // A second cut counts the first one's findings too.
        let again = FindingStage.capped(capped, at: 4, name: RunLimits.outputBytesName, earlier: (notice, 15))
        XCTAssertEqual(again.count, 5)
        XCTAssertTrue(again[4].message.hasPrefix("21 more findings"), again[4].message)
        XCTAssertEqual(again[4].rule, "output-truncated")
        XCTAssertEqual(again[4].severity, .error)
    }

    // MARK: XML comments

    /// 100,000 comments on one line: locating each by scanning back to the line's start cost
    /// quadratic time; each byte is now scanned back over once at most.
    func testHundredThousandCommentsOnOneLineAreLocatedInLinearWork() throws {
        let body = String(repeating: "<!-- c -->", count: 100_000)
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>" + body + "<key>a</key><true/></dict>\n</plist>\n"
        let bytes = Array(text.utf8)
        let doc = try PropertyListReader.parse(bytes)
        XCTAssertEqual(doc.comments.count, 100_000)
        XCTAssertEqual(doc.comments[0].location, SourceLocation(line: 3, column: 7))
        XCTAssertEqual(doc.comments[99_999].location, SourceLocation(line: 3, column: 7 + 10 * 99_999))
        XCTAssertLessThanOrEqual(XMLPlistReader.commentScanCost(bytes), bytes.count)
    }

    // MARK: file names

    func testFileNamesThatAreNotUTF8ComeBackAsTheirBytes() {
        for raw: [UInt8] in [[0x42, 0xFF, 0xFE], [0xC3, 0xA9], [0xF4, 0x8F, 0xBC, 0x80], [0xE2, 0x82], [0x61]] {
            let name = raw.withUnsafeBufferPointer { Paths.fileSystemName($0) }
            let back = Paths.withFileSystemPath(name) { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
            XCTAssertEqual(back, raw, name)
        }
        let shown = OutputText.escape([0x42, 0xFF, 0x0A].withUnsafeBufferPointer { Paths.fileSystemName($0) })
        XCTAssertEqual(shown, "B\\xff\\n")
    }
}
