import Foundation
import XCTest
import YAMLReader

/// git runs with what could execute code turned off, and `entitlint init` writes YAML that says
/// only what it meant, whatever the files it reads hold.
final class GitAndInitSafetyTests: XCTestCase {
    static let environment = ["GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
                              "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                              "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"]

    @discardableResult
    func git(_ args: [String], in dir: URL) throws -> CLI.Result {
        return try CLI.git(args, in: dir, environment: Self.environment)
    }

    /// A repository whose `.git/config` names a file-system monitor hook (a script that creates a
    /// marker file), an external diff and a textconv driver that would do the same.
    func testGitRunsWithTheRepositorysHooksAndDriversNeutralised() throws {
        let dir = try CLI.temporaryDirectory(self)
        let marker = dir.appendingPathComponent("marker-fsmonitor")
        let diffMarker = dir.appendingPathComponent("marker-diff")
        XCTAssertEqual(try git(["init", "-q", "repo"], in: dir).status, 0)
        let repo = dir.appendingPathComponent("repo")
        try CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]).write(to: repo.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try git(["add", "."], in: repo).status, 0)
        XCTAssertEqual(try git(["commit", "-qm", "one"], in: repo).status, 0)

        let hook = dir.appendingPathComponent("fsmonitor.sh")
        try "#!/bin/sh\ntouch '\(marker.path)'\nexit 1\n".write(to: hook, atomically: true, encoding: .utf8)
        let differ = dir.appendingPathComponent("differ.sh")
        try "#!/bin/sh\ntouch '\(diffMarker.path)'\ncat \"$1\"\n".write(to: differ, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)
        chmod(differ.path, 0o755)
        try git(["config", "core.fsmonitor", hook.path], in: repo)
        try git(["config", "diff.external", differ.path], in: repo)
        try git(["config", "diff.plist.textconv", differ.path], in: repo)
        try "*.entitlements diff=plist\n".write(to: repo.appendingPathComponent(".gitattributes"), atomically: true, encoding: .utf8)

        // A change, staged, so that both --staged and --changed-since have a file to lint.
        try CLI.entitlements(["$(AppIdentifierPrefix)*"]).write(to: repo.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try git(["add", "App.entitlements"], in: repo).status, 0)

        // The planted hook does run when git is used as it is configured: the test can tell.
        try? FileManager.default.removeItem(at: marker)
        _ = try git(["status", "--porcelain"], in: repo)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker.path), "the fsmonitor hook ran for plain git")
        try FileManager.default.removeItem(at: marker)

        for args in [["lint", "--staged"], ["lint", "--changed-since", "HEAD"], ["lint", "--against", "HEAD", "."]] {
            let r = try CLI.run(args, in: repo, environment: Self.environment)
            let context = "\(args.joined(separator: " ")): \(r.stdout) \(r.stderr)"
            XCTAssertEqual(r.status, 1, context)
            XCTAssertTrue(r.stdout.contains("wildcard-access-group"), context)
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the fsmonitor hook ran: \(context)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: diffMarker.path), "an external diff or textconv ran: \(context)")
        }
    }

    /// A plist whose application-identifier holds a newline, `: `, `#`, `{`, quotes and a
    /// control character, in a file whose name holds them too: `init` writes YAML that reads back
    /// (with YAMLReader) to exactly the keys and values meant, and nothing else.
    func testInitWritesYAMLThatReadsBackToExactlyTheIntendedValues() throws {
        let dir = try CLI.temporaryDirectory(self)
        let bundle = "com.example.App\nlock: /etc/passwd\n# {x: 1}: \"quoted\" 'single' \u{1B}[31m\u{85}\u{2028}end"
        let fileName = "Evil: #{x}\n- \"q\" \u{1B}.entitlements"
        let plist: [String: Any] = ["application-identifier": "ABCDE12345." + bundle,
                                    "keychain-access-groups": ["ABCDE12345.com.example.App"]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            .write(to: dir.appendingPathComponent(fileName))
        let r = try CLI.run(["init"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent(".entitlint.yml"), encoding: .utf8)
        let node = try XCTUnwrap(try YAMLNode.compose(yaml: text), text)
        let root = try XCTUnwrap(node.mapping, text)
        XCTAssertEqual(root.keys.compactMap(\.string).sorted(), ["apps", "team"], text)
        XCTAssertEqual(root["team"]?.string, "ABCDE12345")
        let apps = try XCTUnwrap(root["apps"]?.sequence, text)
        XCTAssertEqual(apps.count, 1, text)
        let app = try XCTUnwrap(apps.first?.mapping, text)
        XCTAssertEqual(app.keys.compactMap(\.string).sorted(), ["bundle-id", "entitlements", "name"], text)
        XCTAssertEqual(app["entitlements"]?.string, fileName)
        XCTAssertEqual(app["bundle-id"]?.string, bundle)
        XCTAssertEqual(app["name"]?.string, String(fileName.dropLast(".entitlements".count)))
        // The file lints with its own configuration: it is a configuration Entitlint reads.
        let lint = try CLI.run(["lint", "."], in: dir)
        XCTAssertNotEqual(lint.status, 2, lint.stderr)
    }
}
