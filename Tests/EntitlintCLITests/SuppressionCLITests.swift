import Foundation
import XCTest

/// `--select`/`--ignore` (on the fast path and the ArgumentParser path alike), `per-file-ignores`,
/// and what reaches output from inline directives.
final class SuppressionCLITests: XCTestCase {
    /// A file with a wildcard (error) and a duplicate (warning).
    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try CLI.entitlements(["*", "*"]).write(to: dir.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        return dir
    }

    func rules(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
    }

    func testSelectAndIgnoreAgreeOnBothCommandLinePaths() throws {
        let dir = try project()
        let all = try CLI.run(["lint", "App.entitlements"], in: dir)
        XCTAssertEqual(Set(rules(all.stdout)), ["wildcard-access-group", "duplicate-access-group"])
        // `--select X` is read by the fast path, `--select=X` by ArgumentParser.
        for args in [["--select", "duplicate-access-group"], ["--select=duplicate-access-group"]] {
            let r = try CLI.run(["lint", "App.entitlements"] + args, in: dir)
            XCTAssertEqual(rules(r.stdout), ["duplicate-access-group"], "\(args)")
            XCTAssertEqual(r.status, 0, "a warning does not fail the run")
        }
        for args in [["--ignore", "duplicate-access-group,wildcard-access-group"], ["--ignore=duplicate-access-group", "--ignore=wildcard-access-group"]] {
            let r = try CLI.run(["lint", "App.entitlements"] + args, in: dir)
            XCTAssertEqual(rules(r.stdout), [], "\(args)")
            XCTAssertEqual(r.status, 0)
        }
    }

    func testUnknownRuleIdsAreUsageErrorsOnBothPaths() throws {
        let dir = try project()
        for args in [["--select", "wildcard-acess-group"], ["--select=wildcard-acess-group"], ["--ignore", "a,wildcard-acess-group"], ["--ignore=wildcard-acess-group"]] {
            let r = try CLI.run(["lint", "App.entitlements"] + args, in: dir)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("(did you mean 'wildcard-access-group'?)") || r.stderr.contains("unknown rule 'a'"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "nothing is linted")
        }
    }

    func testCommandLineSelectReplacesTheConfigurationsIgnore() throws {
        let dir = try project()
        try "ignore: [wildcard-access-group]\nper-file-ignores:\n  \"*.entitlements\": [duplicate-access-group]\n"
            .write(to: dir.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        let configured = try CLI.run(["lint", "App.entitlements"], in: dir)
        XCTAssertEqual(rules(configured.stdout), [])
        XCTAssertEqual(configured.status, 0)
        let selected = try CLI.run(["lint", "App.entitlements", "--select", "wildcard-access-group,duplicate-access-group"], in: dir)
        XCTAssertEqual(rules(selected.stdout), ["wildcard-access-group", "wildcard-access-group"], "select replaces ignore; per-file-ignores still apply")
        XCTAssertEqual(selected.status, 1)
    }

    func testDirectiveTextIsEscapedInTextAndExactInJSON() throws {
        let dir = try CLI.temporaryDirectory(self)
        // XML forbids C0 controls even in comments; a C1 CSI and a bidi override are allowed.
        let hostile = "evil\u{9b}31m\u{202e}rule"
        let file = CLI.entitlements(["$(AppIdentifierPrefix)com.example.a"], extra: "\n\t<!-- entitlint:disable-file \(hostile): reason\u{202e}SECRETREASON -->")
        try file.write(to: dir.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        let text = try CLI.run(["lint", "App.entitlements"], in: dir)
        XCTAssertTrue(text.stdout.contains("unknown rule 'evil\\u{9b}31m\\u{202e}rule'"), text.stdout)
        XCTAssertFalse(text.stdout.contains("\u{9b}") || text.stdout.contains("\u{202e}"))
        XCTAssertFalse(text.stdout.contains("SECRETREASON"), "the reason is never shown")
        let json = try CLI.run(["lint", "App.entitlements", "--format", "json"], in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let messages = (object?["findings"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].contains("'\(hostile)'"), "JSON keeps the value exact")
    }
}
