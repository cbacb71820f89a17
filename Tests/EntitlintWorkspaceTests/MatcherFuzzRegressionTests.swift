import Foundation
import TestSupport
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace

/// The `glob` and `gitignore` fuzz harnesses. Inputs they kept (`Tests/Fuzz/Regressions/glob/`,
/// `.../gitignore/`) go through the matchers as the harnesses send them, never crashing; their
/// seeds must reach what the harnesses are for (wildcards that match, negation, anchoring, a
/// nested `.gitignore`).
final class MatcherFuzzRegressionTests: XCTestCase {
    /// The glob harness: the first line is the pattern, the rest the path.
    static func glob(_ bytes: [UInt8]) -> (pattern: String, path: String, matches: Bool) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return (text, text, Glob(text).matches(text)) }
        let pattern = String(text[..<newline]), path = String(text[text.index(after: newline)...])
        return (pattern, path, Glob(pattern).matches(path))
    }

    /// The gitignore harness: a work tree with `.git`; the input split at NUL bytes is the root
    /// `.gitignore`, the paths asked about (at most 8, and `sub/x`; else the lines of the
    /// `.gitignore`), `sub/.gitignore`.
    func gitignore(_ bytes: [UInt8]) throws -> [String: Bool] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-gitignore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        try Data(parts[0]).write(to: root.appendingPathComponent(".gitignore"))
        if parts.count > 2 { try Data(parts[2]).write(to: root.appendingPathComponent("sub/.gitignore")) }
        let asked = parts.count > 1 ? parts[1] : parts[0]
        var paths = asked.split(separator: UInt8(ascii: "\n")).prefix(8).map { String(decoding: $0, as: UTF8.self) }
        paths.append("sub/x")
        var out: [String: Bool] = [:]
        for p in paths where !p.isEmpty { out[p] = GitWorkTree.ignores(root.path + "/" + p) }
        return out
    }

    func testGlobRegressionsMatchOrNot() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/glob") {
            let r = Self.glob(bytes)
            if !r.pattern.contains(where: { $0 == "*" || $0 == "?" }), !r.pattern.hasSuffix("/"), !r.pattern.hasPrefix("./") {
                XCTAssertTrue(Glob(r.pattern).matches(r.pattern), "\(name): a pattern without wildcards matches itself")
            }
        }
    }

    /// Found while writing the glob harness (an input made by hand): 150 `**/` segments against
    /// a path 300 folders deep took seconds (a memoised search tried every split for every `**`).
    /// The compiled matcher takes at most (2 x path + 2) x (path + 1) steps, whatever the pattern.
    func testGlobWorkIsBoundedByThePath() throws {
        let pattern = Array(String(repeating: "**/", count: 150) + "x"), path = Array(String(repeating: "a/", count: 300) + "x")
        for (p, s, expected) in [(pattern, path, true), (pattern, Array(path.dropLast()) + ["b"], false),
                                 (pattern + ["*"], Array(path.dropLast()) + ["b"], false),
                                 (Array("Tests/**"), Array("App/" + String(repeating: "x/", count: 500)), false)] {
            var steps = 0
            XCTAssertEqual(Glob.compile(p).matches(s, steps: &steps), expected)
            XCTAssertLessThanOrEqual(steps, (2 * s.count + 2) * (s.count + 1))
        }
        let kept = try XCTUnwrap(try FuzzInputs.files("Regressions/glob").first { $0.name == "slow-150-double-star-segments" })
        XCTAssertFalse(Self.glob(kept.bytes).matches)
    }

    /// The table gives what the memoised search gave, on every pattern of up to five characters
    /// from `a`, `/`, `*`, `?` against every path of up to five from `a`, `b`, `/`.
    func testGlobTableAgreesWithTheSearch() {
        func search(_ p: [Character], _ s: [Character]) -> Bool {
            var memo = [Int: Bool]()
            func m(_ i: Int, _ j: Int) -> Bool {
                let key = i * (s.count + 1) + j
                if let v = memo[key] { return v }
                var r: Bool
                if i == p.count {
                    r = j == s.count
                } else if p[i] == "*" {
                    if i + 1 < p.count, p[i + 1] == "*" {
                        var ni = i + 2
                        if ni < p.count, p[ni] == "/" { ni += 1 }
                        r = (j...s.count).contains { m(ni, $0) }
                    } else {
                        r = m(i + 1, j) || (j < s.count && s[j] != "/" && m(i, j + 1))
                    }
                } else {
                    r = j < s.count && (p[i] == "?" ? s[j] != "/" : p[i] == s[j]) && m(i + 1, j + 1)
                }
                memo[key] = r
                return r
            }
            return m(0, 0)
        }
        func all(_ alphabet: [Character], upTo n: Int) -> [[Character]] {
            var out: [[Character]] = [[]], level: [[Character]] = [[]]
            for _ in 0..<n {
                level = level.flatMap { w in alphabet.map { w + [$0] } }
                out += level
            }
            return out
        }
        let paths = all(["a", "b", "/"], upTo: 5)
        var compared = 0
        for p in all(["a", "/", "*", "?"], upTo: 5) {
            for s in paths {
                XCTAssertEqual(Glob.compile(p).matches(s), search(p, s), "\(String(p)) ~ \(String(s))")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 1365 * 364)
    }

    /// Found while writing the gitignore harness (an input made by hand): `*a` 200 times against
    /// 800 `a`s took seconds in a backtracking `.gitignore` matcher (every `*` tried every split).
    /// The compiled matcher's steps are bounded by the path alone.
    func testWildmatchWorkIsBoundedByThePath() throws {
        let pattern = Array(String(repeating: "*a", count: 200).utf8) + [UInt8(ascii: "b")]
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 800)
        for (p, s, expected) in [(pattern, long, false), (pattern, long + [UInt8(ascii: "b")], true),
                                 (pattern + [UInt8(ascii: "*")], long + [UInt8(ascii: "b")], true),
                                 (Array("docs/a/b/c".utf8), Array(("docs/x" + String(repeating: "/y", count: 400)).utf8), false)] {
            var steps = 0
            XCTAssertEqual(GitIgnore.compile(p).matches(s, steps: &steps), expected)
            XCTAssertLessThanOrEqual(steps, (2 * s.count + 2) * (s.count + 1))
        }
        let kept = try XCTUnwrap(try FuzzInputs.files("Regressions/gitignore").first { $0.name == "slow-star-a-200-times" })
        XCTAssertEqual(try gitignore(kept.bytes)[String(repeating: "a", count: 800)], false)
    }

    /// The table gives what the memoised search gave, on every pattern of up to four characters
    /// from `a`, `/`, `*`, `?`, `[`, `]`, `!`, `\\` against every path of up to four from `a`, `b`, `/`.
    func testWildmatchTableAgreesWithTheSearch() {
        let slash = UInt8(ascii: "/")
        func search(_ p: [UInt8], _ s: [UInt8]) -> Bool {
            var memo: [Int: Bool] = [:]
            func m(_ i: Int, _ j: Int) -> Bool {
                let key = i * (s.count + 1) + j
                if let known = memo[key] { return known }
                var r = false
                if i == p.count {
                    r = j == s.count
                } else {
                    switch p[i] {
                    case UInt8(ascii: "*"):
                        let double = i + 1 < p.count && p[i + 1] == UInt8(ascii: "*")
                        if double && (i == 0 || p[i - 1] == slash) && (i + 2 == p.count || p[i + 2] == slash) {
                            r = i + 2 == p.count || m(i + 3, j) || (j..<s.count).contains { s[$0] == slash && m(i + 3, $0 + 1) }
                        } else {
                            var next = i + 1
                            while next < p.count && p[next] == UInt8(ascii: "*") { next += 1 }
                            var k = j
                            while true {
                                if m(next, k) { r = true; break }
                                if k == s.count || s[k] == slash { break }
                                k += 1
                            }
                        }
                    case UInt8(ascii: "?"):
                        r = j < s.count && s[j] != slash && m(i + 1, j + 1)
                    case UInt8(ascii: "["):
                        if let (set, next) = GitIgnore.parseClass(p, i) {
                            r = j < s.count && set[Int(s[j])] && s[j] != slash && m(next, j + 1)
                        } else {
                            r = j < s.count && s[j] == p[i] && m(i + 1, j + 1)
                        }
                    case UInt8(ascii: "\\") where i + 1 < p.count:
                        r = j < s.count && s[j] == p[i + 1] && m(i + 2, j + 1)
                    default:
                        r = j < s.count && s[j] == p[i] && m(i + 1, j + 1)
                    }
                }
                memo[key] = r
                return r
            }
            return m(0, 0)
        }
        func all(_ alphabet: String, upTo n: Int) -> [[UInt8]] {
            var out: [[UInt8]] = [[]], level: [[UInt8]] = [[]]
            for _ in 0..<n {
                level = level.flatMap { w in alphabet.utf8.map { w + [$0] } }
                out += level
            }
            return out
        }
        let paths = all("ab/", upTo: 4)
        var compared = 0
        for p in all("a/*?[]!\\", upTo: 4) {
            for s in paths {
                XCTAssertEqual(GitIgnore.wildmatch(p, s), search(p, s), "\(String(decoding: p, as: UTF8.self)) ~ \(String(decoding: s, as: UTF8.self))")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 4681 * 121)
        // Classes: ranges, negation, an escaped bound, a `]` first.
        XCTAssertTrue(GitIgnore.wildmatch(Array("[a-c]x".utf8), Array("bx".utf8)))
        XCTAssertFalse(GitIgnore.wildmatch(Array("[!a-c]x".utf8), Array("bx".utf8)))
        XCTAssertTrue(GitIgnore.wildmatch(Array("[]a]".utf8), Array("]".utf8)))
        XCTAssertTrue(GitIgnore.wildmatch(Array("[\\]-a]".utf8), Array("^".utf8)))
    }

    func testGitIgnoreRegressionsAnswer() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/gitignore") {
            XCTAssertFalse(try gitignore(bytes).isEmpty, name)
        }
    }

    func testGlobSeedsMatch() throws {
        let seeds = try FuzzInputs.files("Seeds/glob")
        XCTAssertGreaterThanOrEqual(seeds.count, 5)
        for (name, bytes) in seeds {
            XCTAssertTrue(Self.glob(bytes).matches, "\(name): each seed's path matches its pattern")
        }
    }

    func testGitIgnoreSeedsReachNegationAnchoringAndTheNestedFile() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try FuzzInputs.files("Seeds/gitignore").map { ($0.name, $0.bytes) })
        let answers = try gitignore(try XCTUnwrap(seeds["patterns-and-paths"]))
        XCTAssertEqual(answers["build/out.txt"], true, "a folder pattern")
        XCTAssertEqual(answers["keep.xcent"], false, "negated")
        XCTAssertEqual(answers["other.xcent"], true)
        XCTAssertEqual(answers["Local.xcconfig"], true, "anchored at the root")
        XCTAssertEqual(answers["sub/Local.xcconfig"], false, "anchored: not below")
        XCTAssertEqual(answers["docs/a/b/draft-1"], true, "/**/ inside")
        XCTAssertEqual(answers["#literal"], true, "an escaped #")
        XCTAssertEqual(answers["sub/x"], false)
        let nested = try gitignore(try XCTUnwrap(seeds["classes-and-nested"]))
        XCTAssertEqual(nested["b1.plist"], true, "a class")
        XCTAssertEqual(nested["y.tmp"], true, "a negated class")
        XCTAssertEqual(nested["sub/Other.entitlements"], true, "the nested .gitignore")
        XCTAssertEqual(nested["sub/App.entitlements"], false, "negated in the nested .gitignore")
        let lines = try gitignore(try XCTUnwrap(seeds["lines-as-paths"]))
        XCTAssertEqual(lines["*.xcconfig"], true)
        XCTAssertEqual(lines["!Shared.xcconfig"], true, "as a path, ! is part of the name, which ends in .xcconfig")
        XCTAssertEqual(lines["foo/**/bar"], true)
    }
}
