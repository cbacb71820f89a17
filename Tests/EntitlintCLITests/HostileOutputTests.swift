import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// Strings from inputs reach the output escaped: no raw control character, and no line that
/// starts with `::` (a GitHub Actions workflow command) unless the `github` format wrote it. Each
/// test builds its hostile input itself and runs the built `entitlint`.
final class HostileOutputTests: XCTestCase {
    /// A value that tries to end its line, forge workflow commands (after LF and after CR),
    /// recolour the terminal, break the line in Unicode and reverse the text.
    static let hostileValue = "ABCDE12345.*\n::error file=x::forged\u{1B}[31m\r::warning::two\u{2028}x\u{202E}y\u{7}"

    /// A binary plist (which may hold any character) with the hostile value as an access group.
    static func hostileEntitlements() throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: ["keychain-access-groups": [hostileValue]], format: .binary, options: 0)
    }

    /// A folder with a hostile file whose name itself starts with `::`.
    func hostileFolder() throws -> (dir: URL, name: String) {
        let dir = try CLI.temporaryDirectory(self)
        let name = "::warning::named.entitlements"
        try Self.hostileEntitlements().write(to: dir.appendingPathComponent(name))
        return (dir, name)
    }

    /// Control characters other than the line feeds that end lines (and, with `allowTab`, tabs).
    func rawControls(_ s: String) -> [Unicode.Scalar] {
        s.unicodeScalars.filter { u in
            u != "\n" && (u.value < 0x20 || (0x7F...0x9F).contains(u.value) || [0x2028, 0x2029, 0x202E].contains(u.value))
        }
    }

    /// Lines starting with `::`, after splitting at LF and at CR (the GitHub runner splits at both).
    func commandLines(_ s: String) -> [Substring] {
        s.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).filter { $0.hasPrefix("::") }
    }

    func testTextOutputEscapesControlCharactersAndNeverStartsALineWithTwoColons() throws {
        let (dir, name) = try hostileFolder()
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(rawControls(r.stdout), [], r.stdout)
        XCTAssertEqual(commandLines(r.stdout), [], r.stdout)
        // The finding is there, on one line, with the value shown by escapes and the path kept usable.
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stdout)
        XCTAssertTrue(lines[0].hasPrefix("./" + name + ": error: "), r.stdout)
        XCTAssertTrue(lines[0].contains(#"ABCDE12345.*\n::error file=x::forged\u{1b}[31m\r::warning::two\u{2028}x\u{202e}y\u{7}"#), r.stdout)
        XCTAssertTrue(lines[0].hasSuffix("[wildcard-access-group]"), r.stdout)
        // The same with colour: escapes from the value never reach the terminal raw.
        let coloured = try CLI.run(["lint", ".", "--color", "always"], in: dir)
        XCTAssertEqual(coloured.stdout.unicodeScalars.filter { $0 == "\u{1B}" }.count, 6, "only Entitlint's own colour codes: \(coloured.stdout)")
    }

    func testGitHubFormatPrintsOnlyTheCommandsEntitlintMade() throws {
        let (dir, _) = try hostileFolder()
        let r = try CLI.run(["lint", ".", "--format", "github"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(rawControls(r.stdout), [], r.stdout)
        let commands = commandLines(r.stdout)
        XCTAssertEqual(commands.count, 1, "one finding, one command: \(r.stdout)")
        let command = try XCTUnwrap(commands.first)
        // Properties escape `:` and `,`; the message escapes `%`, CR and LF as the toolkit does.
        XCTAssertTrue(command.hasPrefix("::error file=%3A%3Awarning%3A%3Anamed.entitlements,title=entitlint%3A wildcard-access-group::"), String(command))
        XCTAssertTrue(command.contains(#"ABCDE12345.*%0A::error file=x::forged\u{1b}[31m%0D::warning::two\u{2028}x\u{202e}y\u{7}"#), String(command))
    }

    func testStructuredFormatsStayValidAndKeepTheValue() throws {
        let (dir, _) = try hostileFolder()
        for format in ["json", "sarif", "gitlab"] {
            let r = try CLI.run(["lint", ".", "--format", format], in: dir)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(commandLines(r.stdout), [], format)
            XCTAssertFalse(r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(format): control characters are JSON escapes")
            let parsed = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
            // The value reads back exactly from the document (SARIF message text, once its
            // escapes of `\\`, `[` and `]` are undone: section 3.11.6).
            var text = String(decoding: try JSONSerialization.data(withJSONObject: parsed), as: UTF8.self)
            if format == "sarif" { text = text.replacingOccurrences(of: "\\\\[", with: "[") }
            XCTAssertTrue(text.contains("forged\\u001b[31m") || text.contains("forged\u{1B}[31m"), "\(format): \(text.prefix(400))")
        }
        for format in ["junit", "checkstyle"] {
            let r = try CLI.run(["lint", ".", "--format", format], in: dir)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(commandLines(r.stdout), [], "\(format): \(r.stdout)")
            // XML 1.0 allows no C0 control but tab, LF and CR, even as a reference.
            XCTAssertFalse(r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, format)
            let parser = XMLParser(data: Data(r.stdout.utf8))
            XCTAssertTrue(parser.parse(), "\(format): \(parser.parserError.map(String.init(describing:)) ?? "")")
        }
    }

    func testStandardErrorEscapesConfigurationKeys() throws {
        let dir = try CLI.temporaryDirectory(self)
        try CLI.entitlements(["ABCDE12345.com.example.App"]).write(to: dir.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        // A double-quoted YAML key holding a newline, a forged command and an escape sequence.
        try "\"bad\\n::error file=x::forged\\e[31m\": 1\n".write(to: dir.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains(#"unknown key 'bad\n::error file=x::forged\u{1b}[31m'"#), r.stderr)
        XCTAssertEqual(rawControls(r.stderr), [], r.stderr)
        XCTAssertEqual(commandLines(r.stderr), [], r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }

    func testBaselineNoteEscapesItsEntries() throws {
        let dir = try CLI.temporaryDirectory(self)
        // A file name may hold a newline and an escape sequence too.
        let name = "evil\n::error file=x::forged\u{1B}[31m.entitlements"
        try Self.hostileEntitlements().write(to: dir.appendingPathComponent(name))
        let w = try CLI.run(["lint", ".", "--write-baseline", "baseline.json"], in: dir)
        XCTAssertEqual(w.status, 0, w.stderr)
        XCTAssertEqual(w.stdout, "wrote baseline.json: 1 finding recorded\n")
        // The finding is fixed: the baseline's entry matches nothing, and the note lists it.
        try CLI.entitlements(["ABCDE12345.com.example.App"]).write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", ".", "--baseline", "baseline.json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("1 entry of the baseline baseline.json matches no finding any more"), r.stderr)
        XCTAssertTrue(r.stderr.contains(#"evil\n::error file=x::forged\u{1b}[31m.entitlements"#), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, r.stderr)
        XCTAssertEqual(rawControls(r.stderr), [], r.stderr)
        XCTAssertEqual(commandLines(r.stderr), [], r.stderr)
    }

    func testArgumentsQuotedInErrorsAreEscaped() throws {
        let dir = try CLI.temporaryDirectory(self)
        let r = try CLI.run(["lint", "--format", "x\n::error::forged\u{1B}[2J"], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(#"unknown format 'x\n::error::forged\u{1b}[2J'"#), r.stderr)
        XCTAssertEqual(rawControls(r.stderr), [], r.stderr)
        XCTAssertEqual(commandLines(r.stderr), [], r.stderr)
    }

    func testAWriteErrorOnStandardOutputIsExitStatus2() throws {
        let (dir, _) = try hostileFolder()
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["lint", "."]
        p.currentDirectoryURL = dir
        p.standardOutput = full
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 2, e)
        XCTAssertTrue(e.contains("cannot write to standard output: No space left on device"), e)
    }

    func testAccessReportEscapesValuesInEveryHumanFormat() throws {
        let (dir, _) = try hostileFolder()
        for format in ["text", "markdown", "dot", "html"] {
            let r = try CLI.run(["report", ".", "--format", format], in: dir)
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
            XCTAssertEqual(rawControls(r.stdout).filter { $0 != "\t" }, [], "\(format): \(r.stdout)")
            XCTAssertEqual(commandLines(r.stdout), [], "\(format): \(r.stdout)")
            // Graphviz quoting doubles the backslash of the escape; the label shows it once.
            XCTAssertTrue(r.stdout.contains(format == "dot" ? #"forged\\u{1b}[31m"# : #"forged\u{1b}[31m"#), "\(format): \(r.stdout)")
        }
        let json = try CLI.run(["report", ".", "--format", "json"], in: dir)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)))
        XCTAssertTrue(json.stdout.contains(#"forged\u001b[31m"#), json.stdout)
    }

    func testInspectTextEscapesTheFileItShows() throws {
        let (dir, name) = try hostileFolder()
        let r = try CLI.run(["inspect", name], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(rawControls(r.stdout), [], r.stdout)
        XCTAssertEqual(commandLines(r.stdout), [], r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix(#"\u{3a}:warning::named.entitlements: entitlements"#), r.stdout)
        XCTAssertTrue(r.stdout.contains(#"- "ABCDE12345.*\n::error file=x::forged\u{1b}[31m"#), r.stdout)
    }
}
