import Foundation
import XCTest
@testable import PropertyList

/// The reader against Foundation's `PropertyListSerialization` (CoreFoundation's parser, the one
/// Apple's tools use) on inputs where they once disagreed, found by the differential test
/// (`Scripts/differential.sh`). Each case runs live against Foundation: the reader must
/// give the same value, or reject when Foundation rejects. Cases where Entitlint is deliberately
/// stricter are in `testDeliberatelyStricterThanCoreFoundation`, with the section of
/// `Tests/Fuzz/DIFFERENCES.md` that explains them.
final class DifferentialTests: XCTestCase {
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case rejected

        var description: String {
            switch self {
            case .value(let v): return v
            case .rejected: return "rejected"
            }
        }
    }

    /// Entitlint's result in a small canonical text form.
    func entitlint(_ bytes: [UInt8]) -> Outcome {
        guard let document = try? PropertyListReader.parse(bytes) else { return .rejected }
        return .value(Self.render(document.root.value))
    }

    /// Foundation's result in the same form.
    func foundation(_ bytes: [UInt8]) -> Outcome {
        guard let value = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) else {
            return .rejected
        }
        return .value(Self.render(foundation: value))
    }

    static func render(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): return "s:" + s.unicodeScalars.map { $0.isASCII ? String($0) : "U+\(String($0.value, radix: 16))" }.joined()
        case .integer(let i): return "i:\(i)"
        case .real(let r): return r.isNaN ? "r:nan" : "r:\(r)"
        case .bool(let b): return "b:\(b)"
        case .date(let d): return "d:\(d.secondsSince1970)"
        case .data(let d): return "x:" + d.map { String($0, radix: 16) }.joined(separator: ".")
        case .array(let a): return "[" + a.map { render($0.value) }.joined(separator: ",") + "]"
        case .dict(let d):
            return "{" + d.keys.sorted().map { "\(render(.string($0)))=\(render(d[$0]!.value))" }.joined(separator: ",") + "}"
        }
    }

    static func render(foundation value: Any) -> String {
        if type(of: value) == Bool.self, let b = value as? Bool { return "b:\(b)" }
        if let s = value as? String { return render(.string(s)) }
        if let n = value as? NSNumber {
            switch String(cString: n.objCType) {
            case "d", "f": return n.doubleValue.isNaN ? "r:nan" : "r:\(n.doubleValue)"
            case "Q": return "i:\(n.uint64Value)"
            default: return "i:\(n.int64Value)"
            }
        }
        if let d = value as? Date { return "d:\(Int64(d.timeIntervalSince1970.rounded()))" }
        if let d = value as? Data { return "x:" + d.map { String($0, radix: 16) }.joined(separator: ".") }
        if let a = value as? [Any] { return "[" + a.map { render(foundation: $0) }.joined(separator: ",") + "]" }
        if let d = value as? [String: Any] {
            return "{" + d.keys.sorted().map { "\(render(.string($0)))=\(render(foundation: d[$0]!))" }.joined(separator: ",") + "}"
        }
        return "?\(value)"
    }

    func assertAgrees(_ xml: String, expect: Outcome? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(xml.utf8)
        let e = entitlint(bytes), f = foundation(bytes)
        XCTAssertEqual(e, f, "Entitlint and Foundation disagree on \(xml.debugDescription)", file: file, line: line)
        if let expect { XCTAssertEqual(e, expect, xml.debugDescription, file: file, line: line) }
    }

    /// `<!-- a --->`: CF ends the comment at the first `-->`; libxml2, after the `--`, ran on to
    /// the next `-->` and hid the entitlement between them from the linter (a "psychic paper"
    /// style difference). Now rejected; the plain forms still agree.
    func testCommentEndingInThreeHyphensCannotHideEntitlements() {
        let hidden = "<plist><dict><!-- a ---><key>keychain-access-groups</key><array><string>*</string></array><!-- --></dict></plist>"
        XCTAssertEqual(entitlint(Array(hidden.utf8)), .rejected)
        XCTAssertEqual(foundation(Array(hidden.utf8)), .value("{s:keychain-access-groups=[s:*]}"))
        XCTAssertEqual(entitlint(Array("<plist><dict><!-----><key>k</key><true/><!-- --></dict></plist>".utf8)), .rejected)
        assertAgrees("<plist><dict><!-- a -- b --><key>k</key><true/><!-- --></dict></plist>", expect: .value("{s:k=b:true}"))
        assertAgrees("<plist><dict><!-- a--><key>k</key><true/></dict></plist>")
    }

    /// `<key a=">x">y</key>`: CF ends a tag at its first `>`, quotes or not, and reads `">x">y`.
    func testGreaterThanInsideAnAttributeIsRejected() {
        let input = "<plist><dict><key>a</key><string x='>'>keep</string><key b=\">c\">d</key><true/></dict></plist>"
        XCTAssertEqual(entitlint(Array(input.utf8)), .rejected)
        XCTAssertEqual(foundation(Array(input.utf8)), .value("{s:a=s:'>keep,s:c\">d=b:true}"))
        assertAgrees("<plist version=\"1.0\"><array><string a=\"x\">y</string></array></plist>", expect: .value("[s:y]"))
    }

    /// CFString drops one leading U+FEFF from string and key text, however it is written.
    func testLeadingByteOrderMarkIsDroppedFromStringsAndKeys() {
        assertAgrees("<plist><string>\u{FEFF}x</string></plist>", expect: .value("s:x"))
        assertAgrees("<plist><string>&#xFEFF;x</string></plist>", expect: .value("s:x"))
        assertAgrees("<plist><string><![CDATA[\u{FEFF}x]]></string></plist>", expect: .value("s:x"))
        assertAgrees("<plist><string>\u{FEFF}\u{FEFF}x</string></plist>", expect: .value("s:U+feffx"))
        assertAgrees("<plist><string>a\u{FEFF}b</string></plist>", expect: .value("s:aU+feffb"))
        assertAgrees("<plist><dict><key>\u{FEFF}keychain-access-groups</key><array/></dict></plist>",
                     expect: .value("{s:keychain-access-groups=[]}"))
    }

    func testIntegerWhiteSpaceAsCoreFoundation() {
        assertAgrees("<plist><integer> 5</integer></plist>", expect: .value("i:5"))
        assertAgrees("<plist><integer>- 5</integer></plist>", expect: .value("i:-5"))
        assertAgrees("<plist><integer>\u{2003}5</integer></plist>", expect: .value("i:5"))
        assertAgrees("<plist><integer>5 </integer></plist>", expect: .rejected)
        assertAgrees("<plist><integer>\n5\n</integer></plist>", expect: .rejected)
        assertAgrees("<plist><integer>\u{A0}5</integer></plist>", expect: .rejected)
        assertAgrees("<plist><integer>0x</integer></plist>", expect: .rejected)
        assertAgrees("<plist><integer>-0x10</integer></plist>", expect: .value("i:-16"))
        assertAgrees("<plist><integer>18446744073709551615</integer></plist>", expect: .value("i:18446744073709551615"))
        assertAgrees("<plist><integer>18446744073709551616</integer></plist>", expect: .rejected)
        assertAgrees("<plist><integer>-9223372036854775809</integer></plist>", expect: .rejected)
    }

    func testRealWhiteSpaceAndNamesAsCoreFoundation() {
        assertAgrees("<plist><real> 2.5</real></plist>", expect: .value("r:2.5"))
        assertAgrees("<plist><real>2.5 </real></plist>", expect: .rejected)
        assertAgrees("<plist><real> nan</real></plist>", expect: .rejected)
        assertAgrees("<plist><real>NaN</real></plist>", expect: .value("r:nan"))
        assertAgrees("<plist><real>-Infinity</real></plist>", expect: .value("r:-inf"))
        assertAgrees("<plist><real>&#50;.5</real></plist>", expect: .value("r:2.5"))
        assertAgrees("<plist><real>0x1p3</real></plist>", expect: .rejected)
    }

    func testDateWithWhiteSpaceIsRejected() {
        assertAgrees("<plist><date>2024-02-29T12:00:00Z</date></plist>", expect: .value("d:1709208000"))
        assertAgrees("<plist><date> 2024-01-01T00:00:00Z</date></plist>", expect: .rejected)
        assertAgrees("<plist><date>2024-01-01T00:00:00Z </date></plist>", expect: .rejected)
        assertAgrees("<plist><date>2024-01-01T00:00:00Z</date ></plist>", expect: .value("d:1704067200"))
    }

    func testBooleansMustBeEmpty() {
        assertAgrees("<plist><true> </true></plist>", expect: .rejected)
        assertAgrees("<plist><false>\n</false></plist>", expect: .rejected)
        assertAgrees("<plist><true></true ></plist>", expect: .value("b:true"))
        assertAgrees("<plist><false /></plist>", expect: .value("b:false"))
    }

    /// CF's base64: `=` is a zero digit and decoding goes on after it; an incomplete last group
    /// is dropped; characters outside the alphabet are skipped.
    func testBase64AsCoreFoundation() {
        assertAgrees("<plist><data>QUJD====RA==</data></plist>", expect: .value("x:41.42.43.0.44"))
        assertAgrees("<plist><data>QUJDRA</data></plist>", expect: .value("x:41.42.43"))
        assertAgrees("<plist><data>QUI= \n</data></plist>", expect: .value("x:41.42"))
        assertAgrees("<plist><data>QU JD\n!RA==</data></plist>", expect: .value("x:41.42.43.44"))
        assertAgrees("<plist><data>QUJ=D===</data></plist>")
        assertAgrees("<plist><data>A</data></plist>", expect: .value("x:"))
    }

    /// Bytes between the offset table and the trailer of a binary plist.
    func testBinaryPlistWithGapBeforeTrailerIsRejected() {
        // bplist00 | int 42 at offset 8 | offset table [8] at 10 | gap | trailer
        var bytes = Array("bplist00".utf8) + [0x10, 0x2A, 0x08]
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, 10]
        XCTAssertEqual(entitlint(bytes + trailer), .value("i:42"))
        XCTAssertEqual(foundation(bytes + trailer), .value("i:42"))
        bytes.append(0)
        XCTAssertEqual(entitlint(bytes + trailer), .rejected)
        XCTAssertEqual(foundation(bytes + trailer), .rejected)
    }

    /// A binary dict that repeats a key: CF keeps the first value (in XML, the last). With
    /// `com.apple.security.app-sandbox` false then true, Apple reads false.
    func testBinaryDictWithRepeatedKeyKeepsTheFirstValue() {
        // bplist00 | dict {k: true, k: false} at 8 | "k" at 13 | true at 15 | false at 16 |
        // offset table at 17 | trailer
        let bytes: [UInt8] = Array("bplist00".utf8) + [0xD2, 0x01, 0x01, 0x02, 0x03, 0x51, 0x6B, 0x09, 0x08]
            + [8, 13, 15, 16]
            + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 17]
        XCTAssertEqual(foundation(bytes), .value("{s:k=b:true}"))
        XCTAssertEqual(entitlint(bytes), .value("{s:k=b:true}"))
        XCTAssertEqual(try PropertyListReader.parse(bytes).root.dict?.shadowedEntries.map(\.value.bool), [false])
        assertAgrees("<plist><dict><key>k</key><true/><key>k</key><false/></dict></plist>", expect: .value("{s:k=b:false}"))
    }

    /// Where Entitlint rejects what CF accepts, on purpose (Tests/Fuzz/DIFFERENCES.md): these are
    /// parse errors for the linter, never a different value.
    func testDeliberatelyStricterThanCoreFoundation() {
        let cases: [(String, String)] = [
            ("<plist><true/></plist>junk", "not well-formed XML"),
            ("<true/><false/>", "not well-formed XML"),
            ("<plist><array><key>k</key></array></plist>", "key outside a dict"),
            ("<plist><array><?pi x?><true/></array></plist>", "processing instruction"),
            ("<plist><string>&#0;</string></plist>", "character XML forbids"),
            ("<plist><date>2023-02-30T00:00:00Z</date></plist>", "date out of range"),
            ("<plist><date>12024-01-01T00:00:00Z</date></plist>", "year not of four digits"),
        ]
        for (input, why) in cases {
            XCTAssertEqual(entitlint(Array(input.utf8)), .rejected, "\(why): \(input)")
            XCTAssertNotEqual(foundation(Array(input.utf8)), .rejected, "Foundation now rejects (\(why)): \(input)")
        }
    }
}
