import Foundation
import XCTest

/// The keychain groups code passes, end to end on the AppSuite example: a copy of it whose AppTwo
/// passes its shared group without the App ID prefix.
final class KeychainCodeCLITests: XCTestCase {
    func suite() throws -> URL {
        let dir = try CLI.temporaryDirectory(self).appendingPathComponent("AppSuite")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: dir)
        let file = dir.appendingPathComponent("AppTwo/AppTwoApp.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\"ABCDE12345.com.example.shared\""))
        try text.replacingOccurrences(of: "\"ABCDE12345.com.example.shared\"", with: "\"com.example.shared\"")
            .write(to: file, atomically: true, encoding: .utf8)
        return dir
    }

    /// `lint .` finds the unprefixed group in AppTwo's code, at the place that passes it, once for
    /// both configurations, naming where the constant comes from.
    func testAGroupWithoutItsPrefixIsAnErrorInTheCode() throws {
        let dir = try suite()
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout)
        let lines = r.stdout.split(separator: "\n").filter { $0.contains("[code-group-missing-prefix]") }
        XCTAssertEqual(lines.count, 1, r.stdout)
        XCTAssertTrue(lines[0].hasPrefix("AppTwo/AppTwoApp.swift:17:37: error: access group \"com.example.shared\" (kSecAttrAccessGroup; from SharedToken.group (AppTwo/AppTwoApp.swift:12)) lacks the App ID prefix: AppTwo (Debug, Release) is granted \"ABCDE12345.com.example.shared\""), String(lines[0]))
        XCTAssertFalse(r.stdout.contains("AppOne/AppOneApp.swift"), "AppOne's code is right: \(r.stdout)")
    }

    /// A group passed in code as an expression past the scanner's size bound (a real group
    /// followed by 5,000 empty strings and a suffix) is not cut short and checked as the real
    /// group: it is unknown, no finding rests on it, and the run says so once, naming the place.
    func testAGroupPastTheScannersBoundIsNotCheckedAndTheRunSaysSo() throws {
        let dir = try suite()
        let file = dir.appendingPathComponent("AppTwo/AppTwoApp.swift")
        var text = try String(contentsOf: file, encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        text += "\nfunc longGroup() {\n    _ = [kSecAttrAccessGroup as String: \"ABCDE12345.com.example.shared\""
            + String(repeating: " + \"\"", count: 5_000) + " + \".other\"]\n}\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertFalse(r.stdout.contains("AppTwo/AppTwoApp.swift:\(line + 1)"), r.stdout)
        let notices = r.stderr.split(separator: "\n").filter { $0.contains("entitlint: notice: an access group passed in code is not checked") }
        XCTAssertEqual(notices.count, 1, r.stderr)
        XCTAssertTrue(notices.first?.hasSuffix("an expression longer than 4096 tokens, so it was left unresolved rather than guessed (named at AppTwo/AppTwoApp.swift:\(line + 1))") == true, r.stderr)
        let json = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertTrue(json.stdout.contains("\"line\" : \(line + 1)"), json.stdout)
        XCTAssertTrue(json.stdout.contains("an access group passed in code is not checked"), json.stdout)
    }

    /// A hook run names changed files: a source file brings in the targets that compile it, and
    /// only their code is read.
    func testANamedSourceFileSelectsTheTargetsThatCompileIt() throws {
        let dir = try suite()
        let two = try CLI.run(["lint", "AppTwo/AppTwoApp.swift"], in: dir)
        XCTAssertEqual(two.status, 1, two.stdout)
        XCTAssertTrue(two.stdout.contains("AppTwo/AppTwoApp.swift:17:37: error: access group \"com.example.shared\""), two.stdout)
        let one = try CLI.run(["lint", "AppOne/AppOneApp.swift"], in: dir)
        XCTAssertEqual(one.status, 0, one.stdout)
        XCTAssertFalse(one.stdout.contains("code-group"), one.stdout)
    }

    /// The report lists, per unit, the groups its code names with file and line, and says when one
    /// is not granted; the matrix marks who names a group.
    func testTheReportShowsTheCodeSide() throws {
        let dir = try suite()
        let r = try CLI.run(["report"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("com.example.shared (NOT GRANTED)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("AppTwo/AppTwoApp.swift:17 (kSecAttrAccessGroup)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  ABCDE12345.com.example.shared                  x+ x+ x  x  x  x"), r.stdout)
    }

    /// The DOT report draws the code side: a dashed `code` edge from each unit to each group its
    /// code names, red and `not granted` where the unit lacks it, to a node of its own when no
    /// unit's list holds the group; values from code are escaped and quoted like any other.
    func testTheDotReportDrawsTheCodeSide() throws {
        let dir = try suite()
        let one = dir.appendingPathComponent("AppOne/AppOneApp.swift")
        let text = try String(contentsOf: one, encoding: .utf8)
        XCTAssertTrue(text.contains("\"ABCDE12345.com.example.shared\""))
        try text.replacingOccurrences(of: "\"ABCDE12345.com.example.shared\"", with: #""ABCDE12345.com.\"q\u{1B}[31m""#)
            .write(to: one, atomically: true, encoding: .utf8)
        let r = try CLI.run(["report", "--format", "dot"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        for config in ["Debug", "Release"] {
            XCTAssertTrue(r.stdout.contains(##"  "unit:AppTwo (\##(config))" -> "code:com.example.shared" [style=dashed, color="#de350b", label="code, not granted"];"##), r.stdout)
            XCTAssertTrue(r.stdout.contains(##"  "unit:AppOne (\##(config))" -> "code:ABCDE12345.com.\"q\\u{1b}[31m" [style=dashed, color="#de350b", label="code, not granted"];"##), r.stdout)
        }
        XCTAssertEqual(r.stdout.components(separatedBy: ##"  "code:com.example.shared" [shape=ellipse, style=dashed, color="#de350b", label="com.example.shared"];"##).count, 2, "declared once")
        XCTAssertFalse(r.stdout.contains("\u{1B}"), "no raw escape character")
        // A granted group: a plain dashed edge to the list's node (the unmodified example).
        let plain = try CLI.run(["report", "--format", "dot"], in: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"))
        XCTAssertTrue(plain.stdout.contains(##"  "unit:AppTwo (Release)" -> "keychain:ABCDE12345.com.example.shared" [style=dashed, label="code"];"##), plain.stdout)
    }
}
