import Foundation
import XCTest

/// A repository linted in CI may name any path in its project files and its configuration. Each
/// test plants a secret outside the project (a file holding `marker`), points the repository at it
/// one way, and checks that the run names the reference, reads nothing of the secret and prints
/// none of it: on standard output and standard error, in the text, json and sarif formats, and in
/// `entitlint report` (which prints every fact of every unit).
final class ConfinementTests: XCTestCase, WritesFixtures {
    /// Looks like a Team ID, so a value taken from a secret file would be shown as the team.
    static let marker = "QZSECRET42"
    static let secretText = """
        SECRET_TOKEN=\(marker)-token
        LEAKED_TEAM=\(marker)
        \(marker) this line is not xcconfig syntax
        key: [unclosed \(marker)
        \t\(marker): : :

        """

    struct Layout {
        /// `tmp/work/repo`: a git work tree holding a copy of Examples/AppSuite.
        var repo: URL
        /// `tmp/outside`: the secrets.
        var outside: URL
        var top: URL
    }

    func makeLayout() throws -> Layout {
        let top = try CLI.temporaryDirectory(self)
        let repo = top.appendingPathComponent("work/repo")
        let outside = top.appendingPathComponent("outside")
        let fm = FileManager.default
        try fm.createDirectory(at: repo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: repo)
        try CLI.git(["init", "-q"], in: repo, environment: [:])
        for name in ["secret.xcconfig", "secret.yml", "env"] {
            try Self.secretText.write(to: outside.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try Self.secretText.write(to: top.appendingPathComponent("work/secret.xcconfig"), atomically: true, encoding: .utf8)
        try CLI.entitlements(["\(Self.marker).group"]).write(to: outside.appendingPathComponent("secret.entitlements"), atomically: true, encoding: .utf8)
        return Layout(repo: repo, outside: outside, top: top)
    }


    func edit(_ path: String, in dir: URL, _ change: (String) -> String) throws {
        let url = dir.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = change(text)
        XCTAssertNotEqual(changed, text, "the edit of \(path) changed nothing")
        try changed.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Runs `lint` in the text, json and sarif formats and `report` in text and json; checks the
    /// exit status of `lint`, that `marker` appears in no output, and that the text output names
    /// `reference`.
    func assertConfined(_ dir: URL, args: [String] = [], status: Int32, names reference: String,
                        environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws {
        var text = ""
        for format in ["text", "json", "sarif"] {
            let r = try CLI.run(["lint"] + args + ["--no-user-profiles", "--format", format], in: dir, environment: environment)
            XCTAssertEqual(r.status, status, "lint --format \(format):\n\(r.stdout)\n\(r.stderr)", file: file, line: line)
            XCTAssertFalse(r.stdout.contains(Self.marker) || r.stderr.contains(Self.marker),
                           "lint --format \(format) printed the secret:\n\(r.stdout)\n\(r.stderr)", file: file, line: line)
            if format == "text" { text = r.stdout + r.stderr }
        }
        for format in ["text", "json"] {
            let r = try CLI.run(["report"] + args + ["--no-user-profiles", "--format", format], in: dir, environment: environment)
            XCTAssertFalse(r.stdout.contains(Self.marker) || r.stderr.contains(Self.marker),
                           "report --format \(format) printed the secret:\n\(r.stdout)\n\(r.stderr)", file: file, line: line)
        }
        XCTAssertTrue(text.contains(reference), "the output does not name \(reference):\n\(text)", file: file, line: line)
    }

    // MARK: - XcodeGen

    func spec(include: String) -> String {
        """
        name: App
        include: ["\(include)"]
        targets:
          App:
            type: application
            platform: iOS
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.app
              DEVELOPMENT_TEAM: ABCDE12345
            entitlements:
              path: AppOne/AppOne.entitlements

        """
    }

    func testXcodeGenIncludeOfAnAbsolutePathOutsideIsNotRead() throws {
        let l = try makeLayout()
        let secret = l.outside.appendingPathComponent("secret.yml").path
        try write(spec(include: secret), "project.yml", in: l.repo)
        try assertConfined(l.repo, status: 1, names: "include: \(secret) is outside the project root")
    }

    func testXcodeGenIncludeOfProcSelfEnvironIsNotRead() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/environ") else {
            throw XCTSkip("no /proc/self/environ on this system (Linux only)")
        }
        let l = try makeLayout()
        try write(spec(include: "/proc/self/environ"), "project.yml", in: l.repo)
        try assertConfined(l.repo, status: 1, names: "include: /proc/self/environ is outside the project root",
                           environment: ["ENTITLINT_PLANTED_TOKEN": Self.marker])
    }

    // MARK: - xcconfig

    func testXcconfigIncludeOfAnAbsolutePathOutsideIsNotRead() throws {
        let l = try makeLayout()
        let secret = l.outside.appendingPathComponent("secret.xcconfig").path
        try edit("Config/Shared.xcconfig", in: l.repo) { $0 + "#include \"\(secret)\"\n" }
        try assertConfined(l.repo, status: 1, names: "Config/Shared.xcconfig:15:1: error: #include \"\(secret)\" names a file outside the project root")
    }

    func testXcconfigIncludeClimbingOutWithDotDotIsNotRead() throws {
        let l = try makeLayout()
        try edit("Config/Shared.xcconfig", in: l.repo) { $0 + "#include \"../../secret.xcconfig\"\n" }
        try assertConfined(l.repo, status: 1, names: "#include \"../../secret.xcconfig\" names a file outside the project root")
    }

    func testOptionalIncludeOutsideIsTakenAsAbsentUnread() throws {
        let l = try makeLayout()
        try edit("Config/Shared.xcconfig", in: l.repo) { $0 + "#include? \"../../secret.xcconfig\"\nDEVELOPMENT_TEAM = $(LEAKED_TEAM)\n" }
        // Nothing is read: the team is the empty setting, not the secret.
        let r = try CLI.run(["report", "--no-user-profiles", "--format", "json"], in: l.repo)
        XCTAssertFalse(r.stdout.contains(Self.marker) || r.stderr.contains(Self.marker), r.stdout + r.stderr)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testGitFolderOfTheWorkTreeIsOutsideTheRoot() throws {
        let l = try makeLayout()
        // A checkout's .git/config can hold a token (http.extraheader, a remote URL).
        try write("[http]\n\textraheader = AUTHORIZATION: basic \(Self.marker)\nTOKEN = \(Self.marker)\n", ".git/config", in: l.repo)
        try edit("Config/Shared.xcconfig", in: l.repo) { $0 + "#include \"../.git/config\"\nDEVELOPMENT_TEAM = $(TOKEN)\n" }
        try assertConfined(l.repo, status: 1, names: "#include \"../.git/config\" names a file outside the project root")
    }

    func testCommittedSymlinkToAFileOutsideIsNotFollowed() throws {
        let l = try makeLayout()
        let shared = l.repo.appendingPathComponent("Config/Shared.xcconfig")
        try FileManager.default.removeItem(at: shared)
        try FileManager.default.createSymbolicLink(atPath: shared.path, withDestinationPath: l.outside.appendingPathComponent("secret.xcconfig").path)
        try assertConfined(l.repo, status: 1, names: "the base configuration Config/Shared.xcconfig is outside the project root")
    }

    func testSymlinkedFolderLeadingOutsideIsNotFollowed() throws {
        let l = try makeLayout()
        let config = l.repo.appendingPathComponent("Config")
        try FileManager.default.removeItem(at: config)
        try Self.secretText.write(to: l.outside.appendingPathComponent("Shared.xcconfig"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: l.outside.path)
        try assertConfined(l.repo, status: 1, names: "the base configuration Config/Shared.xcconfig is outside the project root")
    }

    /// Replaces `old` by `new(secretPath)` in the repository's `path`, the secret being the file
    /// `secret` outside, and checks the run (status 1) names `reference(secretPath)`.
    func assertReplacementConfined(_ path: String, _ old: String, secret: String, _ new: (String) -> String,
                                   names reference: (String) -> String, file: StaticString = #filePath, line: UInt = #line) throws {
        let l = try makeLayout()
        let secretPath = l.outside.appendingPathComponent(secret).path
        try edit(path, in: l.repo) { $0.replacingOccurrences(of: old, with: new(secretPath)) }
        try assertConfined(l.repo, status: 1, names: reference(secretPath), file: file, line: line)
    }

    func testBaseConfigurationReferenceOutsideIsNotRead() throws {
        try assertReplacementConfined("AppSuite.xcodeproj/project.pbxproj", "path = Shared.xcconfig; sourceTree = \"<group>\";",
                                      secret: "secret.xcconfig", { "path = \"\($0)\"; sourceTree = \"<absolute>\";" },
                                      names: { "the base configuration \($0) is outside the project root" })
    }

    func testTeamIDFromAnIncludeOutsideIsNeverShown() throws {
        try assertReplacementConfined("Config/Shared.xcconfig", "DEVELOPMENT_TEAM = ABCDE12345",
                                      secret: "env", { "#include \"\($0)\"\nDEVELOPMENT_TEAM = $(LEAKED_TEAM)" },
                                      names: { "#include \"\($0)\" names a file outside the project root" })
    }

    func testCodeSignEntitlementsOutsideIsNotRead() throws {
        try assertReplacementConfined("AppSuite.xcodeproj/project.pbxproj", "CODE_SIGN_ENTITLEMENTS = AppOne/AppOne.entitlements;",
                                      secret: "secret.entitlements", { "CODE_SIGN_ENTITLEMENTS = \"\($0)\";" },
                                      names: { "CODE_SIGN_ENTITLEMENTS of target AppOne names \($0), outside the project root" })
    }

    func testAFileInsideOfAnotherKindNamedAsEntitlementsIsNotQuoted() throws {
        let l = try makeLayout()
        try write("SECRET_TOKEN=\(Self.marker)\n", "Config/values.env", in: l.repo)
        try edit("AppSuite.xcodeproj/project.pbxproj", in: l.repo) {
            $0.replacingOccurrences(of: "CODE_SIGN_ENTITLEMENTS = AppOne/AppOne.entitlements;", with: "CODE_SIGN_ENTITLEMENTS = Config/values.env;")
        }
        try assertConfined(l.repo, status: 1, names: "Config/values.env:1:1: error: cannot parse property list: not a property list (the file is not named .entitlements, .xcent or .plist, so none of it is shown)")
    }

    func testConfigurationErrorsQuoteAShortExcerpt() throws {
        let l = try makeLayout()
        let key = "k\u{202E}" + String(repeating: "x", count: 300)
        try "\(key): 1\n".write(to: l.repo.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "--no-user-profiles"], in: l.repo)
        XCTAssertEqual(r.status, 2, r.stderr)
        let quoted = try XCTUnwrap(r.stderr.split(separator: "'").dropFirst().first, r.stderr)
        XCTAssertEqual(quoted.count, 80, r.stderr)
        XCTAssertTrue(quoted.hasPrefix("k\\u{202e}xxx") && quoted.hasSuffix("..."), r.stderr)
    }

    func testWalkedEntitlementsSymlinkLeadingOutsideIsNotFollowed() throws {
        let l = try makeLayout()
        try FileManager.default.createSymbolicLink(atPath: l.repo.appendingPathComponent("Leak.entitlements").path,
                                                   withDestinationPath: l.outside.appendingPathComponent("secret.entitlements").path)
        try assertConfined(l.repo, status: 1, names: "Leak.entitlements: error: a symbolic link that leads outside the project root: not followed")
        // Named on the command line, the same link is the user's choice, and is read.
        let r = try CLI.run(["report", "--no-user-profiles", "Leak.entitlements"], in: l.repo)
        XCTAssertTrue(r.stdout.contains(Self.marker), r.stdout + r.stderr)
    }

    // MARK: - Workspaces and configurations

    func testWorkspaceNamingAProjectOutsideIsNotRead() throws {
        let l = try makeLayout()
        let other = l.top.appendingPathComponent("work/other")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite"), to: other)
        try edit("AppSuite.xcodeproj/project.pbxproj", in: other) { $0.replacingOccurrences(of: "AppOne", with: Self.marker) }
        try FileManager.default.removeItem(at: l.repo.appendingPathComponent("AppSuite.xcodeproj"))
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:../../other/AppSuite.xcodeproj"></FileRef>
            </Workspace>

            """, "Workspaces/App.xcworkspace/contents.xcworkspacedata", in: l.repo)
        try assertConfined(l.repo, status: 1, names: "the workspace names group:../../other/AppSuite.xcodeproj, outside the project root")
    }

    func testConfigurationProfilesAtTheFileSystemRootAreRefused() throws {
        let l = try makeLayout()
        try "profiles: [\"/\"]\n".write(to: l.repo.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        try assertConfined(l.repo, status: 2, names: "profiles: / is outside the project root")
    }

    func testConfigurationProfilesClimbingOutAreRefused() throws {
        let l = try makeLayout()
        try Data("not a profile \(Self.marker)".utf8).write(to: l.outside.appendingPathComponent("\(Self.marker).mobileprovision"))
        try "profiles: [\"../../outside\"]\n".write(to: l.repo.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        try assertConfined(l.repo, status: 2, names: "profiles: ../../outside is outside the project root")
        // The same folder given on the command line is the user's choice, and is searched.
        try FileManager.default.removeItem(at: l.repo.appendingPathComponent(".entitlint.yml"))
        let r = try CLI.run(["lint", "--no-user-profiles", "--profiles", l.outside.path], in: l.repo)
        XCTAssertTrue(r.stdout.contains("\(Self.marker).mobileprovision"), r.stdout + r.stderr)
    }

    /// A home folder whose standard profile folder holds a broken profile and one (bare XML, so
    /// unsigned) that pairs with AppOne. Locally, the pairing one is used (its expiry reported, its
    /// being unsigned said in a notice) and the broken one is not named anywhere: it is the
    /// developer's, not the project's. With `--no-user-profiles`, or on CI (`CI` or
    /// `GITHUB_ACTIONS` set), the folder is not searched at all.
    func testUserProfilesArePairedLocallyAndNeverSearchedOnCI() throws {
        let l = try makeLayout()
        let home = l.top.appendingPathComponent("home")
        let folder = home.appendingPathComponent("Library/MobileDevice/Provisioning Profiles")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a profile \(Self.marker)".utf8).write(to: folder.appendingPathComponent("\(Self.marker).mobileprovision"))
        let profile = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>Name</key><string>HomeProfile</string>
            <key>UUID</key><string>11111111-2222-3333-4444-555555555555</string>
            <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
            <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
            <key>CreationDate</key><date>2019-01-01T00:00:00Z</date>
            <key>ExpirationDate</key><date>2020-01-01T00:00:00Z</date>
            <key>Platform</key><array><string>iOS</string></array>
            <key>Entitlements</key><dict>
            <key>application-identifier</key><string>ABCDE12345.com.example.AppOne</string>
            <key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array>
            </dict></dict></plist>
            """
        try profile.write(to: folder.appendingPathComponent("Home.mobileprovision"), atomically: true, encoding: .utf8)
        let local = ["HOME": home.path, "CI": "", "GITHUB_ACTIONS": ""]
        let searched = try CLI.run(["lint"], in: l.repo, environment: local)
        XCTAssertTrue(searched.stdout.contains("Home.mobileprovision") && searched.stdout.contains("[profile-expired]"), searched.stdout)
        XCTAssertTrue(searched.stderr.contains("notice: this profile is not signed"), searched.stderr)
        XCTAssertFalse(searched.stdout.contains(Self.marker) || searched.stderr.contains(Self.marker), searched.stdout + searched.stderr)
        let report = try CLI.run(["report", "--format", "json"], in: l.repo, environment: local)
        XCTAssertFalse(report.stdout.contains(Self.marker), report.stdout)

        for environment in [local.merging(["CI": "true"]) { $1 }, local.merging(["GITHUB_ACTIONS": "true"]) { $1 }] {
            for args in [["lint"], ["report", "--format", "json"]] {
                let r = try CLI.run(args, in: l.repo, environment: environment)
                XCTAssertFalse(r.stdout.contains("Home.mobileprovision") || r.stderr.contains("Home.mobileprovision"), "\(environment): \(r.stdout)\(r.stderr)")
                XCTAssertFalse(r.stdout.contains(home.path) || r.stderr.contains(home.path), r.stdout + r.stderr)
            }
        }
        let skipped = try CLI.run(["lint", "--no-user-profiles"], in: l.repo, environment: local)
        XCTAssertEqual(skipped.status, 0, skipped.stdout + skipped.stderr)
        XCTAssertFalse(skipped.stdout.contains("Home.mobileprovision") || skipped.stderr.contains(Self.marker), skipped.stdout + skipped.stderr)
    }

    // MARK: - What messages quote

    func testParseErrorsQuoteAShortExcerptOfAnXcconfigOnly() throws {
        let l = try makeLayout()
        let long = "NOT_A_SETTING_LINE \u{1b}[31m" + String(repeating: "x", count: 500)
        try write(long + "\n", "Config/Long.xcconfig", in: l.repo)
        try write("\(Self.marker) is not xcconfig syntax\n", "Config/values.txt", in: l.repo)
        try edit("Config/Shared.xcconfig", in: l.repo) { $0 + "#include \"Long.xcconfig\"\n#include \"values.txt\"\n" }
        let r = try CLI.run(["lint", "--no-user-profiles", "--format", "json"], in: l.repo)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let findings = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
        let messages = findings.filter { ($0["path"] as? String)?.hasPrefix("Config/") == true }.compactMap { $0["message"] as? String }
        let excerpt = try XCTUnwrap(messages.first { $0.contains("NOT_A_SETTING_LINE") }, "\(messages)")
        let quoted = try XCTUnwrap(excerpt.range(of: ": NOT_A_SETTING_LINE")).upperBound
        XCTAssertLessThanOrEqual(excerpt[quoted...].count + "NOT_A_SETTING_LINE".count, 80, excerpt)
        XCTAssertFalse(excerpt.contains("\u{1b}"), excerpt)
        XCTAssertTrue(messages.contains { $0 == "not an xcconfig line (expected NAME = value, #include or a // comment)" }, "\(messages)")
        XCTAssertFalse(r.stdout.contains(Self.marker), r.stdout)
    }
}
