import XCTest
import EntitlintCore
import PropertyList

/// The fix engine's placing of edits: every byte outside an edit is kept (indentation, comments,
/// line ends, the header, a byte-order mark), and an operation whose entry the bytes do not hold
/// gives no edit at all.
final class FixResolverTests: XCTestCase {
    typealias Op = Finding.Fix.Operation

    func fixed(_ text: String, _ ops: [Op], file: StaticString = #filePath, line: UInt = #line) -> String? {
        let bytes = Array(text.utf8)
        guard let edits = FixResolver.edits(ops, bytes: bytes, path: "A.entitlements"),
              let out = FixApplier.apply(edits, to: bytes) else { return nil }
        // Whatever the edits, the result still parses.
        XCTAssertNoThrow(try PropertyListReader.parse(out), file: file, line: line)
        return String(decoding: out, as: UTF8.self)
    }

    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n"
    static let tail = "</dict>\n</plist>\n"
    let k = "keychain-access-groups"

    func testReplaceKeepsTabsCommentsAndOtherLines() {
        let body = "\t<!-- shared with the widget -->\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>com.example.shared</string>   <!-- here -->\n\t</array>\n"
        let out = fixed(Self.head + body + Self.tail, [.replace(k, 0, "com.example.shared", with: "$(AppIdentifierPrefix)com.example.shared")])
        XCTAssertEqual(out, Self.head + body.replacingOccurrences(of: "<string>com.", with: "<string>$(AppIdentifierPrefix)com.") + Self.tail)
    }

    func testRemoveTakesTheWholeLineWithItsCRLF() {
        let text = (Self.head + "<key>keychain-access-groups</key>\n<array>\n  <string>a.b</string>\n  <string>a.b</string>\n  <string>c.d</string>\n</array>\n" + Self.tail)
            .replacingOccurrences(of: "\n", with: "\r\n")
        let out = fixed(text, [.remove(k, 1, "a.b")])
        XCTAssertEqual(out, text.replacingOccurrences(of: "  <string>a.b</string>\r\n  <string>a.b</string>\r\n", with: "  <string>a.b</string>\r\n"))
    }

