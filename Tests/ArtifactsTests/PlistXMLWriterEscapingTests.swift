import EntitlintCore
import Foundation
import PropertyList
import TestSupport
import XCTest
@testable import Artifacts

/// The XML plist `inspect --format plist` prints for a built product: keys and strings holding
/// each special character of XML joined to a mark (U+0301 after it, U+0600 before it, U+200D after
/// it), and markup meant to close the string and open elements, read back by Python's `plistlib`
/// and by Entitlint's own reader as exactly the values written, with no element added.
final class PlistXMLWriterEscapingTests: XCTestCase {
    static let specials = "&<>\r\n"

    static var values: [String] {
        var out: [String] = []
        for u in specials.unicodeScalars {
            let x = String(u)
            for form in [x, x + "\u{301}", "\u{600}" + x, x + "\u{200D}"] { out += [form, "a" + form + "b"] }
        }
        return out + [
            "</string><string>forged</string><key>com.apple.security.get-task-allow</key><true/><string>",
            "<\u{301}/string>\u{600}<true/>", "]]>\u{301}", "&amp;\u{301}", "x\n\u{A0}::add-mask::secret ##[stop-commands]t",
        ]
    }

    /// A dict of every value under a key made of it, and an array of them all.
    static var tree: PlistNode {
        var dict = PlistDictionary()
        for (i, v) in values.enumerated() {
            dict.append(.init(key: "\(i) " + v, keyLocation: .unknown, value: PlistNode(.string(v))))
        }
        dict.append(.init(key: "all", keyLocation: .unknown, value: PlistNode(.array(values.map { PlistNode(.string($0)) }))))
        return PlistNode(.dict(dict))
    }

    func testStringJoinedToAMarkReadsBackExactlyWithNoElementAdded() throws {
        let xml = PlistXMLWriter.document(Self.tree)
        let back = try PropertyListReader.parse(Array(xml.utf8)).root
        XCTAssertTrue(PlistComparison.equal(Self.tree, back), "\(PlistComparison.differences(Self.tree, back))")

        let read = try XCTUnwrap(try ExternalTool.plistlibValue(xml) as? [String: Any])
        XCTAssertEqual(read.count, Self.values.count + 1, "one entry per value and the array: nothing added")
        for (i, v) in Self.values.enumerated() {
            XCTAssertEqual(read["\(i) " + v] as? String, v, "plistlib reads back \(v.debugDescription)")
        }
        XCTAssertEqual(read["all"] as? [String], Self.values)
        XCTAssertNil(read["com.apple.security.get-task-allow"], "no key forged")
    }

    /// A character XML cannot hold (a C0 control a binary plist may carry) is written U+FFFD,
    /// so the document stays well-formed.
    func testCharacterXMLCannotHoldKeepsTheDocumentWellFormed() throws {
        let tree = PlistNode(.array([PlistNode(.string("a\u{1}\u{301}b\u{FFFE}"))]))
        let xml = PlistXMLWriter.document(tree)
        XCTAssertEqual(try XCTUnwrap(try ExternalTool.plistlibValue(xml) as? [String]), ["a\u{FFFD}\u{301}b\u{FFFD}"])
    }

    /// The whole path: a Mach-O whose signed entitlements hold the hostile values, inspected;
    /// the plist printed has its values and nothing else.
    func testInspectedBinaryWithHostileValuesPrintsOnlyItsOwnElements() throws {
        let dir = try temporaryFolder()
        let escaped = Self.values.map { XMLEscaping.escape($0, ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"]) }
        let body = "<key>keychain-access-groups</key><array>" + escaped.map { "<string>\($0)</string>" }.joined() + "</array>"
        try Data(MachOWriter(xmlEntitlements: Plist.xml(body)).bytes()).write(to: dir.appendingPathComponent("tool"))
        let i = try Inspector.inspect(dir.appendingPathComponent("tool").path, shown: "tool", now: InspectTests.today)
        let read = try XCTUnwrap(try ExternalTool.plistlibValue(String(decoding: i.plist, as: UTF8.self)) as? [String: Any])
        XCTAssertEqual(Array(read.keys), ["keychain-access-groups"])
        XCTAssertEqual(read["keychain-access-groups"] as? [String], Self.values)
    }
}
