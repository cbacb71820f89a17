import TestSupport
import XCTest
import SwiftASN1
@testable import Provisioning

/// The CMS layer alone (`ProfileDecoder.encapsulatedContent(ofCMS:)`) on hostile input: one test
/// per attack, named for it.
final class CMSSignedDataHostileTests: XCTestCase, CMSSignedDataChecks {
    // MARK: - Hostile input

    func testEmptyInputIsEmpty() {
        assertThrows([], .empty)
    }

    func testJunkThatIsNotASequenceIsNotCMS() {
        assertThrows(Array("Dummy file".utf8), .notCMS, reasonContains: "'Dummy fi...'")
    }

    func testTruncationAtEveryByteOfDERThrows() {
        let blob = CMSBuilder(content: payload).der()
        for n in 0..<blob.count {
            XCTAssertThrowsError(try ProfileDecoder.encapsulatedContent(ofCMS: Array(blob.prefix(n))), "prefix \(n)")
        }
    }

    func testTruncationAtEveryByteOfBERThrows() {
        let blob = CMSBuilder(content: payload).ber(chunkSize: 40)
        for n in 0..<blob.count {
            XCTAssertThrowsError(try ProfileDecoder.encapsulatedContent(ofCMS: Array(blob.prefix(n))), "prefix \(n)")
        }
    }

