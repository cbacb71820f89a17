import XCTest

/// `entitlint init` reads the folder's projects first: what a project tells (entitlements file,
/// bundle ID, team) is listed in a comment, never copied into `apps:`; only files no target signs
/// with get an entry, with placeholders that are valid when filled in as written.
final class InitFromProjectTests: XCTestCase {
    func testProjectUnitsAreListedNotCopiedAndLooseFilesGetEntries() throws {
        let dir = try CLI.temporaryDirectory(self)
        let project = dir.appendingPathComponent("Suite")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: project)
        try? FileManager.default.removeItem(at: project.appendingPathComponent(".entitlint.yml"))
        try CLI.entitlements(["$(AppIdentifierPrefix)com.example.tool"])
            .write(to: project.appendingPathComponent("My Tool.entitlements"), atomically: true, encoding: .utf8)
        let sandboxed = CLI.entitlements([], extra: "\n\t<key>com.apple.security.app-sandbox</key>\n\t<true/>")
        try sandboxed.write(to: project.appendingPathComponent("Helper.entitlements"), atomically: true, encoding: .utf8)

        let r = try CLI.run(["init", "Suite"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote Suite/.entitlint.yml: 2 apps, 0 profiles; review it, then run `entitlint lint`\n")
        let text = try String(contentsOf: project.appendingPathComponent(".entitlint.yml"), encoding: .utf8)
        XCTAssertTrue(text.contains("#   AppOne/AppOne.entitlements: AppOne (Debug), AppOne (Release); bundle ID com.example.AppOne; team ABCDE12345\n"), text)
        XCTAssertFalse(text.contains("entitlements: AppOne/AppOne.entitlements"), "a project's file gets no apps: entry:\n\(text)")
        XCTAssertTrue(text.contains("    entitlements: \"My Tool.entitlements\"\n"), text)
        XCTAssertTrue(text.contains("    # bundle-id: com.example.My-Tool "), "no space in a placeholder bundle ID:\n\(text)")
        XCTAssertTrue(text.contains("    # profile: profiles/Helper.provisionprofile\n"), "a macOS file's placeholder is a macOS profile:\n\(text)")
        XCTAssertTrue(text.contains("    # profile: profiles/My Tool.mobileprovision\n"), text)

        // The written file is a configuration lint reads, and it changes nothing the project says.
        let lint = try CLI.run(["lint", "Suite"], in: dir)
        XCTAssertNotEqual(lint.status, 2, lint.stderr)
        XCTAssertFalse(lint.stderr.contains("bad configuration"), lint.stderr)
    }
}
