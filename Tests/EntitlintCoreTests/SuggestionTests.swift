import XCTest
import EntitlintCore

/// "Did you mean" suggestions for mistyped names.
final class SuggestionTests: XCTestCase {
    func testNearNamesAreSuggestedAndFarOnesAreNot() {
        let commands = ["lint", "lock", "rules", "explain", "report", "inspect", "init"]
        XCTAssertEqual(Suggestion.closest(to: "lnt", in: commands), "lint")
        XCTAssertEqual(Suggestion.closest(to: "repotr", in: commands), "report", "a swap of neighbours is one edit")
        XCTAssertEqual(Suggestion.closest(to: "EXPLIAN", in: commands), "explain")
        XCTAssertNil(Suggestion.closest(to: "App.entitlements", in: commands))
        XCTAssertNil(Suggestion.closest(to: "ios", in: ["lint"]), "two edits in a three-letter word is not a typo")
        XCTAssertEqual(Suggestion.closest(to: "wildcard-acess-group", in: ["wildcard-access-group", "double-prefix"]), "wildcard-access-group")
        XCTAssertNil(Suggestion.closest(to: String(repeating: "a", count: 10_000), in: ["a"]), "long words are not compared")
        XCTAssertEqual(Suggestion.hint(for: "exlude", in: ["exclude", "team"]), " (did you mean 'exclude'?)")
        XCTAssertEqual(Suggestion.hint(for: "zzz", in: ["exclude", "team"]), "")
    }
}
