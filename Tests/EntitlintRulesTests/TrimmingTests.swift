import XCTest
@testable import EntitlintRules

/// `trimmingWhitespace()` trims ASCII white space on the bytes and falls back to `Character`
/// for anything else at the ends; on every string it must give what the `Character` version gives.
final class TrimmingTests: XCTestCase {
    func testTrimmingAgreesWithTheCharacterVersion() {
        func reference(_ string: String) -> String {
            var s = Substring(string)
            while let f = s.first, f.isWhitespace { s = s.dropFirst() }
            while let l = s.last, l.isWhitespace { s = s.dropLast() }
            return String(s)
        }
        let pieces = [" ", "\t", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{301}",
                      "a", "b", "*", "é", "e\u{301}", "\u{1F600}", "group", ".", "$(X)"]
        var rng = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<20_000 {
            let s = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            XCTAssertEqual(s.trimmingWhitespace(), reference(s), "\(s.unicodeScalars.map { $0.value })")
            checked += 1
        }
        XCTAssertEqual(checked, 20_000)
        XCTAssertEqual(" \u{301}x ".trimmingWhitespace(), reference(" \u{301}x "))
        XCTAssertEqual("\n  <!-- license -->\n".trimmingWhitespace(), "<!-- license -->")
    }
}
