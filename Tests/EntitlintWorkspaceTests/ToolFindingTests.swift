import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import EntitlintRules
import PropertyList

/// The linter's own findings about a run carry ids of their own: a file it could not read, one
/// a limit left unread, a link it would not follow; a file that does not parse stays
/// `parse-error`. Each is an error, accepted by `--ignore`, and never silenced by a directive.
final class ToolFindingTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    static let good = "<plist version=\"1.0\"><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)*</string></array></dict></plist>\n"

    func lint(_ paths: [String], in dir: URL, overrides: [String: Configuration.RuleSetting] = [:],
              _ configure: (inout LintOptions) -> Void = { _ in }) throws -> [Finding] {
        var options = LintOptions()
        options.paths = paths
        options.readLock = false
        configure(&options)
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        return try Linter(rules: RuleRegistry.all, severityOverrides: overrides).lint(options).findings
    }

    func testADeviceIsAnUnreadablePathAndABrokenFileAParseError() throws {
        let dir = try temporaryDirectory()
        try Self.good.write(to: dir.appendingPathComponent("Good.entitlements"), atomically: true, encoding: .utf8)
        try "<plist><dict><key>a</key></plist>".write(to: dir.appendingPathComponent("Broken.entitlements"), atomically: true, encoding: .utf8)
        let findings = try lint(["/dev/null", "Broken.entitlements", "Good.entitlements"], in: dir)
        let device = try XCTUnwrap(findings.first { $0.path == "/dev/null" }, "\(findings)")
        XCTAssertEqual(device.rule, "unreadable-path")
        XCTAssertEqual(device.severity, .error)
        XCTAssertNil(device.location)
        XCTAssertTrue(device.message.contains("not a regular file"), device.message)
        XCTAssertEqual(findings.first { $0.path == "Broken.entitlements" }?.rule, "parse-error")
        XCTAssertTrue(findings.contains { $0.rule == "wildcard-access-group" }, "the rest of the run goes on")
    }

    func testAFileOverTheSizeLimitIsAReadLimitFinding() throws {
        let dir = try temporaryDirectory()
        try Self.good.write(to: dir.appendingPathComponent("Big.entitlements"), atomically: true, encoding: .utf8)
        let findings = try lint(["Big.entitlements"], in: dir) { $0.limits.maxBytes = 20 }
        XCTAssertEqual(findings.map(\.rule), ["read-limit"])
        XCTAssertTrue(findings[0].message.contains("larger than the limit of 20 bytes"), findings[0].message)
    }

    func testALinkLeadingOutOfTheWalkedProjectIsLinkOutsideRoot() throws {
        let top = try temporaryDirectory()
        let project = top.appendingPathComponent("project"), outside = top.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Self.good.write(to: outside.appendingPathComponent("secret.entitlements"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("Leak.entitlements").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.entitlements").path)
        let findings = try lint(["."], in: project)
        XCTAssertEqual(findings.map(\.rule), ["link-outside-root"])
        XCTAssertEqual(findings.first?.path, "Leak.entitlements")
        // Ignored, it is gone, and nothing else is reported: the link is still not followed.
        XCTAssertEqual(try lint(["."], in: project, overrides: ["link-outside-root": .off]), [])
    }

    func testNoDirectiveSilencesAToolFindingAndOneNamingItIsReported() throws {
        let dir = try temporaryDirectory()
        let text = "<plist version=\"1.0\"><dict>\n<!-- entitlint:disable-file unreadable-path: not a line -->\n<key>k</key><true/></dict></plist>\n"
        try text.write(to: dir.appendingPathComponent("A.entitlements"), atomically: true, encoding: .utf8)
        let findings = try lint(["A.entitlements"], in: dir)
        let unused = try XCTUnwrap(findings.first { $0.rule == "unused-suppression" }, "\(findings)")
        XCTAssertTrue(unused.message.contains("names unreadable-path, which no directive suppresses"), unused.message)
        let doc = try PropertyListReader.parse(Array("<plist><dict>\n<!-- entitlint:disable-file findings-truncated, comment-in-plist: x -->\n</dict></plist>".utf8))
        let suppression = try XCTUnwrap(SuppressionSet(document: doc))
        XCTAssertNil(suppression.directive(suppressing: Finding(rule: "findings-truncated", severity: .error, message: "m", path: "A", line: 2)))
        XCTAssertNotNil(suppression.directive(suppressing: Finding(rule: "comment-in-plist", severity: .note, message: "m", path: "A", line: 2)),
                        "the same directive silences a rule about the file")
    }

    func testEveryToolFindingIdIsARuleOfTheCatalogue() {
        for id in ToolFindings.ids {
            XCTAssertNotNil(RuleRegistry.rule(id: id), id)
            XCTAssertEqual(RuleRegistry.rule(id: id).map { type(of: $0).description.category }, .tool, id)
        }
    }
}
