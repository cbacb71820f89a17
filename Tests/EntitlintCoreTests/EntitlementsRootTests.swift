import XCTest
@testable import EntitlintCore
import PropertyList

/// An entitlements file whose root is not a dict (an array or a string holding `*`, a number)
/// was read as an empty set of entitlements and passed with no finding. It is a `parse-error`
/// now, in every plist format the linter reads.
final class EntitlementsRootTests: XCTestCase {
    static func xml(_ root: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(root)\n</plist>\n".utf8)
    }

    /// `bplist00` whose objects are `objects` (object 0 the root), with one-byte offsets and refs.
    static func binary(_ objects: [[UInt8]]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects { offsets.append(UInt8(out.count)); out += o }
        let table = UInt8(out.count)
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, table]
        return out
    }

    func reason(_ bytes: [UInt8], path: String = "App.entitlements") -> (String, SourceLocation)? {
        guard case .failed(let reason, let location) = DocumentReader.parse(bytes: bytes, path: path, limits: .default) else { return nil }
        return (reason, location)
    }

    func testXMLRootArrayStringOrIntegerHoldingAWildcardIsAParseError() throws {
        let cases: [(String, String)] = [
            ("<array><string>*</string></array>", "an array (<array>)"),
            ("<string>*</string>", "a string (<string>)"),
            ("<integer>42</integer>", "an integer (<integer>)"),
            ("<true/>", "a boolean (<true/>)"),
            ("<data>Kg==</data>", "data (<data>)"),
        ]
        for (root, what) in cases {
            let (text, location) = try XCTUnwrap(reason(Self.xml(root)), root)
            XCTAssertEqual(text, "the root of an entitlements file must be a dictionary (<dict>), not \(what)")
            XCTAssertEqual(location.line, 3, root)
        }
    }

    func testBinaryRootArrayStringOrIntegerHoldingAWildcardIsAParseError() throws {
        let star: [UInt8] = [0x51, 0x2A]
        let cases: [([[UInt8]], String)] = [
            ([[0xA1, 0x01], star], "an array (<array>)"),
            ([star], "a string (<string>)"),
            ([[0x10, 0x2A]], "an integer (<integer>)"),
        ]
        for (objects, what) in cases {
            let (text, _) = try XCTUnwrap(reason(Self.binary(objects)), what)
            XCTAssertEqual(text, "the root of an entitlements file must be a dictionary (<dict>), not \(what)")
        }
    }

    func testDictRootsStillParseAsEntitlements() {
        guard case .entitlements(let doc) = DocumentReader.parse(bytes: Self.xml("<dict><key>keychain-access-groups</key><array><string>*</string></array></dict>"),
                                                         path: "App.entitlements", limits: .default) else { return XCTFail() }
        XCTAssertNotNil(doc.root.dict)
        guard case .entitlements = DocumentReader.parse(bytes: Self.binary([[0xD0]]), path: "App.entitlements", limits: .default) else { return XCTFail("empty binary dict") }
    }

    func testInMemoryLintReportsTheRootAsAParseError() {
        let findings = Linter(rules: []).lint(entitlements: Self.xml("<array><string>*</string></array>"), path: "App.entitlements")
        XCTAssertEqual(findings.map(\.rule), ["parse-error"])
        XCTAssertEqual(findings.first?.message, "cannot parse property list: the root of an entitlements file must be a dictionary (<dict>), not an array (<array>)")
    }
}
