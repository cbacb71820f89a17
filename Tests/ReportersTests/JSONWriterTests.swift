import Foundation
import XCTest
import EntitlintCore
@testable import Reporters

/// The JSON report writes its text itself: it must be byte for byte what `JSONEncoder` writes for
/// the same document with the options the format promises (pretty, sorted keys, slashes as they
/// are), on every field, absent and present, and on every kind of character.
final class JSONWriterTests: XCTestCase {
    private func encoded(_ doc: JSONReporter.Document) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(doc), as: UTF8.self) + "\n"
    }

    private func document(_ report: Report) -> JSONReporter.Document {
        JSONReporter.Document(
            version: JSONReporter.version, tool: .init(name: "entitlint", version: EntitlintVersion.current),
            findings: report.findings.map(JSONReporter.item),
            notices: report.notices.map { .init(message: $0.message, path: $0.path, line: $0.line, column: $0.column) },
            summary: .init(files: report.files, errors: report.errors, warnings: report.warnings, notes: report.notes))
    }

    /// Every byte below 0x80 and a few beyond (two-, three- and four-byte UTF-8, U+2028, U+FEFF).
    private static let allCharacters: String = {
        var s = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        s += "é€😀\u{2028}\u{2029}\u{FEFF}\u{7F}/\\\"</script>"
        return s
    }()

    func testMatchesJSONEncoderOnEveryField() throws {
        var full = Finding(rule: "double-prefix", severity: .error, message: "a \"quoted\" \\ message\n" + Self.allCharacters,
                           path: "My App/A\tb.entitlements", line: 12, column: 7, unit: "App (Debug)", keyPath: "k[0]")
        full.units = ["Debug", "Release", Self.allCharacters]
        full.help = "help with / and \u{1}"
        full.notes = ["note one", "", Self.allCharacters]
        full.fix = .init(title: "write \"x\"", applicability: .unsafe, edits: [
            .init(path: "My App/A\tb.entitlements", range: 10..<20, replacement: "\u{0}new\r\n"),
            .init(path: "Other", range: 0..<0, replacement: ""),
        ])
        var noEdits = Finding(rule: "r", severity: .note, message: "m", path: "p", line: 3)
        noEdits.fix = .init(title: "t", applicability: .safe, edits: [])
        let bare = Finding(rule: "parse-error", severity: .warning, message: "", path: "P.mobileprovision")
        var report = Report(findings: [full, noEdits, bare], files: 3)
        report.notices = [Notice(message: "missing " + Self.allCharacters, path: "x/y", line: 4, column: 2), Notice(message: "m", path: "p")]
        let doc = document(report)
        XCTAssertEqual(JSONReporter.text(doc), try encoded(doc))
        XCTAssertEqual(JSONReporter().render(report), try encoded(doc))
    }

    func testMatchesJSONEncoderWhenEmpty() throws {
        let doc = document(Report(findings: [], files: 0))
        XCTAssertEqual(JSONReporter.text(doc), try encoded(doc))
    }

    func testMatchesJSONEncoderOnTheHostileFixture() throws {
        let doc = document(ReportFixtures.hostile)
        XCTAssertEqual(JSONReporter.text(doc), try encoded(doc))
    }
}
