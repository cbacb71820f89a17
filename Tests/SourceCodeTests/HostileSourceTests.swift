import XCTest
import SourceCode

/// Hostile files, generated here: each must scan to the end and still find the site after the
/// hostile part (or say unknown), whatever the nesting.
final class HostileSourceTests: XCTestCase {
    private let site = "\nlet q = [kSecAttrAccessGroup as String: \"ABCDE12345.after\"]\n"

    func testHundredThousandNestedBracketsInSwift() {
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
            let file = String(repeating: open, count: 100_000) + String(repeating: close, count: 100_000) + site
            XCTAssertEqual(scan(file).groups.map(\.value), [.literal("ABCDE12345.after")], open)
            let unclosed = String(repeating: open, count: 100_000) + site
            XCTAssertEqual(scan(unclosed).groups.count, 1, open)
        }
    }

    func testHundredThousandNestedInterpolations() {
        let depth = 100_000
        let value = String(repeating: "\"\\(", count: depth) + "x" + String(repeating: ")\"", count: depth)
        let scanned = scan("let deep = \(value)" + site)
        XCTAssertEqual(scanned.groups.map(\.value), [.literal("ABCDE12345.after")])
        XCTAssertEqual(scanned.definitions.first?.path, ["deep"])
        // 200,000 tokens: past the size bound, not read at all.
        XCTAssertEqual(scanned.definitions.first?.value, .overLimit("an expression longer than 4096 tokens"))
        // Within the size bound, a few levels are read; deeper ones are unknown.
        let thousand = String(repeating: "\"\\(", count: 1000) + "x" + String(repeating: ")\"", count: 1000)
        XCTAssertEqual(scan("let deep = \(thousand)").definitions.first?.value, .overLimit("an expression nested too deeply"))
        let unterminated = scan(String(repeating: "\"\\(", count: depth))
        XCTAssertEqual(unterminated.groups.count, 0)
    }

    func testHundredThousandNestedBracketsInObjectiveC() {
        let file = String(repeating: "[", count: 100_000) + "\n" + String(repeating: "@{", count: 50_000)
            + "\nCFDictionarySetValue(d, kSecAttrAccessGroup, CFSTR(\"ABCDE12345.after\"));\n"
        XCTAssertEqual(scan(file, .objectiveC).groups.map(\.value), [.literal("ABCDE12345.after")])
    }

    func testNestedCommentsAndUnterminatedStringsAndComments() {
        let nested = String(repeating: "/*", count: 100_000) + String(repeating: "*/", count: 100_000) + site
        XCTAssertEqual(scan(nested).groups.count, 1)
        XCTAssertEqual(scan(String(repeating: "/*", count: 100_000) + site).groups.count, 0)
        XCTAssertEqual(scan("let a = \"unterminated" + site).groups.count, 1)
        XCTAssertEqual(scan("let a = \"\"\"\nnever closed" + site).groups.count, 0)
        // A single-line string, raw or not, ends at the end of its line.
        XCTAssertEqual(scan("let a = ####\"raw never closed" + site).groups.count, 1)
        XCTAssertEqual(scan(String(repeating: "#", count: 100_000) + site).groups.count, 1)
        XCTAssertEqual(scan("NSString *a = @\"unterminated" + site.replacingOccurrences(of: "let q", with: "id q"), .objectiveC).groups.count, 0)
        XCTAssertEqual(scan("/* never closed" + site, .objectiveC).groups.count, 0)
        XCTAssertEqual(scan("#define A \\\n\\\n" + String(repeating: "\\\n", count: 100_000), .objectiveC).definitions.count, 0)
    }

    func testInvalidUTF8() {
        var bytes = Array("let bad = \"".utf8) + [0xFF, 0xFE, 0xC3] + Array("\"".utf8)
        bytes += [0x0A, 0x80, 0xBF] + Array(site.utf8)
        let scanned = SourceScanner.scan(bytes, language: .swift)
        XCTAssertEqual(scanned.groups.map(\.value), [.literal("ABCDE12345.after")])
        XCTAssertEqual(scanned.definitions.first?.value, .literal("\u{FFFD}\u{FFFD}\u{FFFD}"))
        XCTAssertEqual(SourceScanner.scan(bytes, language: .objectiveC).groups.count, 0)
    }

    func testOneMegabyteLineAndManySitesOnIt() {
        let long = "let v = \"" + String(repeating: "a", count: 1 << 20) + "\"" + site
        let scanned = scan(long)
        XCTAssertEqual(scanned.groups.count, 1)
        XCTAssertEqual(scanned.definitions.first.map { if case .literal(let s) = $0.value { s.utf8.count } else { 0 } }, 1 << 20)
        // 20,000 keys in one literal: each value stops at its comma.
        let many = "let q = [" + String(repeating: "kSecAttrAccessGroup as String: \"g\", ", count: 20_000) + "]"
        XCTAssertEqual(scan(many).groups.count, 20_000)
        // A value that never ends is walked for 4,096 units at most, then not read: unknown at
        // that bound (its first 4,096 units alone would be a wrong value).
        let endless = "let q = [kSecAttrAccessGroup as String: a" + String(repeating: " + a", count: 100_000) + "]"
        let groups = scan(endless).groups
        XCTAssertEqual(groups.map(\.value), [.overLimit("an expression longer than 4096 tokens")])
    }
}
