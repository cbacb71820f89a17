import XCTest
@testable import PropertyList

private typealias W = BinaryPlistTestWriter

final class BinaryPlistReaderTests: XCTestCase {

    // MARK: - Helpers

    private func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws -> PlistDocument {
        try BinaryPlistReader.parse(bytes, limits: limits)
    }

    private func root(_ value: W.Value, file: StaticString = #filePath, line: UInt = #line) throws -> PlistNode {
        try parse(W.file(value)).root
    }

    /// Asserts that parsing throws a `PlistError` with `code` whose reason contains `contains`.
    private func assertRejects(_ bytes: [UInt8], _ code: PlistError.Code, _ contains: String? = nil,
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
    private func single(_ raw: [UInt8]) -> [UInt8] {
        var w = W()
        w.addRaw(raw)
        return w.build()
    }

    private func seconds2001(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Double {
        Double(PlistDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s).secondsSince1970 - 978_307_200)
    }

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

    // MARK: - Hostile inputs: truncation and trailer

    func testTruncatedAtEveryByteThrows() {
        let files = [
            BinaryPlistFixtures.plistlibEntitlements,
            W.file(.dict([("k", .array([.string("\u{1F600}"), .int(-1), .date(0), .data([1, 2, 3])]))])),
        ]
        for file in files {
            for length in 0..<file.count {
                XCTAssertThrowsError(try parse(Array(file[0..<length])), "prefix of \(length) bytes")
            }
            XCTAssertNoThrow(try parse(file))
        }
    }

    func testTrailerOffsetTableOffsetPastEnd() {
        var w = W()
        w.add(.string("x"))
        let good = w.build()
        assertRejects(w.build(offsetTableOffset: UInt64(good.count)), .invalidBinary, "offset table offset")
        assertRejects(w.build(offsetTableOffset: UInt64.max), .invalidBinary, "outside the file")
        assertRejects(w.build(offsetTableOffset: UInt64(Int64.max) + 7), .invalidBinary, "outside the file")
        assertRejects(w.build(offsetTableOffset: 4), .invalidBinary, "outside the file")      // inside the header
        // Offset table that starts in range but runs into the trailer.
        assertRejects(w.build(offsetTableOffset: UInt64(good.count - 32)), .invalidBinary, "runs past the trailer")
    }

    func testTrailerObjectCountHugeOrZero() {
        var w = W()
        w.add(.string("x"))
        assertRejects(w.build(numObjects: UInt64.max), .invalidBinary)
        assertRejects(w.build(objectRefSize: 8, numObjects: UInt64(Int.max) / 2), .invalidBinary, "runs past the trailer")
        assertRejects(w.build(offsetIntSize: 8, objectRefSize: 8, numObjects: UInt64(1) << 61), .invalidBinary, "runs past the trailer")
        assertRejects(w.build(numObjects: 1000), .invalidBinary, "cannot be named with 1-byte object references")
        assertRejects(w.build(numObjects: 0), .invalidBinary, "no objects")
    }

    func testTrailerTopObjectOutOfRange() {
        var w = W()
        w.add(.string("x"))
        assertRejects(w.build(topObject: 1), .invalidBinary, "top object 1")
        assertRejects(w.build(topObject: UInt64.max), .invalidBinary, "top object")
    }

    func testObjectRefSizeZeroAndNine() {
        var w = W()
        let top = w.add(.array([.string("x")]))
        assertRejects(w.build(top: top, objectRefSize: 0), .invalidBinary, "object reference size 0")
        assertRejects(w.build(top: top, objectRefSize: 9), .invalidBinary, "object reference size 9")
        assertRejects(w.build(top: top, objectRefSize: 255), .invalidBinary, "object reference size 255")
    }

    func testOffsetIntSizeZeroAndNine() {
        var w = W()
        w.add(.string("x"))
        assertRejects(w.build(offsetIntSize: 0), .invalidBinary, "offset size 0")
        assertRejects(w.build(offsetIntSize: 9), .invalidBinary, "offset size 9")
    }

    func testObjectRefSizeTooSmallForObjectCount() {
        var w = W()
        for i in 0..<300 { w.add(.int(Int64(i))) }
        w.objectRefSize = 1
        assertRejects(w.build(), .invalidBinary, "cannot be named with 1-byte object references")
    }

    // MARK: - Hostile inputs: offsets and references

    func testOffsetTablePointingOutsideObjectArea() {
        var w = W()
        w.add(.array([.string("x")]))
        let good = w.build()
        let tableOffset = good.count - 32 - 2     // two 1-byte offsets
        assertRejects(w.build(offsets: [1: 3]), .invalidBinary, "outside the object data")         // header
        assertRejects(w.build(offsets: [1: UInt64(tableOffset)]), .invalidBinary, "outside the object data") // table
        assertRejects(w.build(offsets: [0: UInt64(good.count - 5)]), .invalidBinary, "object 0 is at offset")  // trailer
        assertRejects(w.build(offsetIntSize: 8, offsets: [0: UInt64.max]), .invalidBinary, "outside the object data")
        assertRejects(w.build(offsetIntSize: 8, offsets: [1: UInt64(good.count) + 1000]), .invalidBinary)
    }

    func testObjectRunningIntoOffsetTable() {
        // A string that claims 10 bytes but the object area ends after 3.
        assertRejects(single([0x5A, 0x61, 0x62, 0x63]), .invalidBinary, "ASCII string count 10 runs past the end")
        // An 8-byte int with 2 bytes of data.
        assertRejects(single([0x13, 0x01, 0x02]), .invalidBinary, "8-byte integer runs past the end")
        // A date with 4 bytes.
        assertRejects(single([0x33, 0, 0, 0, 0]), .invalidBinary, "date runs past the end")
        // An array with more references than bytes.
        assertRejects(single([0xA5, 0x00]), .invalidBinary, "array count 5 runs past the end")
    }

    func testErrorMessageNamesObjectAndOffset() {
        var w = W()
        w.add(.string("pad"))
        let top = w.addRaw([0xAF, 0x11, 0x13, 0x88, 0x00])   // array of 5000 with no references
        do {
            _ = try BinaryPlistReader.parse(w.build(top: top))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .invalidBinary)
            XCTAssertTrue(error.reason.hasPrefix("object 1 at offset 12: array count 5000 runs past the end"), error.reason)
        }
    }

