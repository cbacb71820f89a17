import Foundation
import XCTest

/// `lint --statistics`: counts per rule instead of the findings, the same exit status.
final class StatisticsCLITests: XCTestCase {
    func testCountsPerRuleMostFrequentFirstWithTheSameExitStatus() throws {
        let dir = try CLI.temporaryDirectory(self)
        for name in ["A", "B"] {
            try CLI.entitlements(["*", "*"]).write(to: dir.appendingPathComponent("\(name).entitlements"), atomically: true, encoding: .utf8)
        }
        try CLI.entitlements(["ABCDE12345.com.example.C", "ABCDE12345.com.example.C"])
            .write(to: dir.appendingPathComponent("C.entitlements"), atomically: true, encoding: .utf8)
        let plain = try CLI.run(["lint", "."], in: dir)
        let counted = Dictionary(grouping: plain.stdout.split(separator: "\n").filter { $0.hasSuffix("]") }) {
            String($0[$0.index(after: $0.lastIndex(of: "[")!)...].dropLast())
        }.mapValues(\.count)
        XCTAssertEqual(counted, ["wildcard-access-group": 4, "duplicate-access-group": 3])

        for args in [["lint", "--statistics", "."], ["--statistics", "--", "."]] {   // fast path, then after `--`
            let r = try CLI.run(args, in: dir)
            XCTAssertEqual(r.status, plain.status, "\(args)")
            let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            XCTAssertEqual(lines.count, 3, r.stdout)
            XCTAssertEqual(lines[0].prefix(3), ["4", "wildcard-access-group", "error"])
            XCTAssertEqual(lines[1].prefix(3), ["3", "duplicate-access-group", "warning"])
            XCTAssertEqual(String(r.stdout.split(separator: "\n")[2]), String(plain.stdout.split(separator: "\n").last!), "the summary line")
        }
        let quiet = try CLI.run(["lint", "--statistics", "--quiet", "."], in: dir)
        XCTAssertEqual(quiet.stdout.split(separator: "\n").count, 2, "no summary line with --quiet")
    }

    func testOtherConsoleFormatsAreRefused() throws {
        let dir = try CLI.temporaryDirectory(self)
        let r = try CLI.run(["lint", "--statistics", "--format", "json", "."], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--statistics prints a text table"), r.stderr)
    }
}
