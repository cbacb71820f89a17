import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import EntitlintRules

/// An opt-in rule (`literal-app-id-prefix`) runs only when a run names it, and its findings hold
/// only for a file every unit of which has the prefix it names.
final class OptInRuleTests: XCTestCase {
    let id = "literal-app-id-prefix"

    func config(_ text: String) throws -> Configuration {
        try Configuration.parse(text, path: "/repo/.entitlint.yml", knownRules: RuleRegistry.ids)
    }

    /// Whether a run with `selection` and `configuration` reports the opt-in rule's findings, and
    /// at which severity (nil: off).
    func setting(_ selection: RuleSelection, _ configuration: Configuration? = nil) -> Severity? {
        let overrides = selection.overrides(configuration: configuration, all: RuleRegistry.descriptions)
        let stage = FindingStage(Linter(rules: RuleRegistry.all, severityOverrides: overrides))
        guard stage.isEnabled(LiteralAppIDPrefixRule.description) else { return nil }
        return overrides[id]?.severity ?? LiteralAppIDPrefixRule.description.severity
    }

    func testTheRuleIsOffUnlessARunNamesIt() throws {
        XCTAssertTrue(LiteralAppIDPrefixRule.description.optIn)
        XCTAssertEqual(RuleRegistry.descriptions.filter(\.optIn).map(\.id), [id], "the only opt-in rule")
        XCTAssertNil(setting(RuleSelection()), "nothing named: off")
        XCTAssertNil(setting(RuleSelection(select: ["team-prefix-mismatch"])), "another rule selected: off")
        XCTAssertEqual(setting(RuleSelection(select: [id])), .note, "--select names it: its default severity")
        XCTAssertEqual(setting(RuleSelection(), try config("select: [literal-app-id-prefix, double-prefix]\n")), .note, "the configuration's select names it")
        XCTAssertEqual(setting(RuleSelection(), try config("rules:\n  literal-app-id-prefix: warning\n")), .warning, "a severity in rules: names it")
        XCTAssertEqual(setting(RuleSelection(select: [id]), try config("rules:\n  literal-app-id-prefix: error\n")), .error, "the configured severity stays")
        XCTAssertEqual(setting(RuleSelection(select: [id]), try config("rules:\n  literal-app-id-prefix: off\n")), .note, "--select starts afresh")
        XCTAssertNil(setting(RuleSelection(), try config("rules:\n  literal-app-id-prefix: off\n")))
        XCTAssertNil(setting(RuleSelection(ignore: [id]), try config("rules:\n  literal-app-id-prefix: warning\n")), "--ignore wins")
        XCTAssertNil(setting(RuleSelection(), try config("select: [double-prefix]\nrules:\n  literal-app-id-prefix: warning\n")),
                     "a select that leaves it out turns it off, severity or not")
        XCTAssertEqual(setting(RuleSelection(select: [id]), try config("ignore: [literal-app-id-prefix]\n")), .note,
                       "the configuration's ignore does not apply under --select")
        // Rules that are not opt-in are on with no setting, as before.
        let stage = FindingStage(Linter(rules: RuleRegistry.all))
        XCTAssertTrue(stage.isEnabled(DoublePrefixRule.description))
        XCTAssertFalse(stage.isEnabled(LiteralAppIDPrefixRule.description))
    }

    // MARK: the rule on units formed here

    static let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n"
        + "\t\t<string>ABCDE12345.com.example.shared</string>\n\t</array>\n</dict>\n</plist>\n"

    /// A unit of target `target` of an Xcode project, signed with `App.entitlements`, with the
    /// App ID prefix `prefix` (as `AssumedPrefixCapTests.facts` gives it).
    func unit(_ target: String, prefix: AssumedPrefixCapTests.Prefix, value: String = "ABCDE12345", linter: Linter) throws -> SigningUnit {
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(Self.text.utf8), path: "App.entitlements", limits: .default) else {
            struct NotParsed: Error {}
            throw NotParsed()
        }
        var unit = linter.unit(document: document, path: "App.entitlements", name: "\(target) (Release)", bundleID: "com.example.\(target)")
        AssumedPrefixCapTests.facts(&unit, team: "ABCDE12345", prefix: prefix, prefixValue: value)
        unit.origin = UnitOrigin(projectFile: "App.xcodeproj/project.pbxproj", projectName: "App", target: target,
                                 configuration: "Release", kind: .app, sdk: "iphoneos")
        return unit
    }

    var linter: Linter { Linter(rules: [LiteralAppIDPrefixRule()], severityOverrides: [id: .note]) }

    func findings(_ units: [SigningUnit]) -> [Finding] {
        linter.lint(units: units, settings: CheckSettings(now: RuleExampleRunner.now)).filter { $0.rule == id }
    }

    func testAKnownPrefixIsReportedWithItsFixAndAnAssumedOneIsNot() throws {
        let profile = findings([try unit("AppOne", prefix: .profile, linter: linter)])
        XCTAssertEqual(profile.map(\.message), ["keychain access group \"ABCDE12345.com.example.shared\" writes the App ID prefix ABCDE12345 literally; write \"$(AppIdentifierPrefix)com.example.shared\", which expands to the same group and follows the profile if the team changes"])
        XCTAssertEqual(profile.first?.fix?.applicability, .safe)
        XCTAssertEqual(profile.first?.fix?.operations, [.replace("keychain-access-groups", 0, "ABCDE12345.com.example.shared", with: "$(AppIdentifierPrefix)com.example.shared")])
        XCTAssertEqual(findings([try unit("AppOne", prefix: .stated, linter: linter)]).count, 1, "a Team ID the user states is the prefix")
        XCTAssertEqual(findings([try unit("AppOne", prefix: .assumed, linter: linter)]), [], "DEVELOPMENT_TEAM alone: the prefix is only assumed")
        XCTAssertEqual(Linter(rules: [LiteralAppIDPrefixRule()]).lint(units: [try unit("AppOne", prefix: .profile, linter: linter)]).count, 0,
                       "not named by the run: off")
    }

    func testAFileOfSeveralUnitsIsReportedOnlyWhenEveryUnitHasThePrefix() throws {
        let same = findings([try unit("AppOne", prefix: .profile, linter: linter), try unit("AppTwo", prefix: .stated, linter: linter)])
        XCTAssertEqual(same.count, 1, "both units have the prefix: one finding, \(same.map(\.message))")
        XCTAssertEqual(same.first?.units, [], "it holds for the whole file")
        XCTAssertNotNil(same.first?.fix)
        let other = findings([try unit("AppOne", prefix: .profile, linter: linter), try unit("AppTwo", prefix: .profile, value: "LEGACY1234", linter: linter)])
        XCTAssertEqual(other, [], "AppTwo's prefix is another: the literal is not the file's prefix")
        let assumed = findings([try unit("AppOne", prefix: .profile, linter: linter), try unit("AppTwo", prefix: .assumed, linter: linter)])
        XCTAssertEqual(assumed, [], "AppTwo's prefix is only assumed")
    }
}
