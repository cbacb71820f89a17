import XCTest
@testable import PropertyList

final class OpenStepPlistReaderTests: XCTestCase {
    func parse(_ s: String, limits: PlistLimits = .default) throws -> PlistDocument {
        try OpenStepPlistReader.parse(Array(s.utf8), limits: limits)
    }

    func expectError(_ s: String, _ code: PlistError.Code, line: Int? = nil, reason: String? = nil, limits: PlistLimits = .default,
                     file: StaticString = #filePath, _ l: UInt = #line) {
        expectError(Array(s.utf8), code, line: line, reason: reason, limits: limits, file: file, l)
    }

    func expectError(_ bytes: [UInt8], _ code: PlistError.Code, line: Int? = nil, reason: String? = nil, limits: PlistLimits = .default,
                     file: StaticString = #filePath, _ l: UInt = #line) {
        do {
            let doc = try OpenStepPlistReader.parse(bytes, limits: limits)
            XCTFail("expected \(code), parsed \(doc.root.value)", file: file, line: l)
        } catch {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: l)
            if let line { XCTAssertEqual(error.location.line, line, "\(error)", file: file, line: l) }
            if let reason { XCTAssertTrue(error.reason.contains(reason), "\(error.reason)", file: file, line: l) }
        }
    }

    static let project = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 56;
    \tobjects = {

    /* Begin PBXNativeTarget section */
    \t\t1A2B3C4D5E6F708192A3B4C5 /* AppOne */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = 1A2B3C4D5E6F708192A3B4C6 /* Build configuration list for PBXNativeTarget "AppOne" */;
    \t\t\tname = "App One";
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    /* End PBXNativeTarget section */
    \t};
    \trootObject = 1A2B3C4D5E6F708192A3B4C7 /* Project object */;
    }
    """

    func testTypicalProjectWithLocations() throws {
        let doc = try parse(Self.project)
        XCTAssertEqual(doc.format, .openStep)
        let root = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(doc.root.location, SourceLocation(line: 2, column: 1))
        XCTAssertEqual(root["archiveVersion"]?.string, "1")
        XCTAssertEqual(root["classes"]?.dict?.isEmpty, true)
        let target = try XCTUnwrap(root["objects"]?.dict?["1A2B3C4D5E6F708192A3B4C5"]?.dict)
        XCTAssertEqual(target["name"]?.string, "App One")
        XCTAssertEqual(target["productType"]?.string, "com.apple.product-type.application")
        XCTAssertEqual(target.entry("name")?.keyLocation, SourceLocation(line: 13, column: 4))
        XCTAssertEqual(target["name"]?.location, SourceLocation(line: 13, column: 11))
        XCTAssertEqual(root["objects"]?.dict?.entry("1A2B3C4D5E6F708192A3B4C5")?.keyLocation, SourceLocation(line: 10, column: 3))
        XCTAssertEqual(root["rootObject"]?.string, "1A2B3C4D5E6F708192A3B4C7")
    }

    func testQuotedStringsAndEscapes() throws {
        let doc = try parse(#"{ a = "tab\there"; b = 'single "quoted"'; c = "\U00e9\u20ac"; d = "\101\102"; e = "\"\\\n"; f = "\UD83D\UDE00"; g = "new\nline"; }"#)
        let d = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(d["a"]?.string, "tab\there")
        XCTAssertEqual(d["b"]?.string, "single \"quoted\"")
        XCTAssertEqual(d["c"]?.string, "éu20ac")   // only \U is an escape; \u stands for u
        XCTAssertEqual(d["d"]?.string, "AB")
        XCTAssertEqual(d["e"]?.string, "\"\\\n")
        XCTAssertEqual(d["f"]?.string, "😀")
        XCTAssertEqual(d["g"]?.string, "new\nline")
    }

    func testUnquotedStringStopsAtParenthesis() {
        expectError("{ path = $(SRCROOT)/App.entitlements; }", .invalidStructure, line: 1, reason: "missing ';'")
    }

    func testNumbersAndWordsAreStrings() throws {
        let d = try XCTUnwrap(parse("{ n = 42; yes = YES; k = a_b-c.d:e/f$g; }").root.dict)
        XCTAssertEqual(d["n"]?.string, "42")
        XCTAssertEqual(d["yes"]?.string, "YES")
        XCTAssertEqual(d["k"]?.string, "a_b-c.d:e/f$g")
    }

    func testArraysWithTrailingCommaAndEmptyContainers() throws {
        let d = try XCTUnwrap(parse("{ a = (x, \"y z\", ); b = (); c = {}; }").root.dict)
        XCTAssertEqual(d["a"]?.stringArray, ["x", "y z"])
        XCTAssertEqual(d["b"]?.array?.count, 0)
        XCTAssertEqual(d["c"]?.dict?.isEmpty, true)
    }

    func testDataWithEvenDigits() throws {
        let d = try XCTUnwrap(parse("{ d = <0fbd77 \n 1c2735ae>; e = <>; }").root.dict)
        XCTAssertEqual(d["d"]?.data, [0x0F, 0xBD, 0x77, 0x1C, 0x27, 0x35, 0xAE])
        XCTAssertEqual(d["e"]?.data, [])
    }

    func testCommentsEverywhere() throws {
        let d = try XCTUnwrap(parse("/* a */ { // line\n k /* in between */ = /* x */ v /* y */ ; // end\n } // after\n/* trailing").root.dict)
        XCTAssertEqual(d["k"]?.string, "v")
    }

    func testStringsFileShortcut() throws {
        let d = try XCTUnwrap(parse("{ key; other = x; }").root.dict)
        XCTAssertEqual(d["key"]?.string, "key")
        XCTAssertEqual(d["other"]?.string, "x")
    }

    func testDuplicateKeysKeptLastWins() throws {
        let d = try XCTUnwrap(parse("{ k = a;\n k = b; }").root.dict)
        XCTAssertEqual(d["k"]?.string, "b")
        XCTAssertEqual(d.shadowedEntries.map(\.value.string), ["a"])
    }

    func testCRLFAndCRLineCounting() throws {
        let d = try XCTUnwrap(parse("{\r\n a = x;\r b = \"two\r\nlines\";\n c = y; }").root.dict)
        XCTAssertEqual(d.entry("a")?.keyLocation.line, 2)
        XCTAssertEqual(d.entry("b")?.keyLocation.line, 3)
        XCTAssertEqual(d.entry("c")?.keyLocation.line, 5)
    }

    func testUTF8BOMAccepted() throws {
        let doc = try OpenStepPlistReader.parse([0xEF, 0xBB, 0xBF] + Array("{ a = b; }".utf8))
        XCTAssertEqual(doc.root.dict?["a"]?.string, "b")
        XCTAssertEqual(doc.root.location, SourceLocation(line: 1, column: 1))
    }

    func testNonASCIIUnquotedInsideQuotes() throws {
        XCTAssertEqual(try parse("{ name = \"Café Ünïcode\"; }").root.dict?["name"]?.string, "Café Ünïcode")
    }

    // MARK: - Malformed input: clear errors with lines

    func testUnterminatedQuotedStringReportsWhereItStarts() {
        expectError("{\n a = \"never closed;\n b = c;\n}", .invalidStructure, line: 2, reason: "unterminated quoted string")
    }

    func testMissingSemicolonReported() {
        expectError("{\n a = b\n c = d;\n}", .invalidStructure, line: 3, reason: "missing ';'")
    }

    func testMissingEqualsReported() {
        expectError("{ a b; }", .invalidStructure, line: 1, reason: "expected '='")
    }

    func testUnclosedDictionaryReportsItsStart() {
        expectError("{\n a = {\n b = c;\n", .invalidStructure, reason: "dictionary opened at line 2")
    }

    func testUnclosedArrayReportsItsStart() {
        expectError("{ a = (x, y\n", .invalidStructure, reason: "array opened at line 1")
    }

    func testMissingCommaInArray() {
        expectError("( a b )", .invalidStructure, line: 1, reason: "expected ',' or ')'")
    }

    func testLeadingCommaInArrayRejected() {
        expectError("( , a )", .invalidStructure, line: 1)
    }

    func testJunkAfterRootRejected() {
        expectError("{ a = b; }\n}", .invalidStructure, line: 2, reason: "after the end")
    }

    func testEmptyInputRejected() {
        expectError("", .empty)
        expectError("  // only a comment\n/* and another */", .empty)
    }

    func testOddHexDigitsInDataRejected() {
        expectError("{ d = <abc>; }", .invalidStructure, line: 1, reason: "odd number")
        expectError("{ d = <0fb d0>; }", .invalidStructure, line: 1, reason: "odd number")
    }

    func testNonHexInDataRejected() {
        expectError("{ d = <zz>; }", .invalidStructure, line: 1, reason: "in data")
    }

    func testUnterminatedDataRejected() {
        expectError("{ d = <00 11", .invalidStructure, reason: "unterminated data")
    }

    func testUnexpectedCharacterNamed() {
        expectError("{ a = @; }", .invalidStructure, line: 1, reason: "'@'")
    }

    // MARK: - Hostile input

    func testDeepNestingIsBounded() {
        let s = String(repeating: "(", count: 10_000)
        expectError(s, .tooDeep, reason: "deeper than 200")
    }

    func testDeepNestingWithAHugeLimitDoesNotExhaustTheStack() {
        // An explicit stack: parsing uses no recursion. Releasing a tree is recursive in Swift
        // (and so are the rules that walk it): whatever the limit, the reader stops at its own
        // bound of `readerMaxDepth` levels.
        func nested(_ depth: Int) -> String { String(repeating: "(", count: depth) + String(repeating: ")", count: depth) }
        let limits = PlistLimits(maxBytes: 16 << 20, maxDepth: 1_000_000, maxElements: 1_000_000)
        XCTAssertNoThrow(try parse(nested(PlistLimits.readerMaxDepth), limits: limits))
        expectError(nested(5_000), .tooDeep, reason: "deeper than \(PlistLimits.readerMaxDepth) levels (the most Entitlint reads, whatever --max-depth says)", limits: limits)
    }

    func testElementCountIsBounded() {
        let s = "(" + String(repeating: "a,", count: 2_000) + ")"
        expectError(s, .tooLarge, limits: PlistLimits(maxBytes: 1 << 20, maxDepth: 200, maxElements: 1_000))
    }

    func testFileSizeIsBounded() {
        expectError(Array(repeating: UInt8(ascii: " "), count: 2_000) + Array("{}".utf8), .tooLarge,
                    limits: PlistLimits(maxBytes: 1_000, maxDepth: 200, maxElements: 1_000))
    }

    func testInvalidUTF8InStringRejected() {
        expectError(Array("{ a = \"".utf8) + [0xC3, 0x28] + Array("\"; }".utf8), .invalidEncoding, line: 1)
    }

    func testUTF16Rejected() {
        expectError([0xFF, 0xFE] + Array("{}".utf8), .invalidEncoding)
    }

    func testNULByteOutsideStringsRejected() {
        expectError(Array("{ a = b;".utf8) + [0] + Array(" }".utf8), .invalidStructure, line: 1)
    }

    func testLoneSurrogateEscapeBecomesReplacementCharacter() throws {
        XCTAssertEqual(try parse(#"{ a = "\UD800x"; }"#).root.dict?["a"]?.string, "\u{FFFD}x")
    }

    func testOctalEscapeOverflowStaysInAByte() throws {
        XCTAssertEqual(try parse(#"{ a = "\777"; }"#).root.dict?["a"]?.string, "\u{FF}")
    }

    func testTruncationAtEveryByteNeverCrashes() {
        let bytes = Array(Self.project.utf8)
        for n in 0..<bytes.count {
            _ = try? OpenStepPlistReader.parse(Array(bytes[0..<n]))
        }
    }

    func testRandomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("{}()<>;=,\"'\\/*ab01 \n".utf8)
        for _ in 0..<2_000 {
            let n = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<n).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? OpenStepPlistReader.parse(bytes)
        }
    }

    func testManyKeysInOneDictionary() throws {
        var s = "{"
        for i in 0..<5_000 { s += " k\(i) = v\(i);" }
        s += " }"
        let d = try XCTUnwrap(parse(s).root.dict)
        XCTAssertEqual(d["k4999"]?.string, "v4999")
        XCTAssertEqual(d.count, 5_000)
    }
}
