import XCTest
import EntitlintCore
import EntitlintKit
import Reporters

/// `--max-output-bytes`: the library shortens a report until it fits, and says what it left out
/// with the worst severity left out, so the exit status of a shortened report is the full one's.
final class OutputFittingTests: XCTestCase {
    func findings(_ n: Int, worstLast: Bool) -> [Finding] {
        (0..<n).map { i in
            Finding(rule: "duplicate-key", severity: worstLast && i == n - 1 ? .error : .note,
                    message: "finding number \(i) with some words to take room", path: "App\(1000 + i).entitlements", line: 1, column: 1)
        }
    }

    func testAReportUnderTheLimitIsRenderedWhole() {
        let report = Report(findings: findings(5, worstLast: false), files: 5)
        let (fitted, text) = LintOutcome.fitting(report, limit: 1 << 20, earlier: nil) { TextReporter().render($0) }
        XCTAssertEqual(fitted.findings, report.findings)
        XCTAssertEqual(text, TextReporter().render(report))
    }

    func testAReportOverTheLimitFitsAndKeepsTheWorstSeverityOfWhatItLeftOut() {
        let report = Report(findings: findings(200, worstLast: true), files: 200)
        let whole = TextReporter().render(report).utf8.count
        let limit = whole / 5
        let (fitted, text) = LintOutcome.fitting(report, limit: limit, earlier: nil) { TextReporter().render($0) }
        XCTAssertLessThanOrEqual(text.utf8.count, limit)
        XCTAssertLessThan(fitted.findings.count, report.findings.count)
        let last = try! XCTUnwrap(fitted.findings.last)
        XCTAssertEqual(last.severity, .error, "the left-out error still fails the run")
        XCTAssertTrue(last.message.contains("more findings are not shown"), last.message)
    }
}
