import Foundation
import XCTest
@testable import PropertyList

/// Attacks on the XML plist reader not covered by name elsewhere
/// (XMLPlistReaderTests has external entities, billion laughs, 100,000-deep nesting, invalid
/// UTF-8 and NUL bytes; LimitsTests in EntitlintWorkspaceTests the 64 MiB string and the
/// 10-million-element array). Each is refused or read as CoreFoundation reads it, quickly.
final class HostileXMLTests: XCTestCase {
    func reject(_ bytes: [UInt8], _ code: PlistError.Code, file: StaticString = #filePath, line: UInt = #line) -> PlistError? {
        do {
            let doc = try PropertyListReader.parse(bytes)
            XCTFail("expected \(code), parsed \(doc.root.value)", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            return error
        }
    }

    func utf16LE(_ s: String, bom: Bool) -> [UInt8] {
        var bytes: [UInt8] = bom ? [0xFF, 0xFE] : []
        for u in s.utf16 { bytes.append(UInt8(u & 0xFF)); bytes.append(UInt8(u >> 8)) }
        return bytes
    }

    /// Quadratic blow-up: one 100 KB entity referenced 10,000 times (1 GB if expanded). Entity
    /// declarations are refused with the internal subset, before any expansion.
    func testQuadraticBlowUpIsRejectedWithoutExpanding() {
        let big = String(repeating: "a", count: 100_000)
        let refs = String(repeating: "&a;", count: 10_000)
        let s = "<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a \"\(big)\">]><plist><string>\(refs)</string></plist>"
        _ = reject(Array(s.utf8), .forbiddenDTD)
    }

    /// UTF-16 without a byte-order mark: CoreFoundation refuses it (DIFFERENCES.md), so do we,
    /// whether or not the declaration says UTF-16.
    func testUTF16WithoutABOMIsRejected() {
        for declaration in ["<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.0\"?>", ""] {
            let bytes = utf16LE(declaration + "<plist><string>x</string></plist>", bom: false)
            let error = reject(bytes, .invalidEncoding)
            XCTAssertNotNil(error, declaration)
        }
    }

    /// An encoding declaration that contradicts the BOM: the BOM decides, as in CoreFoundation,
    /// and the text is read as what the BOM says, never as the declaration.
    func testEncodingDeclarationContradictingTheBOMFollowsTheBOM() throws {
        // UTF-8 BOM, declaration says ISO-8859-1: "é" (C3 A9) stays one character.
        let utf8 = [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>é</string></plist>".utf8)
        XCTAssertEqual(try PropertyListReader.parse(utf8).root.string, "é")
        // UTF-16 BOM, declaration says UTF-8.
        let utf16 = utf16LE("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist><string>é</string></plist>", bom: true)
        XCTAssertEqual(try PropertyListReader.parse(utf16).root.string, "é")
    }

    /// A NUL byte anywhere: in a string, in a key, between elements.
    func testNULBytesAreRejectedEverywhere() {
        for s in ["<plist><string>a\u{0}b</string></plist>", "<plist><dict><key>k\u{0}</key><true/></dict></plist>",
                  "<plist>\u{0}<true/></plist>"] {
            do {
                _ = try PropertyListReader.parse(Array(s.utf8))
                XCTFail("accepted a NUL byte: \(s.debugDescription)")
            } catch {
                XCTAssertFalse(error.reason.isEmpty)
            }
        }
    }

    /// Invalid UTF-8 inside a key (a lone continuation byte, an overlong form, a surrogate).
    func testInvalidUTF8InKeysIsRejected() {
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            let bytes = Array("<plist><dict><key>".utf8) + bad + Array("</key><true/></dict></plist>".utf8)
            do {
                _ = try PropertyListReader.parse(bytes)
                XCTFail("accepted invalid UTF-8 \(bad)")
            } catch {
                XCTAssertEqual(error.code, .invalidEncoding, "\(error)")
            }
        }
    }
}
