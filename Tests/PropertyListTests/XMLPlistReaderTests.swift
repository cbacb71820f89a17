import XCTest
@testable import PropertyList

final class XMLPlistReaderTests: XCTestCase {
    func parse(_ s: String, limits: PlistLimits = .default) throws -> PlistDocument {
        try PropertyListReader.parse(Array(s.utf8), limits: limits)
    }

    func expectError(_ s: String, _ code: PlistError.Code, line: Int? = nil, file: StaticString = #filePath, _ l: UInt = #line) {
        expectError(Array(s.utf8), code, line: line, file: file, l)
    }

    func expectError(_ bytes: [UInt8], _ code: PlistError.Code, line: Int? = nil, file: StaticString = #filePath, _ l: UInt = #line) {
        do {
            let doc = try PropertyListReader.parse(bytes)
            XCTFail("expected \(code), parsed \(doc.root.value)", file: file, line: l)
        } catch {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: l)
            if let line { XCTAssertEqual(error.location.line, line, "\(error)", file: file, line: l) }
        }
    }

    static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

    """

    func testTypicalEntitlementsWithLocations() throws {
        let doc = try parse(Self.header + """
        <plist version="1.0">
        <dict>
        \t<key>keychain-access-groups</key>
        \t<array>
        \t\t<string>$(AppIdentifierPrefix)com.example.shared</string>
        \t</array>
        \t<key>get-task-allow</key>
        \t<true/>
        </dict>
        </plist>
        """)
        let d = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(d.keys, ["keychain-access-groups", "get-task-allow"])
        XCTAssertEqual(doc.root.location, SourceLocation(line: 4, column: 1))
        let groups = try XCTUnwrap(d["keychain-access-groups"]?.array)
        XCTAssertEqual(groups.first?.string, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(groups.first?.location, SourceLocation(line: 7, column: 3))
        XCTAssertEqual(d.entry("keychain-access-groups")?.keyLocation, SourceLocation(line: 5, column: 2))
        XCTAssertEqual(d["get-task-allow"]?.bool, true)
        XCTAssertEqual(doc.format, .xml)
    }

    func testEveryScalarType() throws {
        let doc = try parse("""
        <plist version="1.0"><dict>
        <key>s</key><string> A.b </string>
        <key>e</key><string/>
        <key>i</key><integer>-42</integer>
        <key>h</key><integer>0x1F</integer>
        <key>big</key><integer>18446744073709551615</integer>
        <key>r</key><real>3.25</real>
        <key>d</key><date>2024-02-29T12:00:00Z</date>
        <key>b</key><data>
          SGVs
          bG8=
        </data>
        <key>t</key><true/>
        <key>f</key><false></false>
        <key>ent</key><string>&lt;&amp;&#65;&#x42;&quot;&apos;&gt;</string>
        <key>cdata</key><string><![CDATA[<x>]]></string>
        </dict></plist>
        """)
        let d = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(d["s"]?.string, " A.b ")
        XCTAssertEqual(d["e"]?.string, "")
        XCTAssertEqual(d["i"]?.integer, .signed(-42))
        XCTAssertEqual(d["h"]?.integer, .signed(31))
        XCTAssertEqual(d["big"]?.integer, .unsigned(UInt64.max))
        XCTAssertEqual(d["r"]?.value, .real(3.25))
        XCTAssertEqual(d["d"]?.date, PlistDate(year: 2024, month: 2, day: 29, hour: 12, minute: 0, second: 0))
        XCTAssertEqual(d["b"]?.data, Array("Hello".utf8))
        XCTAssertEqual(d["t"]?.bool, true)
        XCTAssertEqual(d["f"]?.bool, false)
        XCTAssertEqual(d["ent"]?.string, "<&AB\"'>")
        XCTAssertEqual(d["cdata"]?.string, "<x>")
    }

    func testDuplicateKeysLastWinsEarlierKept() throws {
        let doc = try parse("<plist><dict>\n<key>a</key><string>1</string>\n<key>a</key><string>2</string>\n</dict></plist>")
        let d = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(d["a"]?.string, "2")
        XCTAssertEqual(d.count, 1)
        XCTAssertEqual(d.shadowedEntries.map(\.keyLocation.line), [2])
    }

    func testBareDictRootAndEmptyContainers() throws {
        let doc = try parse("<dict><key>a</key><array/><key>b</key><dict/></dict>")
        XCTAssertEqual(doc.root.dict?["a"]?.array, [])
        XCTAssertEqual(doc.root.dict?["b"]?.dict?.isEmpty, true)
    }

    func testCommentsAreRecorded() throws {
        let doc = try parse("<plist>\n<!-- hello -->\n<dict/></plist>")
        XCTAssertEqual(doc.comments.map(\.text), [" hello "])
        XCTAssertEqual(doc.comments.first?.location.line, 2)
    }

    func testBOMAndCRLFAndOldDoctype() throws {
        let s = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\r\n<plist version=\"1.0\">\r\n<dict>\r\n<key>k</key>\r\n<string>v</string>\r\n</dict>\r\n</plist>"
        let doc = try parse(s)
        XCTAssertEqual(doc.root.dict?["k"]?.string, "v")
        XCTAssertEqual(doc.root.dict?["k"]?.location.line, 6)
    }

    func testUTF16WithBOM() throws {
        let s = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string>é</string></plist>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in s.utf16 { bytes.append(UInt8(u & 0xFF)); bytes.append(UInt8(u >> 8)) }
        let doc = try PropertyListReader.parse(bytes)
        XCTAssertEqual(doc.root.string, "é")
    }

    func testUnknownElementRejected() {
        expectError("<plist>\n<dict><key>a</key><foo/></dict></plist>", .invalidStructure, line: 2)
    }

    func testKeyWithoutValueRejected() {
        expectError("<plist><dict><key>a</key></dict></plist>", .invalidStructure)
        expectError("<plist><dict><key>a</key><key>b</key><true/></dict></plist>", .invalidStructure)
        expectError("<plist><dict><string>a</string></dict></plist>", .invalidStructure)
    }

    func testTwoValuesInPlistRejected() {
        expectError("<plist><true/><false/></plist>", .invalidStructure)
        expectError("<plist></plist>", .invalidStructure)
    }

    func testTextBetweenElementsRejected() {
        expectError("<plist><dict>junk<key>a</key><true/></dict></plist>", .invalidStructure)
    }

    func testCommentInsideStringRejected() {
        expectError("<plist><string>a<!-- x -->b</string></plist>", .invalidStructure)
    }

    func testElementInsideStringRejected() {
        expectError("<plist><string>a<true/></string></plist>", .invalidStructure)
    }

    func testStrictDates() {
        expectError("<plist><date>2024-02-30T00:00:00Z</date></plist>", .invalidDate)
        expectError("<plist><date>2024-02-01 00:00:00</date></plist>", .invalidDate)
        expectError("<plist><date>2024-02-01T00:00:00+01:00</date></plist>", .invalidDate)
    }

    func testIntegers() {
        expectError("<plist><integer>12a</integer></plist>", .invalidInteger)
        expectError("<plist><integer></integer></plist>", .invalidInteger)
        expectError("<plist><integer>18446744073709551616</integer></plist>", .invalidInteger)
        expectError("<plist><integer>-9223372036854775809</integer></plist>", .invalidInteger)
        XCTAssertEqual(try parse("<plist><integer>-9223372036854775808</integer></plist>").root.integer, .signed(Int64.min))
    }

    func testMalformedXMLHasLine() {
        expectError("<plist>\n<dict>\n<key>a</key>\n<string>x</strin>\n</dict></plist>", .malformedXML, line: 4)
    }

    func testEmptyInput() {
        expectError("", .empty)
    }

    // MARK: hostile input, each named for the attack

    func testInternalSubsetEntityRejected() {
        expectError("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY x \"boom\"> ]>\n<plist><string>&x;</string></plist>", .forbiddenDTD)
    }

    func testExternalFileEntityNotExpanded() {
        expectError("<!DOCTYPE plist [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]><plist><string>&xxe;</string></plist>", .forbiddenDTD)
    }

    func testExternalHTTPEntityNotFetched() {
        expectError("<!DOCTYPE plist [ <!ENTITY xxe SYSTEM \"http://127.0.0.1:9/x\"> ]><plist><string>&xxe;</string></plist>", .forbiddenDTD)
    }

    func testBillionLaughsRejected() {
        var s = "<!DOCTYPE plist [ <!ENTITY a0 \"lol\">"
        for i in 1...10 { s += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">" }
        s += "]><plist><string>&a10;</string></plist>"
        expectError(s, .forbiddenDTD)
    }

    func testUndeclaredEntityWithExternalDTDRejected() {
        expectError(Self.header + "<plist><string>&nbsp;</string></plist>", .forbiddenDTD)
    }

    func testUndeclaredEntityWithoutDTDRejected() {
        expectError("<plist><string>&foo;</string></plist>", .forbiddenDTD)
    }

    func testDeepNestingIsBounded() {
        let s = "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"
        expectError(s, .tooDeep)
    }

    func testElementCountIsBounded() {
        let s = "<plist><array>" + String(repeating: "<true/>", count: 101) + "</array></plist>"
        XCTAssertThrowsError(try parse(s, limits: PlistLimits(maxElements: 100))) { e in
            XCTAssertEqual((e as? PlistError)?.code, .tooLarge)
        }
    }

    func testFileSizeIsBounded() {
        XCTAssertThrowsError(try parse("<plist><string>" + String(repeating: "x", count: 2000) + "</string></plist>", limits: PlistLimits(maxBytes: 1000))) { e in
            XCTAssertEqual((e as? PlistError)?.code, .tooLarge)
        }
    }

    func testInvalidUTF8Rejected() {
        var bytes = Array("<plist><string>".utf8)
        bytes += [0xC3, 0x28, 0xFF]
        bytes += Array("</string></plist>".utf8)
        do {
            _ = try PropertyListReader.parse(bytes)
            XCTFail("accepted invalid UTF-8")
        } catch {
            XCTAssertTrue([.invalidEncoding, .malformedXML].contains(error.code), "\(error)")
        }
    }

    func testNULByteRejected() {
        var bytes = Array("<plist><string>a".utf8)
        bytes.append(0)
        bytes += Array("b</string></plist>".utf8)
        XCTAssertThrowsError(try PropertyListReader.parse(bytes))
    }

    func testTruncationAtEveryByteNeverCrashes() {
        let s = Array((Self.header + "<plist><dict><key>a</key><array><string>x</string><integer>1</integer></array></dict></plist>").utf8)
        for n in 0..<s.count {
            XCTAssertThrowsError(try PropertyListReader.parse(Array(s[0..<n])), "prefix \(n)")
        }
    }
}

extension XMLPlistReaderTests {
    /// CF accepts `--` inside a comment (bazel's fake profiles have one); libxml2 alone would not.
    func testDoubleHyphenInsideCommentAccepted() throws {
        let doc = try parse("<?xml version=\"1.0\"?>\n<!-- use --define=x here -->\n<plist><dict><key>a</key><string>b</string></dict></plist>")
        XCTAssertEqual(doc.root.dict?["a"]?.string, "b")
        XCTAssertEqual(doc.comments.count, 1)
    }

    func testMultiLineCommentLocatedAtItsStart() throws {
        let doc = try parse("<plist>\n  <!--\n  license\n  text\n  -->\n<dict/></plist>")
        XCTAssertEqual(doc.comments.first?.location, SourceLocation(line: 2, column: 3))
    }

    func testLongCommentInPrologLocatedAtItsStartLine() throws {
        let body = (1...60).map { "    line \($0) of a long licence header" }.joined(separator: "\n")
        let doc = try parse("<?xml version=\"1.0\"?>\n<!--\n\(body)\n-->\n<plist><dict/></plist>")
        XCTAssertEqual(doc.comments.first?.location.line, 2)
    }

    func testErrorAfterHyphenCommentStillReported() {
        expectError("<!-- a -- b -->\n<plist><dict><key>a</key></dict></plist>", .invalidStructure)
        expectError("<!-- a -- b -->\n<plist><dict></dic></plist>", .malformedXML, line: 2)
    }
}

extension XMLPlistReaderTests {
    /// Large dicts switch to an index: lookups and duplicates behave the same.
    func testLargeDictWithDuplicates() throws {
        var body = ""
        for i in 0..<40 { body += "<key>k\(i)</key><integer>\(i)</integer>" }
        body += "<key>k3</key><integer>99</integer><key>k30</key><integer>98</integer>"
        let d = try XCTUnwrap(parse("<plist><dict>\(body)</dict></plist>").root.dict)
        XCTAssertEqual(d.count, 40)
        XCTAssertEqual(d["k3"]?.integer, .signed(99))
        XCTAssertEqual(d["k30"]?.integer, .signed(98))
        XCTAssertEqual(d["k39"]?.integer, .signed(39))
        XCTAssertNil(d["k40"])
        XCTAssertEqual(d.shadowedEntries.map(\.key), ["k3", "k30"])
        XCTAssertEqual(d.keys.count, 40)
    }
}
