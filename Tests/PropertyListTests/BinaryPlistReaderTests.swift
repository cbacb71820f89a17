import XCTest
@testable import PropertyList

private typealias W = BinaryPlistTestWriter

/// What the binary plist reader's test classes share: parsing a file, asserting that one is refused
/// with a code and a reason, and the small files the tests build.
protocol BinaryPlistReaderChecks: XCTestCase {}

extension BinaryPlistReaderChecks {
    func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws -> PlistDocument {
        try BinaryPlistReader.parse(bytes, limits: limits)
    }

    func root(_ value: BinaryPlistTestWriter.Value, file: StaticString = #filePath, line: UInt = #line) throws -> PlistNode {
        try parse(W.file(value)).root
    }

    /// Asserts that parsing throws a `PlistError` with `code` whose reason contains `contains`.
    func assertRejects(_ bytes: [UInt8], _ code: PlistError.Code, _ contains: String? = nil,
                       limits: PlistLimits = .default,
                       file: StaticString = #filePath, line: UInt = #line) {
        do {
            let doc = try BinaryPlistReader.parse(bytes, limits: limits)
            XCTFail("expected \(code) error, parsed \(doc.root.value)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, "reason: \(error.reason)", file: file, line: line)
            if let contains {
                XCTAssertTrue(error.reason.contains(contains),
                              "reason \"\(error.reason)\" does not contain \"\(contains)\"", file: file, line: line)
            }
            XCTAssertFalse(error.location.isKnown, file: file, line: line)
        }
    }

    /// A file whose only object is `raw`.
    func single(_ raw: [UInt8]) -> [UInt8] {
        var w = W()
        w.addRaw(raw)
        return w.build()
    }

    func seconds2001(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Double {
        Double(PlistDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s).secondsSince1970 - 978_307_200)
    }

    /// Object i (< levels) is an array of `width` references to object i + 1; the last is a
    /// string. Decoding the top expands to width^levels nodes.
    func billionLaughs(levels: Int, width: Int) -> [UInt8] {
        var w = W()
        for i in 0..<levels { w.addArray(Array(repeating: i + 1, count: width)) }
        w.add(.string("lol"))
        return w.build()
    }
}

final class BinaryPlistReaderTests: XCTestCase, BinaryPlistReaderChecks {
    // MARK: - Detection

