import Foundation
import XCTest

/// The opt-in `literal-app-id-prefix` as a user runs it: off by default, on when named, and
/// `lint --fix --select literal-app-id-prefix` on a project whose profile states a legacy App ID
/// prefix (Y54WEA9F74, not the team's 7S6YLL52WH).
final class LiteralPrefixFixCLITests: XCTestCase {
    static let spec = """
    name: Legacy
    settings:
      base:
        DEVELOPMENT_TEAM: 7S6YLL52WH
    targets:
      Legacy:
        type: application
        platform: iOS
        settings:
          base:
            PRODUCT_BUNDLE_IDENTIFIER: com.example.legacy
        entitlements:
          path: Legacy/Legacy.entitlements
    """
    static let entitlements = CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "Y54WEA9F74.com.example.shared"])
    static let fixed = entitlements.replacingOccurrences(of: "<string>Y54WEA9F74.com.example.shared", with: "<string>$(AppIdentifierPrefix)com.example.shared")
    static let rule = "literal-app-id-prefix"

    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Legacy"), withIntermediateDirectories: true)
        try Self.spec.write(to: dir.appendingPathComponent("project.yml"), atomically: true, encoding: .utf8)
        try Self.entitlements.write(to: dir.appendingPathComponent("Legacy/Legacy.entitlements"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The legacy team's profile, put in the project (a profile among the inputs pairs with its unit).
    func addProfile(_ dir: URL) throws {
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/legacy-prefix/Legacy.mobileprovision"),
                                         to: dir.appendingPathComponent("Legacy.mobileprovision"))
    }

    func file(_ dir: URL) throws -> String {
        try String(contentsOf: dir.appendingPathComponent("Legacy/Legacy.entitlements"), encoding: .utf8)
    }

    /// The rules of the findings of a JSON report, sorted.
    func rules(_ args: [String], in dir: URL) throws -> [String] {
        let r = try CLI.run(["lint", "--format", "json"] + args, in: dir)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr)
        return try XCTUnwrap(object["findings"] as? [[String: Any]]).compactMap { $0["rule"] as? String }.sorted()
    }

    func testFixWritesTheVariableOnlyWhereTheProfileStatesThePrefix() throws {
        let dir = try project()
        XCTAssertEqual(try rules(["--select", Self.rule, "."], in: dir), [],
                       "without the profile the prefix is only assumed (and the team's is another): nothing to say")
        try addProfile(dir)
        let profile = ["--profile", "Legacy.mobileprovision", "."]
        let before = try rules(profile, in: dir)
        XCTAssertFalse(before.contains(Self.rule), "off by default: \(before)")

        let diff = try CLI.run(["lint", "--diff", "--select", Self.rule] + profile, in: dir)
        XCTAssertEqual(diff.stdout, """
        --- a/Legacy/Legacy.entitlements
        +++ b/Legacy/Legacy.entitlements
        @@ -5,7 +5,7 @@
         \t<key>keychain-access-groups</key>
         \t<array>
         \t\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        -\t\t<string>Y54WEA9F74.com.example.shared</string>
        +\t\t<string>$(AppIdentifierPrefix)com.example.shared</string>
         \t</array>
         </dict>
         </plist>

        """, diff.stderr)
        XCTAssertEqual(try file(dir), Self.entitlements, "--diff writes nothing")

        let fix = try CLI.run(["lint", "--fix", "--select", Self.rule] + profile, in: dir)
        XCTAssertEqual(fix.status, 0, fix.stdout + fix.stderr)
        XCTAssertTrue(fix.stderr.contains("fixed: Legacy/Legacy.entitlements:8: write \"$(AppIdentifierPrefix)com.example.shared\" [literal-app-id-prefix]"), fix.stderr)
        XCTAssertEqual(try file(dir), Self.fixed)
        // Every rule on the fixed file: nothing new (the same rules report, this one no more).
        XCTAssertEqual(try rules(profile, in: dir), before)
        XCTAssertEqual(try rules(["--select", Self.rule] + profile, in: dir), [])

        let again = try CLI.run(["lint", "--fix", "--select", Self.rule] + profile, in: dir)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("nothing to fix"), again.stderr)
        XCTAssertEqual(try file(dir), Self.fixed, "idempotent")
    }

    func testASeverityInTheConfigurationTurnsItOnAndRulesSaysOptIn() throws {
        let dir = try project()
        try addProfile(dir)
        try "rules:\n  literal-app-id-prefix: warning\n".write(to: dir.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "--profile", "Legacy.mobileprovision", "."], in: dir)
        XCTAssertTrue(r.stdout.contains("Legacy/Legacy.entitlements:8:3: warning: [*] keychain access group \"Y54WEA9F74.com.example.shared\" writes the App ID prefix Y54WEA9F74 literally"), r.stdout)
        let list = try CLI.run(["rules"]).stdout
        XCTAssertTrue(list.contains("literal-app-id-prefix") && list.contains("note      [opt-in] A keychain access group"), list)
        XCTAssertTrue(list.contains("[opt-in]: off unless a run names it, e.g. `--select literal-app-id-prefix`"), list)
        // The starter configuration lists every other rule's severity: uncommenting it turns no opt-in rule on.
        let fresh = try CLI.temporaryDirectory(self)
        XCTAssertEqual(try CLI.run(["init"], in: fresh).status, 0)
        let starter = try String(contentsOf: fresh.appendingPathComponent(".entitlint.yml"), encoding: .utf8)
        XCTAssertTrue(starter.contains("#   double-prefix:"), starter)
        XCTAssertFalse(starter.contains(Self.rule), starter)
    }
}
