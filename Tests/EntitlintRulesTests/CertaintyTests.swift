import XCTest
import EntitlintCore
import PropertyList
@testable import EntitlintRules

/// Severity follows what is known: a finding that rests on an assumed fact is a note whose notes say
/// what was assumed; the same finding on a known fact keeps its severity.
final class CertaintyTests: XCTestCase {
    func entitlements(_ groups: [String]) -> [UInt8] {
        Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n"
            + groups.map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n</dict>\n</plist>\n").utf8)
    }

    func findings(_ groups: [String], bundleID: String = "com.example.App", knownPrefix: String?) throws -> [Finding] {
        let linter = Linter(rules: RuleRegistry.all)
        guard case .entitlements(let document) = DocumentReader.parse(bytes: entitlements(groups), path: "App.entitlements", limits: .default) else {
            XCTFail("not parsed")
            return []
        }
        var unit = linter.unit(document: document, path: "App.entitlements", name: "App", bundleID: bundleID, teamID: nil)
        // The team as a project gives it (DEVELOPMENT_TEAM), and the App ID prefix assumed from it.
        unit.teamID = Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10"))
        unit.appIDPrefix = knownPrefix.map { Fact($0, from: .profile("App.mobileprovision")) }
            ?? Fact("ABCDE12345", from: .assumed("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)"))
        return linter.check(unit)
    }

    func testAForeignPrefixUnderAnAssumedAppIDPrefixIsANoteSayingSo() throws {
        let assumed = try findings(["ZZZZZ99999.com.example.shared"], knownPrefix: nil).filter { $0.rule == "team-prefix-mismatch" }
        XCTAssertEqual(assumed.map(\.severity), [.note], "\(assumed.map(\.message))")
        XCTAssertEqual(assumed.first?.notes, [FactGate.note(.appIDPrefix, value: "ABCDE12345", assumed: "App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)")])
        XCTAssertTrue(assumed.first?.notes.first?.contains("--profile") == true, "\(assumed.map(\.notes))")
        let known = try findings(["ZZZZZ99999.com.example.shared"], knownPrefix: "ABCDE12345").filter { $0.rule == "team-prefix-mismatch" }
        XCTAssertEqual(known.map(\.severity), [.error], "\(known.map(\.message))")
        XCTAssertEqual(known.first?.notes, [])
    }

    func testABundleIDThatStartsWithTheTeamIDIsNoDoublePrefix() throws {
        let own = try findings(["$(AppIdentifierPrefix)ABCDE12345.Chat"], bundleID: "ABCDE12345.Chat", knownPrefix: nil)
        XCTAssertEqual(own.filter { $0.rule == "double-prefix" }, [], "exactly the App ID")
        let other = try findings(["$(AppIdentifierPrefix)ABCDE12345.Chat"], bundleID: "com.example.Chat", knownPrefix: nil)
        XCTAssertEqual(other.filter { $0.rule == "double-prefix" }.count, 1, "a Team ID after the prefix that is not the bundle ID's start")
    }

    func testAWildcardCopiedFromAProfileIsAnErrorWhoseAdviceKeepsAShippedDefault() throws {
        let f = try XCTUnwrap(try findings(["$(AppIdentifierPrefix)*"], knownPrefix: nil).first { $0.rule == "wildcard-access-group" })
        XCTAssertEqual(f.severity, .error)
        XCTAssertTrue(f.message.contains("keep it first and add the real groups after it"), f.message)
    }

    /// Code that spells another prefix than a `$(AppIdentifierPrefix)` group: an error when the
    /// user states the team (the prefix is then known), a note when the team is the project's.
    func testCodeSpellingAnotherPrefixIsAnErrorOnlyWhenThePrefixIsKnown() throws {
        let example = RuleExample.project([
            ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                               entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                               sources: ["App/Store.swift": "let q: [String: Any] = [kSecAttrAccessGroup as String: \"FGHIJ67890.com.example.shared\"]\nSecItemAdd(q as CFDictionary, nil)\n"]),
        ])
        let linter = Linter(rules: [CodeGroupWrongPrefixRule()])
        func severities(_ units: [SigningUnit]) -> [Severity] {
            linter.lint(units: units, settings: CheckSettings(now: RuleExampleRunner.now), codeIndex: ProjectExampleRunner.codeIndex(example))
                .filter { $0.rule == "code-group-wrong-prefix" }.map(\.severity)
        }
        let stated = ProjectExampleRunner.units(example, linter: linter)
        XCTAssertEqual(stated.first?.certainty(of: .appIDPrefix), .known, "a team given as --team-id is the prefix")
        XCTAssertEqual(severities(stated), [.error])
        var fromProject = stated
        fromProject[0].teamID = Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10"))
        fromProject[0].appIDPrefix = Fact("ABCDE12345", from: .assumed("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)"))
        XCTAssertEqual(severities(fromProject), [.note])
    }

    /// A group under a prefix that is none of the target's: an error when the App ID prefix is
    /// known, a note saying what was assumed and how to give the fact when it is only assumed (the
    /// prefix the code spells may then be the team's legacy one); silent when the profile lists it.
    func testCodeUnderAForeignPrefixIsAnErrorOnlyWhenThePrefixIsKnown() throws {
        let example = RuleExample.project([
            ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                               entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                               sources: ["App/Store.swift": "let q: [String: Any] = [kSecAttrAccessGroup as String: \"LEGACY9876.com.example.old\"]\n"]),
        ])
        let linter = Linter(rules: [CodeGroupForeignPrefixRule(), CodeGroupNotEntitledRule()])
        func findings(_ units: [SigningUnit]) -> [Finding] {
            linter.lint(units: units, settings: CheckSettings(now: RuleExampleRunner.now), codeIndex: ProjectExampleRunner.codeIndex(example))
        }
        let stated = ProjectExampleRunner.units(example, linter: linter)
        let known = findings(stated)
        XCTAssertEqual(known.map(\.rule), ["code-group-foreign-prefix"], "not also not-entitled: \(known.map(\.message))")
        XCTAssertEqual(known.map(\.severity), [.error])
        XCTAssertEqual(known.first?.notes, [])
        XCTAssertTrue(known.first?.message.contains("under the prefix LEGACY9876") == true, known.first?.message ?? "")

        var fromProject = stated
        fromProject[0].teamID = Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:10"))
        fromProject[0].appIDPrefix = Fact("ABCDE12345", from: .assumed("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)"))
        let assumed = findings(fromProject)
        XCTAssertEqual(assumed.map(\.severity), [.note])
        XCTAssertEqual(assumed.first?.notes, [FactGate.note(.appIDPrefix, value: "ABCDE12345", assumed: "App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM)")])
        XCTAssertTrue(assumed.first?.notes.first?.contains("--profile") == true)

        var unknown = fromProject
        unknown[0].appIDPrefix = nil
        XCTAssertEqual(findings(unknown).filter { $0.rule == "code-group-foreign-prefix" }, [], "no prefix to compare with: nothing claimed")
    }
}