    func testIsBinaryPlistFalseForXML() {
        let xml = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict/></plist>
            """.utf8)
        XCTAssertFalse(BinaryPlistReader.isBinaryPlist(xml))
        XCTAssertFalse(BinaryPlistReader.isBinaryPlist([]))
        XCTAssertFalse(BinaryPlistReader.isBinaryPlist(Array("bplist0".utf8)))
        XCTAssertFalse(BinaryPlistReader.isBinaryPlist(Array("bplist15".utf8)))
        XCTAssertTrue(BinaryPlistReader.isBinaryPlist(BinaryPlistFixtures.plistlibEntitlements))
        XCTAssertTrue(BinaryPlistReader.isBinaryPlist(W.file(.bool(true))))
    }

    func testParseRejectsNonBinaryInputDirectly() {
        assertRejects(Array("<plist><dict/></plist>".utf8), .invalidBinary, "bplist00")
        assertRejects(Array("bplist00".utf8), .invalidBinary, "too short")
    }

    // MARK: - Round trips

    func testDocumentIsBinaryWithoutCommentsOrLocations() throws {
        let doc = try parse(W.file(.dict([("a", .array([.string("x"), .int(1)]))])))
        XCTAssertEqual(doc.format, .binary)
        XCTAssertTrue(doc.comments.isEmpty)
        XCTAssertEqual(doc.root.location, .unknown)
        let entry = try XCTUnwrap(doc.root.dict?.entry("a"))
        XCTAssertEqual(entry.keyLocation, .unknown)
        XCTAssertEqual(entry.value.location, .unknown)
        XCTAssertEqual(entry.value.array?.map(\.location), [.unknown, .unknown])
    }

    func testPropertyListReaderDispatchesBinaryPlists() throws {
        let doc = try PropertyListReader.parse(W.file(.string("hello")))
        XCTAssertEqual(doc.format, .binary)
        XCTAssertEqual(doc.root.string, "hello")
    }

    func testBoolRoundTrips() throws {
        XCTAssertEqual(try root(.bool(true)).bool, true)
        XCTAssertEqual(try root(.bool(false)).bool, false)
    }

    func testStringRoundTrips() throws {
        XCTAssertEqual(try root(.string("")).string, "")
        XCTAssertEqual(try root(.string("com.apple.security.app-sandbox")).string, "com.apple.security.app-sandbox")
        // UTF-16BE with a BMP character and a non-BMP one (a surrogate pair).
        let s = "caf\u{E9} \u{1F600} \u{4E2D}"
        XCTAssertEqual(W.string(s).first, 0x69)   // written as UTF-16: 9 units
        XCTAssertEqual(try root(.string(s)).string, s)
        // Long enough that the count needs the 0xF nibble and an int object.
        let long = String(repeating: "\u{1F600}", count: 40)
        XCTAssertEqual(try root(.string(long)).string, long)
        let longASCII = String(repeating: "abc", count: 100)
        XCTAssertEqual(try root(.string(longASCII)).string, longASCII)
    }

    func testStringWithNULByteIsKept() throws {
        XCTAssertEqual(try parse(single([0x53, 0x61, 0x00, 0x62])).root.string, "a\u{0}b")
    }

    func testIntegerRoundTrips() throws {
        let cases: [(W.Value, PlistInteger)] = [
            (.int(0), .signed(0)),
            (.int(255), .signed(255)),                        // 1 byte
            (.int(256), .signed(256)),                        // 2 bytes
            (.int(65_536), .signed(65_536)),                  // 4 bytes
            (.uint(0xFFFF_FFFF), .signed(0xFFFF_FFFF)),       // 4 bytes, unsigned
            (.int(0x1_0000_0000), .signed(0x1_0000_0000)),    // 8 bytes
            (.int(Int64.max), .signed(Int64.max)),
            (.int(-1), .signed(-1)),                          // negative: 8 bytes
            (.int(-7), .signed(-7)),
            (.int(Int64.min), .signed(Int64.min)),
            (.uint(UInt64(Int64.max) + 1), .unsigned(UInt64(Int64.max) + 1)),   // 16 bytes
            (.uint(UInt64.max), .unsigned(UInt64.max)),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(try root(value).integer, expected, "\(value)")
        }
        // Byte widths as written.
        XCTAssertEqual(W.int(-1).count, 9)
        XCTAssertEqual(W.uint(UInt64.max).count, 17)
    }

    func testSixteenByteIntegerWithZeroHighHalfIsUnsigned() throws {
        // A 16-byte int holding a small value is still read (and normalised to .signed).
        XCTAssertEqual(try parse(single([0x14] + W.be(0, 8) + W.be(5, 8))).root.integer, .signed(5))
    }

    func testRealRoundTrips() throws {
        XCTAssertEqual(try root(.real(0.25)).value, .real(0.25))
        XCTAssertEqual(try root(.real(-1.5e300)).value, .real(-1.5e300))
        XCTAssertEqual(try root(.float(1.5)).value, .real(1.5))          // 4-byte real
        XCTAssertEqual(try root(.real(.infinity)).value, .real(.infinity))
    }

    func testDateRoundTrips() throws {
        XCTAssertEqual(try root(.date(0)).date?.description, "2001-01-01T00:00:00Z")
        XCTAssertEqual(try root(.date(730_900_800)).date?.description, "2024-02-29T12:00:00Z")
        XCTAssertEqual(seconds2001(2024, 2, 29, 12, 0, 0), 730_900_800)
        XCTAssertEqual(try root(.date(-31_622_401)).date?.description, "1999-12-31T23:59:59Z")
        // Fractions round towards the past.
        XCTAssertEqual(try root(.date(0.75)).date?.description, "2001-01-01T00:00:00Z")
        XCTAssertEqual(try root(.date(-0.25)).date?.description, "2000-12-31T23:59:59Z")
        // The range an XML plist can write.
        XCTAssertEqual(try root(.date(seconds2001(1, 1, 1, 0, 0, 0))).date?.description, "0001-01-01T00:00:00Z")
        XCTAssertEqual(try root(.date(seconds2001(9999, 12, 31, 23, 59, 59))).date?.description, "9999-12-31T23:59:59Z")
    }

    func testDataRoundTrips() throws {
        XCTAssertEqual(try root(.data([])).data, [])
        XCTAssertEqual(try root(.data([0, 1, 0xFE, 0xFF])).data, [0, 1, 0xFE, 0xFF])
        let big = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        XCTAssertEqual(try root(.data(big)).data, big)
    }

    func testNestedDictAndArray() throws {
        let node = try root(.dict([
            ("com.apple.security.app-sandbox", .bool(true)),
            ("keychain-access-groups", .array([.string("TEAM.com.example"), .string("TEAM.*")])),
            ("nested", .dict([("inner", .array([.int(1), .dict([("k", .string("v"))]), .array([])]))])),
            ("empty", .dict([])),
        ]))
        let d = try XCTUnwrap(node.dict)
        XCTAssertEqual(d.keys, ["com.apple.security.app-sandbox", "keychain-access-groups", "nested", "empty"])
        XCTAssertEqual(d["com.apple.security.app-sandbox"]?.bool, true)
        XCTAssertEqual(d["keychain-access-groups"]?.stringArray, ["TEAM.com.example", "TEAM.*"])
        let inner = try XCTUnwrap(d["nested"]?.dict?["inner"]?.array)
        XCTAssertEqual(inner.count, 3)
        XCTAssertEqual(inner[0].integer, .signed(1))
        XCTAssertEqual(inner[1].dict?["k"]?.string, "v")
        XCTAssertEqual(inner[2].array, [])
        XCTAssertEqual(d["empty"]?.dict?.isEmpty, true)
    }

    func testLargeContainersUseExtendedCountsAndTwoByteReferences() throws {
        let items = (0..<400).map { W.Value.int(Int64($0)) }
        var w = W()
        let top = w.add(.array(items))
        XCTAssertEqual(w.refSize, 2)
        let node = try parse(w.build(top: top)).root
        XCTAssertEqual(node.array?.count, 400)
        XCTAssertEqual(node.array?.last?.integer, .signed(399))
    }

    /// A large array and dict decode whole (tests assert behaviour, not time).
    func testLargeArrayAndDictDecode() throws {
        var w = W()
        let s = w.add(.string("x"))
        let keys = (0..<50_000).map { w.add(.string("k\($0)")) }
        let dict = w.addDict(keys: keys, values: Array(repeating: s, count: keys.count))
        let top = w.addArray(Array(repeating: dict, count: 1) + Array(repeating: s, count: 200_000))
        let a = try XCTUnwrap(parse(w.build(top: top)).root.array)
        XCTAssertEqual(a.count, 200_001)
        XCTAssertEqual(a[0].dict?.count, 50_000)
        XCTAssertEqual(a[0].dict?["k49999"]?.string, "x")
    }

    func testWideOffsetAndReferenceSizesAreAccepted() throws {
        var w = W()
        w.objectRefSize = 8
        let top = w.add(.dict([("a", .array([.string("x"), .bool(false)]))]))
        let d = try parse(w.build(top: top, offsetIntSize: 8)).root.dict
        XCTAssertEqual(d?["a"]?.array?.first?.string, "x")
    }

    func testWriterLayoutMatchesTheFormat() {
        // "bplist00", a one-byte true, a one-byte offset table, then exactly 32 trailer bytes.
        let file = W.file(.bool(true))
        XCTAssertEqual(file.count, 8 + 1 + 1 + 32)
        XCTAssertEqual(Array(file[8...9]), [0x09, 0x08])
        XCTAssertEqual(Array(file[10...]), [0, 0, 0, 0, 0, 0, 1, 1] + W.be(1, 8) + W.be(0, 8) + W.be(9, 8))
    }

    func testTopObjectNeedNotBeFirst() throws {
        var w = W()
        w.add(.string("unused"))
        let top = w.add(.string("root"))
        XCTAssertEqual(try parse(w.build(top: top)).root.string, "root")
    }

    func testDuplicateKeysKept() throws {
        var w = W()
        let dict = w.addArray()
        let k = w.add(.string("com.apple.security.app-sandbox"))
        let v1 = w.add(.bool(false))
        let v2 = w.add(.bool(true))
        w.objects[dict] = .dict(keys: [k, k], values: [v1, v2])
        let d = try XCTUnwrap(parse(w.build(top: dict)).root.dict)
        XCTAssertEqual(d.entries.count, 2)
        XCTAssertEqual(d.shadowedEntries.count, 1)
        // In a binary dict CoreFoundation keeps the first value (checked against Foundation by
        // the differential test, Tests/Fuzz/DIFFERENCES.md); the later one is dead.
        XCTAssertEqual(d.shadowedEntries.first?.value.bool, true)
        XCTAssertEqual(d["com.apple.security.app-sandbox"]?.bool, false)   // the first one wins
        XCTAssertEqual(d.count, 1)
    }

    func testSharedObjectsAreDecodedAtEveryReference() throws {
        var w = W()
        let s = w.add(.string("shared"))
        let inner = w.addArray([s, s])
        let top = w.addArray([inner, inner, s])
        let a = try XCTUnwrap(parse(w.build(top: top)).root.array)
        XCTAssertEqual(a.count, 3)
        XCTAssertEqual(a[0].stringArray, ["shared", "shared"])
        XCTAssertEqual(a[1].stringArray, ["shared", "shared"])
        XCTAssertEqual(a[2].string, "shared")
    }

    func testPlistlibReferenceFixture() throws {
        let doc = try parse(BinaryPlistFixtures.plistlibEntitlements)
        let d = try XCTUnwrap(doc.root.dict)
        XCTAssertEqual(d.count, 12)
        XCTAssertEqual(d["com.apple.security.app-sandbox"]?.bool, true)
        XCTAssertEqual(d["com.apple.security.network.client"]?.bool, false)
        XCTAssertEqual(d["com.apple.developer.team-identifier"]?.string, "ABCDE12345")
        XCTAssertEqual(d["keychain-access-groups"]?.stringArray, ["ABCDE12345.com.example.shared", "ABCDE12345.*"])
        XCTAssertEqual(d["com.example.count"]?.integer, .signed(42))
        XCTAssertEqual(d["com.example.negative"]?.integer, .signed(-7))
        XCTAssertEqual(d["com.example.big"]?.integer, .unsigned(UInt64.max))
        XCTAssertEqual(d["com.example.ratio"]?.value, .real(0.25))
        XCTAssertEqual(d["com.example.when"]?.date?.description, "2024-02-29T12:00:00Z")
        XCTAssertEqual(d["com.example.blob"]?.data, [0, 1, 0xFE, 0xFF])
        XCTAssertEqual(d["com.example.caf\u{E9}"]?.string, "na\u{EF}ve \u{1F600}")
        XCTAssertEqual(d["nested"]?.dict?["inner"]?.array?[1].dict?["k"]?.string, "v")
    }
}