    func testOuterLengthNear2To63Throws() {
        let blob = [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + CMSBuilder(content: payload).der().dropFirst(4)
        assertThrows(blob, .malformedCMS, reasonContains: "truncated")
    }

    func testOctetStringLengthNear2To63InsideIndefiniteSequencesThrows() {
        let hostile = BERNode.raw([0x04, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + payload)
        assertThrows(CMSBuilder(content: nil).tree(octets: hostile).encoded(), .malformedCMS, reasonContains: "truncated")
    }

    func testLengthOf2To64Minus1Throws() {
        let blob: [UInt8] = [0x30, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x06, 0x00]
        assertThrows(blob, .malformedCMS, reasonContains: "does not fit")
    }

    func testNineByteLengthFieldThrows() {
        let blob: [UInt8] = [0x30, 0x89, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00]
        assertThrows(blob, .malformedCMS, reasonContains: "longer than 8 bytes")
    }

    func testLengthPastTheEndThrows() {
        var blob = CMSBuilder(content: payload).der()
        // Outer length 0x82 HH LL: claim 100 more bytes than there are.
        XCTAssertEqual(blob[1], 0x82)
        let declared = Int(blob[2]) << 8 | Int(blob[3])
        blob[2] = UInt8((declared + 100) >> 8)
        blob[3] = UInt8((declared + 100) & 0xFF)
        assertThrows(blob, .malformedCMS, reasonContains: "truncated")
    }

    func testInnerLengthPastTheEndOfItsParentThrows() {
        // An OCTET STRING claiming 2000 bytes inside an indefinite structure that holds 300.
        let hostile = BERNode.raw([0x04, 0x82, 0x07, 0xD0] + payload)
        assertThrows(CMSBuilder(content: nil).tree(octets: hostile).encoded(), .malformedCMS)
    }

    func testWrongOuterContentTypeIsUnexpected() {
        var b = CMSBuilder(content: payload)
        b.outerContentType = CMSBuilder.envelopedData
        assertThrows(b.der(), .unexpectedContentType, reasonContains: "envelopedData")
        assertThrows(b.ber(), .unexpectedContentType)
    }

    func testWrongEncapsulatedContentTypeIsUnexpected() {
        var b = CMSBuilder(content: payload)
        b.eContentType = [1, 2, 840, 113_549, 1, 9, 16, 1, 4]   // id-ct-TSTInfo
        assertThrows(b.der(), .unexpectedContentType, reasonContains: "eContentType")
    }

    func testDetachedSignatureHasNoContent() {
        assertThrows(CMSBuilder(content: nil).der(), .noContent, reasonContains: "detached")
        assertThrows(CMSBuilder(content: nil).ber(), .noContent)
    }

    func testEmptyOctetStringHasNoContent() {
        assertThrows(CMSBuilder(content: []).der(), .noContent)
        assertThrows(CMSBuilder(content: nil).tree(octets: .constructed(0x24, [], indefinite: true)).encoded(), .noContent)
    }

    func test200DeepNestedConstructedOctetStringThrows() {
        for indefinite in [true, false] {
            var node = BERNode.primitive(0x04, payload)
            for _ in 0..<200 { node = .constructed(0x24, [node], indefinite: indefinite) }
            assertThrows(CMSBuilder(content: nil).tree(octets: node).encoded(), .malformedCMS, reasonContains: "nested")
        }
    }

    func test100000DeepIndefiniteSequencesThrowWithoutExhaustingTheStack() {
        let blob = Array(repeating: [UInt8]([0x30, 0x80]), count: 100_000).flatMap { $0 }
        assertThrows(blob, .malformedCMS)
    }

    func testMillionsOfEmptyOctetStringPiecesAreRefusedBeforeParsing() {
        // 2 million `04 00` pieces: 4 MB of input that would be 2 million parser nodes.
        let pieces = Array(repeating: [UInt8]([0x04, 0x00]), count: 2_000_000).flatMap { $0 }
        let blob = CMSBuilder(content: nil).tree(octets: .raw([0x24, 0x80] + pieces + [0x00, 0x00])).encoded()
        assertThrows(blob, .malformedCMS, reasonContains: "ASN.1 elements")
    }

    func testElementCountOfBuilderProfiles() {
        // ContentInfo, OID, [0], SignedData, version, SET, SEQ, OID, NULL, encap SEQ, OID, [0],
        // OCTET STRING (13), certificates [0] + 4 inside, signerInfos SET + 9 inside = 28.
        XCTAssertEqual(CMSSignedData.elementCount(CMSBuilder(content: payload).der(), limit: 1000), 28)
        // BER: the constructed OCTET STRING and its pieces instead of the one primitive.
        let pieces = (payload.count + 99) / 100
        XCTAssertEqual(CMSSignedData.elementCount(CMSBuilder(content: payload).ber(chunkSize: 100), limit: 1000), 28 + pieces)
        XCTAssertEqual(CMSSignedData.elementCount([0x30, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], limit: 10), 1)
    }

    func testConstructedOctetStringPieceWithWrongTagThrows() {
        let octets = BERNode.constructed(0x24, [.primitive(0x04, payload), .primitive(0x0C, [0x41])], indefinite: true)
        assertThrows(CMSBuilder(content: nil).tree(octets: octets).encoded(), .malformedCMS, reasonContains: "piece")
    }

    func testEContentThatIsNotAnOctetStringThrows() {
        assertThrows(CMSBuilder(content: nil).tree(octets: .primitive(0x0C, payload)).encoded(), .malformedCMS, reasonContains: "OCTET STRING")
    }

    func testUnterminatedIndefiniteLengthThrows() {
        var blob = CMSBuilder(content: payload).ber()
        blob.removeLast(2)   // the outer end-of-contents
        assertThrows(blob, .malformedCMS)
    }

    func testIndefiniteLengthOnAPrimitiveThrows() {
        let hostile = BERNode.raw([0x04, 0x80] + payload + [0x00, 0x00])
        assertThrows(CMSBuilder(content: nil).tree(octets: hostile).encoded(), .malformedCMS)
    }

    func testStrayEndOfContentsThrows() {
        var blob = CMSBuilder(content: payload).der()
        blob += [0x00, 0x00]
        assertThrows(blob, .malformedCMS)
    }

    func testTrailingGarbageAfterTheOuterSequenceThrows() {
        let blob = CMSBuilder(content: payload).der() + Array("garbage".utf8)
        assertThrows(blob, .malformedCMS, reasonContains: "7 bytes of trailing data")
        assertThrows(CMSBuilder(content: payload).ber() + [0x0A], .malformedCMS, reasonContains: "trailing")
    }

    func testEmptySequenceIsMalformed() {
        assertThrows([0x30, 0x00], .malformedCMS, reasonContains: "contentType is missing")
    }

    func testContentTypeThatIsNotAnOIDIsMalformed() {
        assertThrows([0x30, 0x03, 0x02, 0x01, 0x01], .malformedCMS, reasonContains: "OBJECT IDENTIFIER")
    }

    func testUnterminatedOIDIsMalformed() {
        // 06 02 2A 86: the last sub-identifier byte has its continuation bit set.
        assertThrows([0x30, 0x04, 0x06, 0x02, 0x2A, 0x86], .malformedCMS)
    }

    func testSignedDataWithoutSignerInfosIsMalformed() {
        var b = CMSBuilder(content: payload)
        b.includeSignerInfos = false
        assertThrows(b.der(), .malformedCMS, reasonContains: "signerInfos")
    }

    func testExtraElementAfterSignerInfosIsMalformed() {
        var tree = CMSBuilder(content: payload).tree(octets: .primitive(0x04, payload), indefinite: false)
        tree = tree.appendingToSignedData(.primitive(0x05, []))
        assertThrows(tree.encoded(), .malformedCMS, reasonContains: "extra element")
    }

    func testContentInfoWithoutExplicitTagIsMalformed() {
        // SEQUENCE { OID signedData, SEQUENCE {} }: the [0] is missing.
        let blob = BERNode.constructed(0x30, [.raw(CMSBuilder.encode(CMSBuilder.signedData)), .constructed(0x30, [])]).encoded()
        assertThrows(blob, .malformedCMS, reasonContains: "[0] EXPLICIT")
    }

    func testRandomByteFlipsNeverCrash() {
        var rng = SplitMix64(seed: 0x5EED)
        let originals = [CMSBuilder(content: payload).der(), CMSBuilder(content: payload).ber(chunkSize: 30)]
        for original in originals {
            for _ in 0..<3000 {
                var blob = original
                for _ in 0..<Int(rng.next() % 4 + 1) {
                    let i = Int(rng.next() % UInt64(blob.count))
                    blob[i] = UInt8(truncatingIfNeeded: rng.next())
                }
                if rng.next() % 4 == 0 { blob.removeLast(Int(rng.next() % UInt64(blob.count))) }
                _ = try? ProfileDecoder.encapsulatedContent(ofCMS: blob)
            }
        }
    }
}