    func testRemoveOnASharedLineTakesOnlyTheElementAndItsBlank() {
        let text = Self.head + "<key>keychain-access-groups</key><array><string>a.b</string> <string></string><string>c.d</string></array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.remove(k, 1, "")]),
                       Self.head + "<key>keychain-access-groups</key><array><string>a.b</string><string>c.d</string></array>\n" + Self.tail)
        XCTAssertEqual(fixed(text, [.remove(k, 0, "a.b")]),
                       Self.head + "<key>keychain-access-groups</key><array><string></string><string>c.d</string></array>\n" + Self.tail)
    }

    func testEmptyElementTagIsReplacedWhole() {
        let text = Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string/>\n</array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.replace(k, 0, "", with: "x.y")]),
                       Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>x.y</string>\n</array>\n" + Self.tail)
        XCTAssertEqual(fixed(text, [.remove(k, 0, "")]), Self.head + "<key>keychain-access-groups</key>\n<array>\n</array>\n" + Self.tail)
    }

    func testEntitiesAreDecodedToCheckAndEscapedToWrite() {
        let text = Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>a&amp;b.c</string>\n\t<string>&#x20;x.y</string>\n</array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.replace(k, 1, " x.y", with: "x&y.<z>")]),
                       Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>a&amp;b.c</string>\n\t<string>x&amp;y.&lt;z&gt;</string>\n</array>\n" + Self.tail)
        // The decoded value is what is checked: the raw text does not match.
        XCTAssertNil(fixed(text, [.remove(k, 0, "a&amp;b.c")]))
        XCTAssertNotNil(fixed(text, [.remove(k, 0, "a&b.c")]))
    }

    func testByteOrderMarkAndHeaderAreKept() {
        let text = "\u{FEFF}" + Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>com.apple.token</string>\n\t<string>a.b</string>\n</array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.remove(k, 0, "com.apple.token")]),
                       "\u{FEFF}" + Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>a.b</string>\n</array>\n" + Self.tail)
    }

    func testMoveToFrontAndMoveToAnotherKey() {
        let text = Self.head + "\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>b.b</string>\n\t\t<string>a.a</string>\n\t</array>\n\t<key>com.apple.security.application-groups</key>\n\t<array>\n\t\t<string>group.x</string>\n\t</array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.moveToFront(k, 1, "a.a")]),
                       text.replacingOccurrences(of: "<string>b.b</string>\n\t\t<string>a.a</string>", with: "<string>a.a</string>\n\t\t<string>b.b</string>"))
        XCTAssertEqual(fixed(text, [.move(k, 0, "b.b", to: "com.apple.security.application-groups")]),
                       text.replacingOccurrences(of: "\t\t<string>b.b</string>\n", with: "")
                           .replacingOccurrences(of: "<string>group.x</string>", with: "<string>group.x</string>\n\t\t<string>b.b</string>"))
    }

    func testMoveAddsTheKeyInTheSourcesShape() {
        let text = Self.head + "  <key>keychain-access-groups</key>\n  <array>\n    <string>group.a</string>\n  </array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.move(k, 0, "group.a", to: "com.apple.security.application-groups")]),
                       Self.head + "  <key>keychain-access-groups</key>\n  <array>\n  </array>\n  <key>com.apple.security.application-groups</key>\n  <array>\n    <string>group.a</string>\n  </array>\n" + Self.tail)
        // On one line the shape is not clear: no fix.
        XCTAssertNil(fixed(Self.head + "<key>keychain-access-groups</key><array><string>group.a</string></array>\n" + Self.tail,
                           [.move(k, 0, "group.a", to: "com.apple.security.application-groups")]))
    }

    func testRemoveKeyNeedsOnlyBlanksBetweenKeyAndValue() {
        let text = Self.head + "<key>a</key>\n<true/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>x.y</string>\n</array>\n" + Self.tail
        XCTAssertEqual(fixed(text, [.removeKey(k)]), Self.head + "<key>a</key>\n<true/>\n" + Self.tail)
        let commented = text.replacingOccurrences(of: "keychain-access-groups</key>\n", with: "keychain-access-groups</key><!-- c -->\n")
        XCTAssertNil(fixed(commented, [.removeKey(k)]))
    }

    func testNoEditWhenTheBytesDoNotHoldTheEntry() {
        let text = Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>a.b</string>\n</array>\n" + Self.tail
        XCTAssertNil(fixed(text, [.remove(k, 0, "other")]))
        XCTAssertNil(fixed(text, [.remove(k, 3, "a.b")]))
        XCTAssertNil(fixed(text, [.remove("missing", 0, "a.b")]))
        let twice = Self.head + "<key>keychain-access-groups</key>\n<array/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>a.b</string>\n</array>\n" + Self.tail
        XCTAssertNil(fixed(twice, [.remove(k, 0, "a.b")]))
        // CDATA and a DOCTYPE with declarations: the first is read, the second refused.
        XCTAssertNotNil(fixed(Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string><![CDATA[a.b]]></string>\n</array>\n" + Self.tail, [.remove(k, 0, "a.b")]))
        XCTAssertNil(PlistSourceMap(bytes: Array("<!DOCTYPE plist [<!ENTITY x \"y\">]><plist><dict/></plist>".utf8)))
    }

    func testOverlappingEditsAreRefused() {
        let a = Finding.Edit(path: "p", range: 2..<5, replacement: "")
        XCTAssertFalse(FixApplier.nonOverlapping([a, Finding.Edit(path: "p", range: 4..<6, replacement: "x")]))
        XCTAssertFalse(FixApplier.nonOverlapping([Finding.Edit(path: "p", range: 3..<3, replacement: "x"), Finding.Edit(path: "p", range: 3..<3, replacement: "y")]))
        XCTAssertTrue(FixApplier.nonOverlapping([a, Finding.Edit(path: "p", range: 5..<6, replacement: "x")]))
        XCTAssertNil(FixApplier.apply([a, Finding.Edit(path: "p", range: 4..<6, replacement: "x")], to: Array("0123456".utf8)))
    }

    func testUnifiedDiff() {
        let a = Array("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n".utf8)
        let b = Array("one\ntwo\nthree\nfour\n5\nsix\nseven\neight\n".utf8)
        XCTAssertEqual(UnifiedDiff.render(a, b, oldName: "a/x", newName: "b/x"),
                       "--- a/x\n+++ b/x\n@@ -2,7 +2,7 @@\n two\n three\n four\n-five\n+5\n six\n seven\n eight\n")
        XCTAssertEqual(UnifiedDiff.render(a, a, oldName: "a/x", newName: "b/x"), "")
        let removed = UnifiedDiff.render(Array("x\r\ny\r\n".utf8), Array("x\r\n".utf8), oldName: "a", newName: "b")
        XCTAssertEqual(removed, "--- a\n+++ b\n@@ -1,2 +1 @@\n x\r\n-y\r\n")
    }
}
