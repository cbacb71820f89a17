import Foundation
import XCTest
import TestSupport

/// `lint --fix`, `--diff` and `--unsafe-fixes` as a user runs them: the text marks, the JSON and
/// SARIF edits, the diff, and the hook's `--fix --staged`.
final class FixCLITests: GitTestCase {
    static let bad = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>com.example.shared</string>\n\t\t<string>$(AppIdentifierPrefix)*</string>\n\t</array>\n</dict>\n</plist>\n"
    static let fixed = bad.replacingOccurrences(of: "<string>com.example", with: "<string>$(AppIdentifierPrefix)com.example")

    func testTextMarksFixableFindingsAndCountsThem() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.bad, "App.entitlements", in: dir)
        let r = try entitlint(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("App.entitlements:6:3: error: [*] keychain access group \"com.example.shared\" has no team prefix"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  = fix (safe): write \"$(AppIdentifierPrefix)com.example.shared\"\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("= fix (unsafe)"), "an unsafe fix is not suggested line by line")
        XCTAssertTrue(r.stdout.contains("7:3: error: keychain access group \"$(AppIdentifierPrefix)*\""), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("; 1 fixable with --fix\n"), r.stdout)
    }

    func testJSONAndSARIFCarryTheEditsByByteRange() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.bad, "App.entitlements", in: dir)
        let jsonText = try entitlint(["lint", ".", "--format", "json"], in: dir).stdout
        try SchemaValidator.validate(jsonText, format: "json")
        let json = try JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any]
        let finding = (json?["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "missing-team-prefix" }
        let edit = ((finding?["fix"] as? [String: Any])?["edits"] as? [[String: Any]])?.first
        XCTAssertEqual(edit?["start"] as? Int, Self.byteOffset(of: "com.example.shared"))
        XCTAssertEqual(edit?["end"] as? Int, Self.byteOffset(of: "com.example.shared") + "com.example.shared".utf8.count)
        XCTAssertEqual(edit?["replacement"] as? String, "$(AppIdentifierPrefix)com.example.shared")
        let sarif = try entitlint(["lint", ".", "--format", "sarif"], in: dir).stdout
        XCTAssertTrue(sarif.contains("\"byteOffset\" : \(Self.byteOffset(of: "com.example.shared"))"), sarif)
        XCTAssertTrue(sarif.contains("\"artifactChanges\""), sarif)
        try SchemaValidator.validate(sarif, format: "sarif")
    }

    static func byteOffset(of s: String) -> Int {
        let b = Array(bad.utf8), n = Array(s.utf8)
        return (0...(b.count - n.count)).first { Array(b[$0..<($0 + n.count)]) == n }!
    }

    func testDiffPrintsTheFixesAndWritesNothing() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.bad, "App.entitlements", in: dir)
        let r = try entitlint(["lint", "--diff", "."], in: dir)
        XCTAssertEqual(r.stdout, "--- a/App.entitlements\n+++ b/App.entitlements\n@@ -3,7 +3,7 @@\n <dict>\n \t<key>keychain-access-groups</key>\n \t<array>\n-\t\t<string>com.example.shared</string>\n+\t\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n \t\t<string>$(AppIdentifierPrefix)*</string>\n \t</array>\n </dict>\n")
        XCTAssertEqual(r.status, 1, "the wildcard's error is left")
        XCTAssertTrue(r.stderr.contains("--diff: 1 fix in 1 file (nothing written)"), r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("App.entitlements"), encoding: .utf8), Self.bad)
        let unsafe = try entitlint(["lint", "--diff", "--unsafe-fixes", "."], in: dir)
        XCTAssertTrue(unsafe.stdout.contains("-\t\t<string>$(AppIdentifierPrefix)*</string>\n"), unsafe.stdout)
        XCTAssertEqual(unsafe.status, 0)
        XCTAssertEqual(try entitlint(["lint", "--unsafe-fixes", "."], in: dir).status, 2, "--unsafe-fixes alone is a usage error")
    }

    func testFixStagedFixesTheWorkTreeAndStopsTheCommit() throws {
        let dir = try repository()
        try write(Self.bad.replacingOccurrences(of: "\t\t<string>$(AppIdentifierPrefix)*</string>\n", with: ""), "App.entitlements", in: dir)
        try git(["add", "App.entitlements"], in: dir)
        let r = try entitlint(["lint", "--fix", "--staged"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("fixed: App.entitlements:6: write \"$(AppIdentifierPrefix)com.example.shared\" [missing-team-prefix]"), r.stderr)
        XCTAssertTrue(r.stderr.contains("stage them"), r.stderr)
        let work = try String(contentsOf: dir.appendingPathComponent("App.entitlements"), encoding: .utf8)
        XCTAssertTrue(work.contains("<string>$(AppIdentifierPrefix)com.example.shared</string>"), work)
        XCTAssertTrue(try git(["show", ":App.entitlements"], in: dir).stdout.contains("<string>com.example.shared</string>"), "the index is left alone")
        try git(["add", "App.entitlements"], in: dir)
        let again = try entitlint(["lint", "--fix", "--staged"], in: dir)
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stderr.contains("nothing to fix"), again.stderr)
    }

    func testFixStagedLeavesAFileWhoseWorkTreeDiffers() throws {
        let dir = try repository()
        let staged = Self.bad.replacingOccurrences(of: "\t\t<string>$(AppIdentifierPrefix)*</string>\n", with: "")
        try write(staged, "App.entitlements", in: dir)
        try git(["add", "App.entitlements"], in: dir)
        let edited = staged.replacingOccurrences(of: "<dict>", with: "<dict>\n\t<!-- unstaged -->")
        try write(edited, "App.entitlements", in: dir)
        let r = try entitlint(["lint", "--fix", "--staged"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("differs from its staged version"), r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("App.entitlements"), encoding: .utf8), edited)
    }
}
