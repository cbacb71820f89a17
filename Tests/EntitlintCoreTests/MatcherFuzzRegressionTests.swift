import Foundation
import XCTest
@testable import EntitlintCore

/// The `glob` and `gitignore` fuzz harnesses. Inputs they kept (`Tests/Fuzz/Regressions/glob/`,
/// `.../gitignore/`) go through the matchers as the harnesses send them, never crashing; their
/// seeds must reach what the harnesses are for (wildcards that match, negation, anchoring, a
/// nested `.gitignore`).
final class MatcherFuzzRegressionTests: XCTestCase {
    static let fuzz = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // EntitlintCoreTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fuzz")

    static func files(_ folder: String) throws -> [(name: String, bytes: [UInt8])] {
        let dir = fuzz.appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
        return try names.map { ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }

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
        for (name, bytes) in try Self.files("Regressions/glob") {
            let r = Self.glob(bytes)
            if !r.pattern.contains(where: { $0 == "*" || $0 == "?" }), !r.pattern.hasSuffix("/"), !r.pattern.hasPrefix("./") {
                XCTAssertTrue(Glob(r.pattern).matches(r.pattern), "\(name): a pattern without wildcards matches itself")
            }
        }
    }

    func testGitIgnoreRegressionsAnswer() throws {
        for (name, bytes) in try Self.files("Regressions/gitignore") {
            XCTAssertFalse(try gitignore(bytes).isEmpty, name)
        }
    }

    func testGlobSeedsMatch() throws {
        let seeds = try Self.files("Seeds/glob")
        XCTAssertGreaterThanOrEqual(seeds.count, 5)
        for (name, bytes) in seeds {
            XCTAssertTrue(Self.glob(bytes).matches, "\(name): each seed's path matches its pattern")
        }
    }

    func testGitIgnoreSeedsReachNegationAnchoringAndTheNestedFile() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try Self.files("Seeds/gitignore").map { ($0.name, $0.bytes) })
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