    func testReferenceToMissingObject() {
        var w = W()
        let top = w.addArray([0, 7])
        w.setArray(top, [7])
        assertRejects(w.build(top: top), .invalidBinary, "reference to object 7, but the file has only 1 objects")
    }

    func testCountNibbleFWithHugeIntCount() {
        // Array count 2^63 - 1 in an 8-byte int.
        assertRejects(single([0xAF, 0x13] + W.be(UInt64(Int64.max), 8)), .invalidBinary, "array count 9223372036854775807 runs past the end")
        // Count that would overflow count * objectRefSize.
        var w = W()
        w.addRaw([0xAF, 0x13] + W.be(UInt64(Int64.max) / 2 + 1, 8))
        w.add(.string("x"))
        assertRejects(w.build(objectRefSize: 8), .invalidBinary, "runs past the end")
        // Dict count whose 2 * objectRefSize multiple overflows.
        assertRejects(single([0xDF, 0x13] + W.be(UInt64(Int64.max) / 3, 8)), .invalidBinary, "dict count")
        // Negative count.
        assertRejects(single([0x4F, 0x13] + W.be(UInt64.max, 8)), .invalidBinary, "negative or too large")
        // Large but not absurd counts, for each counted type.
        assertRejects(single([0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]), .invalidBinary, "ASCII string count 2147483647")
        assertRejects(single([0x6F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]), .invalidBinary, "UTF-16 string count 2147483647")
        assertRejects(single([0x4F, 0x11, 0xFF, 0xFF]), .invalidBinary, "data count 65535")
        // The count must be a 1, 2, 4 or 8-byte int object.
        assertRejects(single([0x4F, 0x14] + W.be(0, 16)), .invalidBinary, "length must be")
        assertRejects(single([0x4F, 0x51, 0x41]), .invalidBinary, "length must be")
        // Count int missing entirely / cut short.
        assertRejects(single([0x4F]), .invalidBinary, "length marker runs past the end")
        assertRejects(single([0x4F, 0x12, 0x00]), .invalidBinary, "4-byte length runs past the end")
    }

