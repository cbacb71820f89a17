import Foundation
import XCTest

/// `lint` and `report` on Xcode projects, through the built CLI.
final class XcodeProjectCLITests: XCTestCase {
    var appSuite: URL { CLI.packageRoot.appendingPathComponent("Examples/AppSuite") }

    /// `entitlint report` in Examples/AppSuite, in every format with a golden file.
    func testAppSuiteReportsMatchTheirExpectedFiles() throws {
        for (format, ext) in [("text", "txt"), ("markdown", "md"), ("json", "json"), ("dot", "dot")] {
            let expected = try String(contentsOf: appSuite.appendingPathComponent("expected-report.\(ext)"), encoding: .utf8)
            let r = try CLI.run(["report", "--format", format], in: appSuite)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, expected, "Examples/AppSuite: `entitlint report --format \(format)` differs from expected-report.\(ext)")
        }
    }

    func testTextReportFitsInAHundredColumns() throws {
        let r = try CLI.run(["report"], in: appSuite)
        for line in r.stdout.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 100, String(line))
        }
        XCTAssertTrue(r.stdout.contains("* ABCDE12345.com.example.AppOne"), r.stdout)
        XCTAssertTrue(r.stdout.contains("none (automatic signing; no matching profile on disk)"), r.stdout)
    }

    func testHTMLReportIsOneSelfContainedFile() throws {
        let dir = try CLI.temporaryDirectory(self)
        let out = dir.appendingPathComponent("report.html")
        let r = try CLI.run(["report", "--format", "html", "-o", out.path], in: appSuite)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let html = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        for external in ["http://", "https://", "<script", "<link", "src=", "url(", "@import"] {
            XCTAssertFalse(html.contains(external), "the page must not load anything: found \(external)")
        }
        for unit in ["AppOne", "ShareExtension", "Widget", "group.com.example.suite", "ABCDE12345.com.example.shared"] {
            XCTAssertTrue(html.contains(unit), unit)
        }
    }

    func testReportRejectsAnUnknownFormat() throws {
        let r = try CLI.run(["report", "--format", "pdf"], in: appSuite)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("unknown report format 'pdf'"), r.stderr)
    }

    func testOneEntitlementsFileInsideTheProject() throws {
        let r = try CLI.run(["lint", "AppTwo/AppTwo.entitlements"], in: appSuite)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "3 files checked: no problems found\n")
        let broken = CLI.packageRoot.appendingPathComponent("Examples/AppSuite-bundle-id-change")
        let b = try CLI.run(["lint", "AppTwo/AppTwo.entitlements"], in: broken)
        XCTAssertEqual(b.status, 1)
        XCTAssertTrue(b.stdout.contains("[default-group-drift]") && b.stdout.contains("(in AppTwo (Release))"), b.stdout)
        // Another file of the same project: only its units are linted, and they did not move.
        let other = try CLI.run(["lint", "AppOne/AppOne.entitlements", "--format", "json"], in: broken)
        XCTAssertEqual(other.status, 0, other.stdout)
    }

    func testProjectFileNamedByAHookIsLinted() throws {
        let broken = CLI.packageRoot.appendingPathComponent("Examples/AppSuite-bundle-id-change")
        let r = try CLI.run(["lint", "AppSuite.xcodeproj/project.pbxproj"], in: broken)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("[default-group-drift]"), r.stdout)
    }

    /// The lock of a copy of the suite, written afresh, is the committed one byte for byte: its
    /// paths are relative to its folder, and its sources name settings, not lines.
    func testLockWritesTheProjectUnits() throws {
        let dir = try CLI.temporaryDirectory(self)
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.copyItem(at: appSuite, to: suite)
        try FileManager.default.removeItem(at: suite.appendingPathComponent("entitlint.lock"))
        let r = try CLI.run(["lock"], in: suite)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("8 units locked"), r.stdout)
        let written = try String(contentsOf: suite.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        let committed = try String(contentsOf: appSuite.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertEqual(written, committed)
        // From another folder, with --lock: the same bytes.
        try FileManager.default.removeItem(at: suite.appendingPathComponent("entitlint.lock"))
        let again = try CLI.run(["lock", "suite", "--lock", "suite/entitlint.lock"], in: dir)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try String(contentsOf: suite.appendingPathComponent("entitlint.lock"), encoding: .utf8), committed)
    }

    func testProfilesOptionOnBothCommandLinePaths() throws {
        // `lint --profiles` is read by the fast path, `report --profiles` by ArgumentParser.
        for args in [["lint", "--profiles", "no-such-folder", "."], ["report", "--profiles", "no-such-folder"]] {
            let r = try CLI.run(args, in: appSuite)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stdout)")
            XCTAssertTrue(r.stderr.contains("--profiles: no such folder or file: no-such-folder"), r.stderr)
        }
    }

    /// `--against REV` forms the units again from the project as it was at REV (read from git).
    func testAgainstARevisionReadsTheProjectAsItWas() throws {
        let dir = try CLI.temporaryDirectory(self)
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.copyItem(at: appSuite, to: suite)
        for name in ["entitlint.lock", "expected.txt", "expected-report.txt", "expected-report.md", "expected-report.json", "expected-report.dot"] {
            try? FileManager.default.removeItem(at: suite.appendingPathComponent(name))
        }
        func git(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"] + args
            p.currentDirectoryURL = suite
            p.environment = ProcessInfo.processInfo.environment.merging(GitTests.environment) { $1 }
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "git \(args)")
        }
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "suite"])
        let pbxproj = suite.appendingPathComponent("AppSuite.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: pbxproj, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: "PRODUCT_BUNDLE_IDENTIFIER = \"$(BUNDLE_ID_PREFIX).AppTwo\";\n\t\t\t\t\"PRODUCT_BUNDLE_IDENTIFIER[sdk=iphonesimulator*]\" = \"$(BUNDLE_ID_PREFIX).AppTwo.simulator\";\n\t\t\t\tPRODUCT_NAME = \"$(TARGET_NAME)\";\n\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t\tTARGETED_DEVICE_FAMILY = 1;\n\t\t\t};\n\t\t\tname = Release;",
                                                with: "PRODUCT_BUNDLE_IDENTIFIER = \"$(BUNDLE_ID_PREFIX).Notes\";\n\t\t\t\tPRODUCT_NAME = \"$(TARGET_NAME)\";\n\t\t\t};\n\t\t\tname = Release;")
        XCTAssertNotEqual(renamed, text)
        try renamed.write(to: pbxproj, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "--against", "HEAD"], in: suite, environment: GitTests.environment)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("at revision HEAD") && r.stdout.contains("com.example.Notes") && r.stdout.contains("[default-group-drift]"), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "[default-group-drift]").count, 2, "only AppTwo (Release) moved: \(r.stdout)")
    }
}
