import XCTest
@testable import EntitlintCore
import PropertyList
import Provisioning

/// Large values in the core: excerpts cut in scalars, entitlement strings and keys past 4 KiB
/// refused at parse, expansions past 4 KiB left unexpanded.
final class LargeValueCoreTests: XCTestCase {
    static func grapheme(_ marks: Int) -> String { "e" + String(repeating: "\u{301}", count: marks) }

    func testExcerptOfOneGraphemeOfTwoMegabytesIsEightyScalars() {
        let big = Self.grapheme(1_000_000)
        let e = OutputText.excerpt(big)
        XCTAssertEqual(e.unicodeScalars.count, 80)
        XCTAssertTrue(e.hasSuffix("..."))
        XCTAssertEqual(OutputText.excerpt("short"), "short")
        XCTAssertEqual(OutputText.excerpt(String(repeating: "a", count: 80)), String(repeating: "a", count: 80))
        XCTAssertEqual(OutputText.excerpt(String(repeating: "a", count: 81)), String(repeating: "a", count: 77) + "...")
        // Escapes count in the cut: no control character survives, and the result stays short.
        let controls = OutputText.excerpt(String(repeating: "\u{1b}", count: 1_000))
        XCTAssertFalse(controls.unicodeScalars.contains { $0.value == 0x1b })
        XCTAssertEqual(controls.unicodeScalars.count, 80)
        XCTAssertEqual(OutputText.excerpt("abcdef", limit: 2), "...")
    }

    static func xml(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
    }

    func testEntitlementStringOrKeyPastFourKilobytesIsAParseError() {
        let long = String(repeating: "a", count: 4_097)
        for (body, what, line) in [("<key>keychain-access-groups</key>\n<array><string>ABCDE12345.\(long)</string></array>", "a string of 4108 bytes", 5),
                                   ("<key>\(long)</key>\n<true/>", "a key of 4097 bytes", 4),
                                   ("<key>a</key>\n<dict><key>b</key><string>\(Self.grapheme(3_000))</string></dict>", "a string of 6001 bytes", 5)] {
            guard case .failed(let reason, let location) = DocumentReader.parse(bytes: Self.xml(body), path: "A.entitlements", limits: .default) else {
                XCTFail(what); continue
            }
            XCTAssertEqual(reason, "\(what), more than the 4096 bytes an entitlement's key or value is read to (no real one is that long)")
            XCTAssertEqual(location.line, line, what)
        }
        // 4,096 bytes is read.
        let fits = String(repeating: "a", count: 4_085)
        guard case .entitlements = DocumentReader.parse(bytes: Self.xml("<key>keychain-access-groups</key>\n<array><string>ABCDE12345.\(fits)</string></array>"),
                                                path: "A.entitlements", limits: .default) else { return XCTFail("4,096 bytes") }
    }

    func testProfileWhoseEntitlementsHoldAHugeStringIsAParseError() {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>UUID</key><string>u</string><key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
        <key>Entitlements</key><dict><key>application-identifier</key><string>ABCDE12345.\(Self.grapheme(5_000))</string></dict></dict></plist>
        """
        guard case .failed(let reason, _) = DocumentReader.parse(bytes: Array(text.utf8), path: "P.mobileprovision", limits: .default) else { return XCTFail() }
        XCTAssertEqual(reason, "its Entitlements hold a string of 10012 bytes, more than the 4096 bytes an entitlement's key or value is read to (no real one is that long)")
    }

    func testExpansionPastFourKilobytesIsLeftUnexpandedAsUnresolved() {
        let value = String(repeating: "x", count: 1_000)
        let e = VariableExpander(appIDPrefix: "ABCDE12345", teamID: "ABCDE12345", bundleID: "com.example.App", extra: ["LONG": value])
        let fits = e.expand("$(LONG)$(LONG)$(LONG)$(LONG)")
        XCTAssertEqual(fits.text.utf8.count, 4_000)
        XCTAssertTrue(fits.isConcrete)
        let five = "$(LONG)$(LONG)$(LONG)$(LONG)$(LONG)"
        let over = e.expand(five)
        XCTAssertEqual(over.text, five)
        XCTAssertEqual(over.unresolved.map(\.name), ["LONG", "LONG", "LONG", "LONG", "LONG"])
        XCTAssertFalse(over.isConcrete)
    }
}