    // MARK: - Hostile inputs: cycles, depth, blow-up

    func testSelfReferencingArrayCycle() {
        var w = W()
        w.addArray([0])
        assertRejects(w.build(), .invalidBinary, "reference cycle")
    }

    func testIndirectReferenceCycle() {
        var w = W()
        let a = w.addArray()
        let b = w.addArray()
        let c = w.addArray()
        w.setArray(a, [b])
        w.setArray(b, [c])
        w.setArray(c, [w.add(.string("ok")), a])
        assertRejects(w.build(top: a), .invalidBinary, "refers to object 0, which contains it (reference cycle)")
    }

    func testDictValueReferencingItsOwnDictIsACycle() {
        var w = W()
        let d = w.addArray()
        let k = w.add(.string("self"))
        w.objects[d] = .dict(keys: [k], values: [d])
        assertRejects(w.build(top: d), .invalidBinary, "reference cycle")
    }

    func testDictUsingItselfAsKeyIsRejectedNotEntered() {
        var w = W()
        let d = w.addArray()
        let v = w.add(.bool(true))
        w.objects[d] = .dict(keys: [d], values: [v])
        assertRejects(w.build(top: d), .invalidBinary, "dict keys must be strings")
    }

    private func nestedArrays(_ depth: Int) -> [UInt8] {
        // Object i is an array holding object i + 1; the last one is an empty array.
        var w = W()
        for i in 0..<depth { w.addArray(i + 1 < depth ? [i + 1] : []) }
        return w.build()
    }

    func testDeepNestingBeyondLimit() {
        let maxDepth = PlistLimits.default.maxDepth
        assertRejects(nestedArrays(maxDepth + 1), .tooDeep, "nested \(maxDepth + 1) deep, more than the limit of \(maxDepth)")
        assertRejects(nestedArrays(maxDepth + 100), .tooDeep)
        XCTAssertNoThrow(try parse(nestedArrays(maxDepth)))
        var limits = PlistLimits.default
        limits.maxDepth = 10
        XCTAssertNoThrow(try parse(nestedArrays(10), limits: limits))
        assertRejects(nestedArrays(11), .tooDeep, "nested 11 deep", limits: limits)
    }

    /// `--max-depth 100000` is honoured up to the readers' own bound (`readerMaxDepth`): past it
    /// the file is refused, without suggesting a flag that would not help, and never walked by
    /// the recursive code after the reader (rules, reporters, Swift's deinit).
    func testVeryDeepNestingWithRaisedLimitStopsAtTheReadersBound() throws {
        let limits = PlistLimits(maxDepth: 100_000)
        XCTAssertThrowsError(try parse(nestedArrays(100_000), limits: limits)) { error in
            let e = error as! PlistError
            XCTAssertEqual(e.code, .tooDeep)
            XCTAssertNil(e.limit)
            XCTAssertTrue(e.reason.contains("more than the limit of \(PlistLimits.readerMaxDepth) (the most Entitlint reads, whatever --max-depth says)"), e.reason)
        }
        assertRejects(nestedArrays(PlistLimits.readerMaxDepth + 1), .tooDeep, "nested \(PlistLimits.readerMaxDepth + 1) deep", limits: limits)
        var node = try parse(nestedArrays(PlistLimits.readerMaxDepth), limits: limits).root
        var seen = 1
        while let next = node.array?.first {
            node = next
            seen += 1
        }
        XCTAssertEqual(seen, PlistLimits.readerMaxDepth)
        // The other readers have the same bound.
        let openStep = Array((String(repeating: "(", count: 5_000) + String(repeating: ")", count: 5_000)).utf8)
        XCTAssertThrowsError(try OpenStepPlistReader.parse(openStep, limits: limits)) { error in
            XCTAssertTrue((error as! PlistError).reason.contains("deeper than \(PlistLimits.readerMaxDepth) levels"), "\(error)")
        }
    }

