import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace

/// `.gitignore` in folder walks (gitignore(5)), and the wildmatch under it.
final class GitIgnoreTests: XCTestCase {
    func match(_ pattern: String, _ path: String) -> Bool {
        GitIgnore.wildmatch(Array(pattern.utf8), Array(path.utf8))
    }

    func testWildmatch() {
        XCTAssertTrue(match("*.xcent", "App.xcent"))
        XCTAssertFalse(match("*.xcent", "Build/App.xcent"), "* stops at /")
        XCTAssertTrue(match("Build/*.xcent", "Build/App.xcent"))
        XCTAssertTrue(match("**/Generated", "Generated"))
        XCTAssertTrue(match("**/Generated", "a/b/Generated"))
        XCTAssertFalse(match("**/Generated", "a/bGenerated"), "** is whole components")
        XCTAssertTrue(match("a/**/b", "a/b"))
        XCTAssertTrue(match("a/**/b", "a/x/y/b"))
        XCTAssertTrue(match("abc/**", "abc/x/y"))
        XCTAssertFalse(match("abc/**", "abc"))
        XCTAssertTrue(match("App?.entitlements", "App1.entitlements"))
        XCTAssertFalse(match("a?b", "a/b"))
        XCTAssertTrue(match("[Tt]ests", "Tests"))
        XCTAssertTrue(match("v[0-9].plist", "v7.plist"))
        XCTAssertFalse(match("v[!0-9].plist", "v7.plist"))
        XCTAssertTrue(match("v[!0-9].plist", "vx.plist"))
        XCTAssertTrue(match("\\*.txt", "*.txt"))
        XCTAssertFalse(match("\\*.txt", "a.txt"))
        XCTAssertTrue(match("a[b", "a[b"), "an unclosed class is a literal [")
    }

    func testParse() {
        let ps = GitIgnore.parse(Array("# comment\n\n/Build/\n!keep.entitlements\n\\#hash\nspaced  \nescaped\\ \r\nsub/dir\n".utf8), base: [])
        XCTAssertEqual(ps.map { String(decoding: $0.glob, as: UTF8.self) }, ["Build", "keep.entitlements", "#hash", "spaced", "escaped\\ ", "sub/dir"])
        XCTAssertEqual(ps.map(\.negated), [false, true, false, false, false, false])
        XCTAssertEqual(ps.map(\.directoryOnly), [true, false, false, false, false, false])
        XCTAssertEqual(ps.map(\.anchored), [true, false, false, false, false, true])
    }

    func testWalkSkipsIgnoredFilesAndFolders() throws {
        let fm = FileManager.default
        let top = fm.temporaryDirectory.appendingPathComponent("entitlint-gitignore-\(UUID().uuidString)")
        addTeardownBlock { try? fm.removeItem(at: top) }
        func write(_ text: String, _ path: String) throws {
            let url = top.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("", ".git/HEAD")
        try write("Generated/\n*.xcent\n!Keep.xcent\n/Root.entitlements\n", ".gitignore")
        try write("build-*.entitlements\n", "App/.gitignore")
        try write("Ignored.entitlements\n", ".git/info/exclude")
        for p in ["App/App.entitlements", "App/App.xcent", "App/Keep.xcent", "App/build-1.entitlements", "Generated/G.entitlements",
                  "App/Generated/G.entitlements", "Root.entitlements", "App/Root.entitlements", "Other/build-1.entitlements",
                  "App/Ignored.entitlements"] {
            try write("", p)
        }
        let all: (String) -> Bool = { _ in true }
        let found = Paths.walk(top.path, accept: all).map { String($0.dropFirst(top.path.count + 1)) }
        XCTAssertEqual(found, [".gitignore", "App/.gitignore", "App/App.entitlements", "App/Keep.xcent", "App/Root.entitlements",
                               "Other/build-1.entitlements"])

        // Walking below the work tree root still applies the root's .gitignore; no .git, no rules.
        XCTAssertEqual(Paths.walk(top.appendingPathComponent("App").path, accept: { $0.hasSuffix(".xcent") }).map(Paths.baseName), ["Keep.xcent"])
        try fm.removeItem(at: top.appendingPathComponent(".git"))
        XCTAssertEqual(Paths.walk(top.path, accept: all).count, 12, "outside a git work tree .gitignore means nothing")
    }
}
