import Foundation
import XCTest

/// Each folder of `Examples/` holds a small realistic case and its expected text report.
final class ExamplesTests: XCTestCase {
    func testEveryExampleMatchesItsExpectedReport() throws {
        let examples = CLI.packageRoot.appendingPathComponent("Examples")
        let dirs = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
        XCTAssertGreaterThanOrEqual(dirs.count, 5)
        // Examples/ci holds CI recipes, not a case; the schema is a file.
        for name in dirs where name != "ci" && !name.hasSuffix(".json") {
            let dir = examples.appendingPathComponent(name)
            let expectedURL = dir.appendingPathComponent("expected.txt")
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            let r = try CLI.run(["lint", "."], in: dir)
            XCTAssertEqual(r.stdout, expected, "Examples/\(name): report differs from expected.txt")
            let hasErrors = expected.contains(": error: ")
            XCTAssertEqual(r.status, hasErrors ? 1 : 0, "Examples/\(name): exit status; stderr: \(r.stderr)")
        }
    }

    /// The examples hold profiles: linted on the real date (not the date the other tests pin),
    /// they still give their expected reports, so the README's first command keeps working.
    func testEveryExampleMatchesItsExpectedReportToday() throws {
        let examples = CLI.packageRoot.appendingPathComponent("Examples")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() where name != "ci" && !name.hasSuffix(".json") {
            let dir = examples.appendingPathComponent(name)
            let expected = try String(contentsOf: dir.appendingPathComponent("expected.txt"), encoding: .utf8)
            // An empty ENTITLINT_NOW is not a date: the run takes the system clock.
            let r = try CLI.run(["lint", "."], in: dir, environment: ["ENTITLINT_NOW": ""])
            XCTAssertEqual(r.stdout, expected, "Examples/\(name) linted today")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }

    func testCleanFamilyIsClean() throws {
        let r = try CLI.run(["lint", "."], in: CLI.packageRoot.appendingPathComponent("Examples/family"))
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasSuffix("4 files checked: no problems found\n"), r.stdout)
    }

    func testExampleRulesAreTheOnesNamed() throws {
        let cases = ["cookbook-wildcard": "wildcard-access-group", "team-prefix-mismatch": "team-prefix-mismatch",
                     "legacy-prefix": "team-prefix-mismatch", "bundle-id-change": "default-group-drift"]
        for (dir, rule) in cases {
            let r = try CLI.run(["lint", "."], in: CLI.packageRoot.appendingPathComponent("Examples/\(dir)"))
            XCTAssertTrue(r.stdout.contains("[\(rule)]"), "\(dir) should report \(rule):\n\(r.stdout)")
        }
    }
}
