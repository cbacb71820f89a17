import XCTest
import EntitlintCore
@testable import EntitlintWorkspace

/// Reading `.entitlint.yml`: every key, and errors that name the key and its line.
final class ConfigurationTests: XCTestCase {
    let known: Set<String> = ["comment-in-plist", "wildcard-access-group"]

    func testFullConfiguration() throws {
        let c = try Configuration.parse("""
        team: ABCDE12345
        apps:
          - name: AppOne
            entitlements: App/App.entitlements
            bundle-id: com.example.AppOne
            profile: App.mobileprovision
        rules:
          comment-in-plist: off
          wildcard-access-group: warning
        exclude: ["Tests/**"]
        lock: my.lock
        variables:
          BUNDLE_ID_PREFIX: com.example
        """, path: "cfg/.entitlint.yml", knownRules: known)
        XCTAssertEqual(c.team, "ABCDE12345")
        XCTAssertEqual(c.apps.first?.bundleID, "com.example.AppOne")
        XCTAssertEqual(c.rules, ["comment-in-plist": .off, "wildcard-access-group": .warning])
        XCTAssertEqual(c.exclude, [Glob("Tests/**")])
        XCTAssertEqual(c.lock, "my.lock")
        XCTAssertEqual(c.variables, ["BUNDLE_ID_PREFIX": "com.example"])
        XCTAssertEqual(c.resolve("App/App.entitlements"), "cfg/App/App.entitlements")
    }

    func testErrorsNameKeyAndLine() {
        func error(_ yaml: String) -> Configuration.ConfigError? {
            do { _ = try Configuration.parse(yaml, path: "c.yml", knownRules: known); return nil } catch { return error }
        }
        XCTAssertEqual(error("team: A\nbogus: 1\n")?.line, 2)
        XCTAssertTrue(error("team: A\nbogus: 1\n")?.reason.contains("unknown key 'bogus'") ?? false)
        XCTAssertEqual(error("rules:\n  comment-in-plist: loud\n")?.line, 2)
        XCTAssertEqual(error("apps:\n  - name: x\n")?.reason, "an app needs 'entitlements'")
        XCTAssertEqual(error("apps:\n  - entitlements: a\n    colour: red\n")?.line, 3)
        XCTAssertNotNil(error("exclude: notalist\n"))
        XCTAssertNotNil(error("team: [a, b]\n"))
        XCTAssertNotNil(error("team: 'unterminated\n"))
    }
}
