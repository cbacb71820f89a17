import TestSupport
import XCTest
import SwiftASN1
@testable import Provisioning

/// What the CMS test classes share: the payload the built profiles carry, decoding one that must be
/// accepted, and asserting that one is refused with a code and a readable reason.
protocol CMSSignedDataChecks: XCTestCase {}

extension CMSSignedDataChecks {
    var payload: [UInt8] {
        Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n".utf8)
            + Array(repeating: UInt8(ascii: " "), count: 300)
    }

    func content(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> (content: [UInt8], envelope: ProfileEnvelope)? {
        do {
            return try ProfileDecoder.encapsulatedContent(ofCMS: bytes)
        } catch {
            XCTFail("unexpected error: \(error.code): \(error.reason)", file: file, line: line)
            return nil
        }
    }

    func assertThrows(_ bytes: [UInt8], _ code: ProfileError.Code, reasonContains: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) {
        do {
            let r = try ProfileDecoder.encapsulatedContent(ofCMS: bytes)
            XCTFail("expected \(code), decoded \(r.content.count) bytes", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, "reason: \(error.reason)", file: file, line: line)
            XCTAssertEqual(error.location, .unknown, file: file, line: line)
            XCTAssertFalse(error.reason.isEmpty, file: file, line: line)
            XCTAssertFalse(error.reason.contains(".swift:"), "reason leaks a source line: \(error.reason)", file: file, line: line)
            if let reasonContains {
                XCTAssertTrue(error.reason.contains(reasonContains), "reason: \(error.reason)", file: file, line: line)
            }
        }
    }
}

/// The CMS layer alone (`ProfileDecoder.encapsulatedContent(ofCMS:)`): encodings it must accept
/// (hostile input: `CMSSignedDataHostileTests`).
final class CMSSignedDataTests: XCTestCase, CMSSignedDataChecks {
    // MARK: - Encodings that must be accepted

    func testDERFromSerializerGivesContentAndDEREnvelope() {
        let r = content(CMSBuilder(content: payload).der())
        XCTAssertEqual(r?.content, payload)
        XCTAssertEqual(r?.envelope, .der)
    }

    func testIndefiniteLengthsWithChunkedOctetStringAreConcatenated() {
        for chunk in [1, 7, 64, 1000] {
            let blob = CMSBuilder(content: payload).ber(chunkSize: chunk)
            XCTAssertEqual(Array(blob.prefix(2)), [0x30, 0x80])
            let r = content(blob)
            XCTAssertEqual(r?.content, payload, "chunk size \(chunk)")
            XCTAssertEqual(r?.envelope, .ber)
        }
    }

    func testDefiniteLengthConstructedOctetStringIsBER() {
        let blob = CMSBuilder(content: payload).ber(chunkSize: 50, indefinite: false)
        XCTAssertNotEqual(blob[1], 0x80)
        let r = content(blob)
        XCTAssertEqual(r?.content, payload)
        XCTAssertEqual(r?.envelope, .ber)
    }

    func testNestedConstructedOctetStringPiecesAreFlattenedInOrder() {
        let a = Array("<plist><dict>".utf8), b = Array("<key>k</key>".utf8), c = Array("<true/></dict></plist>".utf8)
        let octets = BERNode.constructed(0x24, [
            .primitive(0x04, a),
            .constructed(0x24, [.primitive(0x04, b), .primitive(0x04, [])], indefinite: true),
            .primitive(0x04, c),
        ], indefinite: true)
        let r = content(CMSBuilder(content: nil).tree(octets: octets).encoded())
        XCTAssertEqual(r?.content, a + b + c)
    }

    func testNonMinimalLengthEncodingIsBER() {
        // The version INTEGER with a long-form length of 1 (81 01): legal BER, not DER.
        var tree = CMSBuilder(content: payload).tree(octets: .primitive(0x04, payload), indefinite: false)
        tree = tree.replacingFirst(primitiveTag: 0x02, with: .raw([0x02, 0x81, 0x01, 0x01]))
        let r = content(tree.encoded())
        XCTAssertEqual(r?.content, payload)
        XCTAssertEqual(r?.envelope, .ber)
    }

    func testCertificatesAndCRLsAreOptional() {
        var b = CMSBuilder(content: payload)
        b.includeCertificates = false
        XCTAssertEqual(content(b.der())?.content, payload)
        XCTAssertEqual(content(b.ber())?.content, payload)
    }
}

extension BERNode {
    /// The tree with the first primitive of tag `tag` (depth-first) replaced by `replacement`.
    func replacingFirst(primitiveTag tag: UInt8, with replacement: BERNode) -> BERNode {
        var done = false
        func walk(_ n: BERNode) -> BERNode {
            if done { return n }
            switch n {
            case .primitive(let t, _) where t == tag:
                done = true
                return replacement
            case .constructed(let t, let children, let indefinite):
                return .constructed(t, children.map(walk), indefinite: indefinite)
            default:
                return n
            }
        }
        return walk(self)
    }

    /// ContentInfo with `extra` appended to the SignedData SEQUENCE.
    func appendingToSignedData(_ extra: BERNode) -> BERNode {
        guard case .constructed(let t, var outer, let i) = self,
              case .constructed(let t0, let explicit, let i0) = outer[1],
              case .constructed(let t1, let signed, let i1) = explicit[0] else { return self }
        outer[1] = .constructed(t0, [.constructed(t1, signed + [extra], indefinite: i1)], indefinite: i0)
        return .constructed(t, outer, indefinite: i)
    }
}