    /// Object i (< levels) is an array of `width` references to object i + 1; the last is a
    /// string. Decoding the top expands to width^levels nodes.
    private func billionLaughs(levels: Int, width: Int) -> [UInt8] {
        var w = W()
        for i in 0..<levels { w.addArray(Array(repeating: i + 1, count: width)) }
        w.add(.string("lol"))
        return w.build()
    }

    func testDAGBlowUpBeyondMaxElements() {
        // 10^12 nodes from a file of a few hundred bytes.
        let bomb = billionLaughs(levels: 12, width: 10)
        XCTAssertLessThan(bomb.count, 300)
        assertRejects(bomb, .tooLarge, "\(PlistLimits.default.maxElements) values")
        // Wide fan-out is refused before the children are allocated.
        assertRejects(billionLaughs(levels: 2, width: 2000), .tooLarge, "would exceed the limit", limits: PlistLimits(maxElements: 3000))
    }

    func testSharedObjectsCountAtEveryReference() throws {
        // 1 + 3 + 9 + 27 = 40 nodes although the file has only 4 objects.
        let file = billionLaughs(levels: 3, width: 3)
        XCTAssertNoThrow(try parse(file, limits: PlistLimits(maxElements: 40)))
        assertRejects(file, .tooLarge, limits: PlistLimits(maxElements: 39))
        let top = try parse(file).root
        XCTAssertEqual(top.array?[2].array?[1].array?[0].string, "lol")
    }

    func testDictKeysCountTowardsMaxElements() {
        // dict of 2 entries: the dict, 2 keys and 2 values.
        let file = W.file(.dict([("a", .bool(true)), ("b", .bool(false))]))
        XCTAssertNoThrow(try parse(file, limits: PlistLimits(maxElements: 5)))
        assertRejects(file, .tooLarge, limits: PlistLimits(maxElements: 4))
    }

    func testOversizedInputIsRejected() {
        let file = W.file(.data(Array(repeating: 0, count: 200)))
        assertRejects(file, .tooLarge, "more than the limit of 100 bytes", limits: PlistLimits(maxBytes: 100))
    }

    // MARK: - Hostile inputs: bad values

    func testNonStringDictKey() {
        var w = W()
        let d = w.addArray()
        let k = w.add(.int(1))
        let v = w.add(.string("v"))
        w.objects[d] = .dict(keys: [k], values: [v])
        assertRejects(w.build(top: d), .invalidBinary, "key 0 refers to object 1, an integer; dict keys must be strings")

        var w2 = W()
        let d2 = w2.addArray()
        let k2 = w2.add(.array([]))
        let v2 = w2.add(.string("v"))
        w2.objects[d2] = .dict(keys: [k2], values: [v2])
        assertRejects(w2.build(top: d2), .invalidBinary, "an array; dict keys must be strings")
    }

    func testIntOfSize32() {
        assertRejects(single([0x15] + Array(repeating: 0, count: 32)), .invalidBinary, "integer of 32 bytes")
        assertRejects(single([0x1F] + Array(repeating: 0, count: 40)), .invalidBinary, "integer of 32768 bytes")
    }

    func testSixteenByteIntegerBeyond64BitsIsRejected() {
        // -1 as a sign-extended 128-bit value, and 2^64.
        assertRejects(single([0x14] + W.be(UInt64.max, 8) + W.be(UInt64.max, 8)), .invalidBinary, "does not fit in 64 bits")
        assertRejects(single([0x14] + W.be(1, 8) + W.be(0, 8)), .invalidBinary, "does not fit in 64 bits")
    }

    func testRealOfInvalidSize() {
        assertRejects(single([0x21, 0, 0]), .invalidBinary, "real of 2 bytes")
        assertRejects(single([0x24] + Array(repeating: 0, count: 16)), .invalidBinary, "real of 16 bytes")
    }

