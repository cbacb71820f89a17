import XCTest
import EntitlintCore
import PropertyList
@testable import EntitlintRules

/// The error rules whose findings can rest on the App ID prefix declare it (`certainWith`): on a
/// unit whose prefix is only assumed (the team from DEVELOPMENT_TEAM, no profile), such a finding
/// is capped below an error and its note says what was assumed; the same unit with the prefix known
/// (a profile's, or a team the user states) keeps the error.
final class AssumedPrefixCapTests: XCTestCase {
    static let assumedWhy = "App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10)"

    /// The prefix as a project gives it (assumed from DEVELOPMENT_TEAM), as a stated team gives it
    /// (`--team-id`: known), or as a profile gives it (known).
    enum Prefix { case assumed, stated, profile }

    static func facts(_ unit: inout SigningUnit, team: String, prefix: Prefix, prefixValue: String? = nil) {
        let value = prefixValue ?? team
        switch prefix {
        case .assumed:
            unit.teamID = Fact(team, from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10"))
            unit.appIDPrefix = Fact(value, from: .assumed(assumedWhy))
        case .stated:
            unit.teamID = Fact(team, from: .flag("--team-id"))
            unit.appIDPrefix = Fact(value, from: .derived("App ID prefix taken to be the Team ID (flag --team-id)"))
        case .profile:
            unit.teamID = Fact(team, from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10"))
            unit.appIDPrefix = Fact(value, from: .profile("App.mobileprovision"))
        }
    }

    // MARK: default-group-drift

    /// A lock written when the team was ZYXWV98765 (its prefix a guess too); the project now sets
    /// ABCDE12345. Only the prefix-change finding rests on the unit's prefix.
    func driftFindings(_ prefix: Prefix) throws -> [Finding] {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n"
            + "\t\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t</array>\n</dict>\n</plist>\n"
        let linter = Linter(rules: [DefaultGroupDriftRule()])
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(text.utf8), path: "App.entitlements", limits: .default) else {
            XCTFail("not parsed")
            return []
        }
        var unit = linter.unit(document: document, path: "App.entitlements", name: "App", bundleID: "com.example.App", teamID: nil)
        Self.facts(&unit, team: "ABCDE12345", prefix: prefix)
        let lock = LockFile(units: ["App": LockFile.Entry(
            bundleID: "com.example.App", defaultAccessGroup: "ZYXWV98765.com.example.App", accessGroups: ["ZYXWV98765.com.example.App"],
            appIDPrefix: "ZYXWV98765", teamID: "ZYXWV98765",
            sources: ["app-id-prefix": .init(kind: .guess, detail: "App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)")])])
        return linter.check(unit, lock: lock, settings: CheckSettings(now: RuleExampleRunner.now)).filter { $0.rule == "default-group-drift" }
    }

    func testAPrefixChangeOnAnAssumedPrefixIsAWarningThatSaysSo() throws {
        let assumed = try driftFindings(.assumed)
        XCTAssertEqual(assumed.map(\.severity), [.warning], "\(assumed.map(\.message))")
        XCTAssertTrue(assumed.first?.message.contains("because the App ID prefix changed from ZYXWV98765 to ABCDE12345") == true, "\(assumed.map(\.message))")
        XCTAssertEqual(assumed.first?.notes, [FactGate.note(.appIDPrefix, value: "ABCDE12345", assumed: Self.assumedWhy)])
        let stated = try driftFindings(.stated)
        XCTAssertEqual(stated.map(\.severity), [.error], "a team the user states is the prefix: \(stated.map(\.message))")
        XCTAssertEqual(stated.first?.notes, [])
    }

    func testADriftThatDoesNotRestOnThePrefixStaysAnErrorWhileItIsAssumed() throws {
        // Another group put first: the default moved whatever the prefix is.
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n"
            + "\t\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t</array>\n</dict>\n</plist>\n"
        let linter = Linter(rules: [DefaultGroupDriftRule()])
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(text.utf8), path: "App.entitlements", limits: .default) else {
            return XCTFail("not parsed")
        }
        var unit = linter.unit(document: document, path: "App.entitlements", name: "App", bundleID: "com.example.App", teamID: nil)
        Self.facts(&unit, team: "ABCDE12345", prefix: .assumed)
        let lock = LockFile(units: ["App": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.App",
                                                          accessGroups: ["ABCDE12345.com.example.App"])])
        let findings = linter.check(unit, lock: lock, settings: CheckSettings(now: RuleExampleRunner.now)).filter { $0.rule == "default-group-drift" }
        XCTAssertEqual(findings.map(\.severity), [.error], "\(findings.map(\.message))")
        XCTAssertEqual(findings.first?.notes, [])
    }

    // MARK: team-mismatch-across-targets

    /// Two targets of one team share `$(AppIdentifierPrefix)com.example.shared`; AppOne's prefix is
    /// the legacy LEGACY1234 from its profile, AppTwo's is `two` (its team's, assumed or stated).
    func sharingFindings(two: Prefix, twoTeam: String = "ABCDE12345", onePrefix: String = "LEGACY1234") -> [Finding] {
        let shared = "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"
        let example = RuleExample.project([
            ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: shared),
            ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: twoTeam, entitlements: shared),
        ])
        let linter = Linter(rules: [TeamMismatchAcrossTargetsRule()])
        var units = ProjectExampleRunner.units(example, linter: linter)
        Self.facts(&units[0], team: "ABCDE12345", prefix: .profile, prefixValue: onePrefix)
        Self.facts(&units[1], team: twoTeam, prefix: two)
        return linter.lint(units: units, settings: CheckSettings(now: RuleExampleRunner.now)).filter { $0.rule == "team-mismatch-across-targets" }
    }

    func testTargetsOfOneTeamWhosePrefixesDifferOnlyByAnAssumptionGiveOneWarningThatSaysSo() {
        let assumed = sharingFindings(two: .assumed)
        // AppOne's finding would rest on AppTwo's assumed prefix: only AppTwo's own, capped, is given.
        XCTAssertEqual(assumed.map(\.severity), [.warning], "\(assumed.map(\.message))")
        XCTAssertEqual(assumed.first?.unit, "AppTwo (Release)")
        XCTAssertTrue(assumed.first?.message.contains(TeamMismatchAcrossTargetsRule.prefixWords) == true, "\(assumed.map(\.message))")
        XCTAssertEqual(assumed.first?.notes, [FactGate.note(.appIDPrefix, value: "ABCDE12345", assumed: Self.assumedWhy)])
        let stated = sharingFindings(two: .stated)
        XCTAssertEqual(stated.map(\.severity), [.error, .error], "both prefixes known: \(stated.map(\.message))")
        XCTAssertEqual(stated.flatMap(\.notes), [])
    }

    func testTargetsOfTwoTeamsStayAnErrorWhileAPrefixIsAssumed() {
        // A prefix belongs to one team: targets of two known teams get two groups, whatever the prefixes are.
        let findings = sharingFindings(two: .assumed, twoTeam: "ZYXWV98765", onePrefix: "ABCDE12345")
        XCTAssertEqual(findings.map(\.severity), [.error, .error], "\(findings.map(\.message))")
        XCTAssertTrue(findings.allSatisfy { $0.message.contains("targets of different teams get different groups") }, "\(findings.map(\.message))")
        XCTAssertEqual(findings.flatMap(\.notes), [])
    }
}
