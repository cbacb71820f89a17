import XCTest
@testable import PropertyList

private typealias W = BinaryPlistTestWriter

/// Hostile binary plists with bad values (keys, integers, reals, dates, strings, markers), and random
/// mutations of valid files.
final class BinaryPlistHostileValueTests: XCTestCase, BinaryPlistReaderChecks {
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
