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

/// Numbers in `.entitlint.yml` are read with checked arithmetic: YAML 1.1's base-60 integers
/// (`1:30`) once went through Yams' unchecked multiplication and trapped (a crash).
final class ConfigurationNumberTests: XCTestCase {
    func parse(_ yaml: String) throws -> Configuration {
        try Configuration.parse(yaml, path: "c.yml", knownRules: [])
    }

    func reason(_ yaml: String) -> String? {
        do { _ = try parse(yaml); return nil } catch { return (error as? Configuration.ConfigError)?.reason ?? "\(error)" }
    }

    func testBaseSixtyNumberPastIntIsAnErrorNotATrap() {
        let huge = "1" + String(repeating: ":00", count: 12)
        XCTAssertEqual(reason("profile-expiring-days: \(huge)\n"),
                       "'profile-expiring-days' must be a whole number of days from 1 to 3650, not '\(huge)'")
        XCTAssertEqual(reason("limits:\n  max-depth: \(huge)\n"),
                       "limits.max-depth must be a positive whole number, not '\(huge)'")
        XCTAssertEqual(reason("limits: {max-findings: -\(huge)}\n"),
                       "limits.max-findings must be a positive whole number, not '-\(huge)'")
    }

    func testHugeConfigLimitsInEveryNotationAreCheckedOrClamped() throws {
        // Past Int in decimal, hexadecimal, octal and binary: an error naming the key.
        for n in ["9223372036854775808", "0x8000000000000000", "0o1000000000000000000000", "0b1" + String(repeating: "0", count: 63),
                  "99_999_999_999_999_999_999"] {
            XCTAssertEqual(reason("limits: {max-total-bytes: \(n)}\n"), "limits.max-total-bytes must be a positive whole number, not '\(n)'", n)
        }
        // Int.max itself is a number: lowered to the ceiling, with a note.
        let c = try parse("limits: {max-total-bytes: 9223372036854775807, max-file-size: 0x7fffffffffffffff, max-depth: 0o777777777777777777777}\n")
        XCTAssertEqual(c.limits, ["max-total-bytes": Int.max, "max-file-size": Int.max, "max-depth": Int.max])
        let clamped = RunLimits.clamped(c.limits, configPath: "c.yml")
        XCTAssertEqual(clamped.limits["max-total-bytes"], RunLimits.ceilings["max-total-bytes"])
        XCTAssertEqual(clamped.limits["max-file-size"], RunLimits.ceilings["max-file-size"])
        XCTAssertEqual(clamped.limits["max-depth"], RunLimits.ceilings["max-depth"])
        XCTAssertEqual(clamped.notes.count, 3)
    }

    func testYAMLIntegerNotationsReadAsYAMLOneOneReadsThem() throws {
        let cases: [(String, Int)] = [("30", 30), ("+30", 30), ("0x1E", 30), ("0o36", 30), ("036", 30), ("0b11110", 30), ("3_0", 30), ("1:30", 90), ("1:00", 60)]
        for (text, value) in cases {
            XCTAssertEqual(try parse("profile-expiring-days: \(text)\n").profileExpiringDays, value, text)
        }
        XCTAssertNotNil(reason("profile-expiring-days: '30'\n"), "a quoted number is a string")
        XCTAssertNotNil(reason("profile-expiring-days: 0\n"))
        XCTAssertNotNil(reason("profile-expiring-days: -0x1E\n"))
    }
}
