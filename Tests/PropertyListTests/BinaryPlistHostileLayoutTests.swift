import XCTest
@testable import PropertyList

private typealias W = BinaryPlistTestWriter

/// Hostile binary plists whose structure lies: truncated files, trailers, offsets and references.
final class BinaryPlistHostileLayoutTests: XCTestCase, BinaryPlistReaderChecks {
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
}