    func testDateNaNInfinityAndOutOfRange() {
        assertRejects(W.file(.date(.nan)), .invalidBinary, "not a finite number")
        assertRejects(W.file(.date(.infinity)), .invalidBinary, "not a finite number")
        assertRejects(W.file(.date(-.infinity)), .invalidBinary, "not a finite number")
        assertRejects(W.file(.date(1e300)), .invalidBinary, "outside the years 1 to 9999")
        assertRejects(W.file(.date(-1e300)), .invalidBinary, "outside the years 1 to 9999")
        assertRejects(W.file(.date(seconds2001(9999, 12, 31, 23, 59, 59) + 1)), .invalidBinary, "outside")
        assertRejects(W.file(.date(seconds2001(1, 1, 1, 0, 0, 0) - 1)), .invalidBinary, "outside")
        assertRejects(single([0x34] + Array(repeating: 0, count: 8)), .invalidBinary, "a date is 0x33")
    }

    func testUTF16StringWithInvalidSurrogates() {
        // Lone high surrogate at the end.
        assertRejects(single([0x61, 0xD8, 0x3D]), .invalidBinary, "unpaired high surrogate 0xD83D at unit 0")
        // High surrogate followed by a non-surrogate.
        assertRejects(single([0x62, 0xD8, 0x3D, 0x00, 0x41]), .invalidBinary, "unpaired high surrogate")
        // Two high surrogates.
        assertRejects(single([0x62, 0xD8, 0x3D, 0xD8, 0x3D]), .invalidBinary, "unpaired high surrogate")
        // Lone low surrogate.
        assertRejects(single([0x62, 0x00, 0x41, 0xDE, 0x00]), .invalidBinary, "unpaired low surrogate 0xDE00 at unit 1")
        // Odd byte count: the second unit is cut off by the end of the object area.
        assertRejects(single([0x62, 0x00, 0x41, 0x00]), .invalidBinary, "UTF-16 string count 2 runs past the end")
    }

    func testASCIIStringWithHighByte() {
        assertRejects(single([0x53, 0x61, 0xE9, 0x62]), .invalidBinary, "non-ASCII byte 0xE9")
    }

    func testUIDIsRejected() {
        assertRejects(single([0x80, 0x01]), .invalidBinary, "UID")
    }

    func testNullFillSetAndUnknownMarkersAreRejected() {
        assertRejects(single([0x00]), .invalidBinary, "null object")
        assertRejects(single([0x0F]), .invalidBinary, "fill byte")
        assertRejects(single([0x0C]), .invalidBinary, "unknown object marker 0x0C")
        assertRejects(single([0xC1, 0x00]), .invalidBinary, "set object")
        assertRejects(single([0xB1, 0x00]), .invalidBinary, "ordered set")
        assertRejects(single([0x71, 0x41]), .invalidBinary, "unknown object marker 0x71")
        assertRejects(single([0xF0]), .invalidBinary, "unknown object marker 0xF0")
        // Null inside a container.
        var w = W()
        let a = w.addArray()
        w.setArray(a, [w.addRaw([0x00])])
        assertRejects(w.build(top: a), .invalidBinary, "object 1 at offset 10: null object")
    }

    func testRandomMutationsNeverCrash() {
        // Deterministic xorshift generator: the same inputs on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        let seeds = [
            BinaryPlistFixtures.plistlibEntitlements,
            W.file(.array([.dict([("a", .array([.int(-1), .real(1), .date(5)]))]), .string("\u{1F600}x")])),
            billionLaughs(levels: 4, width: 3),
        ]
        var parsed = 0, rejected = 0
        for round in 0..<4000 {
            var bytes = seeds[round % seeds.count]
            let flips = 1 + Int(next() % 4)
            for _ in 0..<flips {
                // Bias towards the trailer and offset table, where the structure lives.
                let fromEnd = next() % 2 == 0
                let span = UInt64(fromEnd ? min(64, bytes.count - 8) : bytes.count - 8)
                let i = fromEnd ? bytes.count - 1 - Int(next() % span) : 8 + Int(next() % span)
                bytes[i] = UInt8(truncatingIfNeeded: next())
            }
            do {
                _ = try BinaryPlistReader.parse(bytes, limits: PlistLimits(maxDepth: 64, maxElements: 10_000))
                parsed += 1
            } catch {
                rejected += 1
            }
        }
        XCTAssertEqual(parsed + rejected, 4000)
        XCTAssertGreaterThan(rejected, 0)
        XCTAssertGreaterThan(parsed, 0)   // the mutations are not all caught by the same check
    }
}
