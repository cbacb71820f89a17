import Foundation
import XCTest
import EntitlintCore
@testable import Reporters

final class ReportPlanTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func planError(_ reports: [String], format: String = "text") -> String? {
        do {
            _ = try ReportPlan(format: format, reports: reports)
            return nil
        } catch {
            return error.description
        }
    }

    func testEveryFormatIsRegistered() {
        XCTAssertEqual(Reporters.identifiers, ["text", "json", "sarif", "junit", "checkstyle", "github", "gitlab"])
    }

    func testReportSpecifications() throws {
        let dir = try temporaryDirectory()
        let plan = try ReportPlan(format: "text", reports: ["sarif:\(dir.path)/a.sarif", "junit:\(dir.path)/b:c.xml"])
        XCTAssertEqual(plan.files.map(\.path), ["\(dir.path)/a.sarif", "\(dir.path)/b:c.xml"], "split at the first colon")
        XCTAssertEqual(plan.files.map { type(of: $0.reporter).identifier }, ["sarif", "junit"])
        XCTAssertTrue(plan.needsRules && plan.needsCheckedPaths && plan.usesRepositoryPaths)
        XCTAssertFalse(try ReportPlan(format: "text", reports: []).usesRepositoryPaths)

        XCTAssertEqual(planError([], format: "xml"), "unknown format 'xml' (known: text, json, sarif, junit, checkstyle, github, gitlab)")
        XCTAssertEqual(planError(["sarif"]), "--report expects FORMAT:PATH, e.g. sarif:entitlint.sarif (got 'sarif')")
        XCTAssertEqual(planError(["xml:out.xml"]), "--report xml:out.xml: unknown format 'xml' (known: text, json, sarif, junit, checkstyle, github, gitlab)")
        XCTAssertEqual(planError(["sarif:"]), "--report sarif:: no path after 'sarif:'")
        XCTAssertEqual(planError(["sarif:\(dir.path)"]), "--report sarif:\(dir.path): \(dir.path) is a folder")
        XCTAssertEqual(planError(["sarif:\(dir.path)/no/such/x.sarif"]),
                       "--report sarif:\(dir.path)/no/such/x.sarif: cannot write \(dir.path)/no/such/x.sarif: no such folder \(dir.path)/no/such")
        XCTAssertEqual(planError(["sarif:\(dir.path)/x", "junit:\(dir.path)/x"]), "--report junit:\(dir.path)/x: \(dir.path)/x is named by another --report too")
    }

    func testWritesEveryFileWithoutColourAndWithSummary() throws {
        let dir = try temporaryDirectory()
        let plan = try ReportPlan(format: "text", reports: ["text:\(dir.path)/out.txt", "gitlab:\(dir.path)/gl.json"])
        var report = Report(findings: [ReportFixtures.wildcard], files: 1, colour: true, showSummary: false)
        report.paths = ["My App/App Store.entitlements"]
        try plan.writeFiles(report)
        let text = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
        XCTAssertFalse(text.contains("\u{1B}["))
        XCTAssertTrue(text.hasSuffix("1 file checked: 1 error, 0 warnings, 0 notes\n"), "--quiet is about the console")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("gl.json").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["gl.json", "out.txt"], "no temporary files left")
    }

    func testColourChoice() {
        XCTAssertTrue(ColorChoice.auto.enabled(isTerminal: true, noColor: nil))
        XCTAssertTrue(ColorChoice.auto.enabled(isTerminal: true, noColor: ""), "NO_COLOR set but empty does not count")
        XCTAssertFalse(ColorChoice.auto.enabled(isTerminal: true, noColor: "1"))
        XCTAssertFalse(ColorChoice.auto.enabled(isTerminal: false, noColor: nil))
        XCTAssertTrue(ColorChoice.always.enabled(isTerminal: false, noColor: "1"), "an explicit flag overrides NO_COLOR")
        XCTAssertFalse(ColorChoice.never.enabled(isTerminal: true, noColor: nil))
    }

    func testQuietTextHasNoSummary() {
        XCTAssertEqual(TextReporter().render(Report(findings: [], files: 1, showSummary: false)), "")
        let f = Finding(rule: "r", severity: .error, message: "m", path: "A", line: 1, column: 2)
        XCTAssertEqual(TextReporter().render(Report(findings: [f], files: 1, showSummary: false)), "A:1:2: error: m [r]\n")
    }

}
