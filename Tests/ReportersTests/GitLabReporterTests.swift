import Foundation
import XCTest
import EntitlintCore
@testable import Reporters

final class GitLabReporterTests: XCTestCase {
    func issues(_ report: Report) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(GitLabReporter().render(report).utf8)) as? [[String: Any]])
    }

    func testIssueShape() throws {
        let all = try issues(ReportFixtures.hostile)
        XCTAssertEqual(all.count, 4)
        let wildcard = try XCTUnwrap(all.first { $0["check_name"] as? String == "wildcard-access-group" })
        XCTAssertEqual(wildcard["description"] as? String, ReportFixtures.wildcard.message + " [wildcard-access-group]")
        XCTAssertEqual(wildcard["severity"] as? String, "critical")
        XCTAssertEqual(wildcard["type"] as? String, "issue")
        let location = try XCTUnwrap(wildcard["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "My App/App Store.entitlements")
        XCTAssertEqual((location["lines"] as? [String: Int])?["begin"], 7)
    }

    func testSeverityMappingAndLineForProfiles() throws {
        let all = try issues(ReportFixtures.hostile)
        let byRule = Dictionary(uniqueKeysWithValues: all.map { ($0["check_name"] as! String, $0) })
        XCTAssertEqual(byRule["duplicate-key"]?["severity"] as? String, "major")
        XCTAssertEqual(byRule["comment-in-plist"]?["severity"] as? String, "info")
        let profile = try XCTUnwrap(byRule["parse-error"]?["location"] as? [String: Any])
        XCTAssertEqual((profile["lines"] as? [String: Int])?["begin"], 1, "GitLab places every issue on a line")
    }

    func testFingerprintsAreUniqueAndLineIndependent() throws {
        let a = Finding(rule: "comment-in-plist", severity: .note, message: "one", path: "A.entitlements", line: 3, column: 1)
        let b = Finding(rule: "comment-in-plist", severity: .note, message: "two", path: "A.entitlements", line: 8, column: 1)
        let first = try issues(Report(findings: [a, b], files: 1)).compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(Set(first).count, 2, "same rule and key path twice: still two fingerprints")
        let moved = try issues(Report(findings: [ReportFixtures.moved(a, line: 13), ReportFixtures.moved(b, line: 20)], files: 1))
            .compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(first, moved, "lines moved, fingerprints kept")

        let all = try issues(ReportFixtures.hostile).compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(Set(all).count, all.count)
    }

    func testRepositoryPathsAndEmptyReport() throws {
        var report = Report(findings: [ReportFixtures.wildcard], files: 1)
        report.sourceRoot = SourceRoot(root: "/r", currentDirectory: "/r/sub")
        let location = try XCTUnwrap(try issues(report).first?["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "sub/My App/App Store.entitlements")
        XCTAssertEqual(GitLabReporter().render(ReportFixtures.clean), "[]\n")
    }
}
