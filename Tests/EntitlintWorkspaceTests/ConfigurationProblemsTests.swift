import XCTest
import EntitlintCore
import EntitlintWorkspace

/// A configuration is read whole: every problem in it is reported, in file order, in one run.
final class ConfigurationProblemsTests: XCTestCase {
    func problems(_ text: String) -> [String] {
        do {
            _ = try Configuration.parse(text, path: ".entitlint.yml", knownRules: ["duplicate-key", "comment-in-plist"])
            return []
        } catch {
            return error.all.map(\.located)
        }
    }

    func testEveryProblemIsReportedInFileOrder() {
        let text = """
        fail-on: fatal
        rules:
          no-such-rule: error
          duplicate-key: loud
          comment-in-plist: off
        limits:
          max-depth: -1
          max-elements: 10
        apps:
          - name: A
          - entitlements: B.entitlements
            colour: red
        bogus: 1
        team: ABCDE12345
        """
        XCTAssertEqual(problems(text), [
            ".entitlint.yml:1: 'fail-on' must be error, warning or note, not 'fatal'",
            ".entitlint.yml:3: unknown rule 'no-such-rule' (see `entitlint rules`)",
            ".entitlint.yml:4: rules.duplicate-key must be error, warning, note or off, not 'loud'",
            ".entitlint.yml:7: limits.max-depth must be a positive whole number, not '-1'",
            ".entitlint.yml:10: an app needs 'entitlements'",
            ".entitlint.yml:12: unknown key 'apps.colour' (known: name, entitlements, bundle-id, profile, team)",
            ".entitlint.yml:13: unknown key 'bogus' (known: team, apps, rules, exclude, external-groups, lock, variables, profiles, baseline, fail-on, limits, profile-expiring-days, select, ignore, per-file-ignores)",
        ])
    }

    func testOneProblemReadsAsBefore() throws {
        XCTAssertEqual(problems("team: [a]\n"), [".entitlint.yml:1: 'team' must be a string"])
        XCTAssertEqual(problems("team: ABCDE12345\n"), [])
    }
}
