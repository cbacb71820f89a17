import XCTest
import EntitlintCore
@testable import Reporters

final class TextReporterTests: XCTestCase {
    func testLinesAndSummary() {
        let f = Finding(rule: "wildcard-access-group", severity: .error, message: "m", path: "A.entitlements", line: 7, column: 3)
        let g = Finding(rule: "parse-error", severity: .error, message: "n", path: "P.mobileprovision")
        let out = TextReporter().render(Report(findings: [f, g], files: 2))
        XCTAssertEqual(out, "A.entitlements:7:3: error: m [wildcard-access-group]\nP.mobileprovision: error: n [parse-error]\n2 files checked: 2 errors, 0 warnings, 0 notes\n")
    }

    func testColourOnlyWhenAsked() {
        let f = Finding(rule: "r", severity: .warning, message: "m", path: "A", line: 1, column: 1)
        XCTAssertTrue(TextReporter().render(Report(findings: [f], files: 1, colour: true)).contains("\u{1B}[1;33m"))
        XCTAssertFalse(TextReporter().render(Report(findings: [f], files: 1)).contains("\u{1B}["))
    }
}
