import XCTest
@testable import EntitlintCore
import PropertyList

/// The engine holds every rule's findings to the facts its description declares: a synthetic rule
/// that always reports shows what the engine, not the rule, decides.
final class FactGateTests: XCTestCase {
    /// Reports one error on every unit, whatever its facts: it needs the Team ID and is certain
    /// only with a known App ID prefix.
    struct AlwaysRule: Rule {
        static let description = RuleDescription(
            id: "always", severity: .error, category: .entitlements, readsOnlyTheFile: false, precision: .high,
            facts: FactNeeds(needs: [.teamID, .appIDPrefix], certainWith: [.appIDPrefix]),
            summary: "Always.", rationale: "For the engine's tests.", triggering: [], nonTriggering: [])
        func check(_ context: UnitContext) -> [Finding] {
            [finding("always", in: context, at: context.unit.document.root.location, keyPath: context.unit.name)]
        }
    }

    /// The same, assumed down to a note, and its findings keyed `sure` resting on no assumption.
    struct NoteWhenAssumedRule: Rule {
        static let description = RuleDescription(
            id: "note-when-assumed", severity: .error, category: .entitlements, readsOnlyTheFile: false, precision: .high,
            facts: FactNeeds(needs: [.appIDPrefix], certainWith: [.appIDPrefix], whenAssumed: .note),
            summary: "Always.", rationale: "For the engine's tests.", triggering: [], nonTriggering: [])
        func check(_ context: UnitContext) -> [Finding] {
            ["sure", "unsure"].map { finding($0, in: context, at: context.unit.document.root.location, keyPath: $0) }
        }
        func facts(behind finding: Finding) -> [FactKind] { finding.keyPath == "sure" ? [] : [.appIDPrefix] }
    }

    /// Declares nothing: the engine leaves its findings alone.
    struct UndeclaredRule: Rule {
        static let description = RuleDescription(
            id: "undeclared", severity: .error, category: .entitlements, readsOnlyTheFile: false, precision: .high,
            summary: "Always.", rationale: "For the engine's tests.", triggering: [], nonTriggering: [])
        func check(_ context: UnitContext) -> [Finding] {
            [finding("undeclared", in: context, at: context.unit.document.root.location)]
        }
    }

    /// Reports one error on every unit it is given, naming it: it needs the Team ID.
    struct EveryUnitProjectRule: ProjectRule {
        static let description = RuleDescription(
            id: "every-unit", severity: .error, category: .project, readsOnlyTheFile: false, precision: .medium,
            facts: FactNeeds(needs: [.teamID], certainWith: [.appIDPrefix]),
            summary: "Always.", rationale: "For the engine's tests.", triggering: [], nonTriggering: [])
        func check(project units: [UnitContext]) -> [Finding] {
            units.map { finding("every unit", in: $0, at: $0.unit.document.root.location) }
        }
    }

    func unit(team: FactSource?, prefix: FactSource?, unknown: [FactKind: String] = [:]) -> SigningUnit {
        var u = SigningUnit(name: "App", entitlementsPath: "App.entitlements",
                            document: PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml))
        u.teamID = team.map { Fact("ABCDE12345", from: $0) }
        u.appIDPrefix = prefix.map { Fact("ABCDE12345", from: $0) }
        u.unknownFacts = unknown
        return u
    }

    func check(_ rules: [any Rule], _ unit: SigningUnit) -> [Finding] {
        Linter(rules: rules).check(unit)
    }

    static let assumedPrefix = FactSource.assumed("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:7)")
    static let setting = FactSource.xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:7")

    func testAFindingIsSilentWhileANeededFactIsUnknown() {
        let why = "DEVELOPMENT_TEAM comes from Config/Local.xcconfig, which this checkout lacks"
        XCTAssertEqual(check([AlwaysRule()], unit(team: nil, prefix: nil, unknown: [.teamID: why])), [])
        XCTAssertEqual(check([AlwaysRule()], unit(team: nil, prefix: .profile("App.mobileprovision"))), [], "no source at all is unknown too")
        XCTAssertEqual(check([UndeclaredRule()], unit(team: nil, prefix: nil)).map(\.rule), ["undeclared"])
    }

    func testAKnownFactKeepsTheSeverityAndAddsNoNote() {
        let found = check([AlwaysRule()], unit(team: Self.setting, prefix: .profile("App.mobileprovision")))
        XCTAssertEqual(found.map(\.severity), [.error])
        XCTAssertEqual(found.map(\.notes), [[]])
        let stated = check([AlwaysRule()], unit(team: .flag("--team-id"), prefix: .derived("App ID prefix taken to be the Team ID (flag --team-id)")))
        XCTAssertEqual(stated.map(\.severity), [.error], "a prefix taken from a team the user states is known")
    }

    func testAnAssumedFactCapsTheSeverityAndSaysWhatWasAssumedAndHowToGiveIt() {
        let found = check([AlwaysRule()], unit(team: Self.setting, prefix: Self.assumedPrefix))
        XCTAssertEqual(found.map(\.severity), [.warning])
        XCTAssertEqual(found.first?.notes.count, 1)
        let note = found.first?.notes.first ?? ""
        XCTAssertTrue(note.hasPrefix("The App ID prefix ABCDE12345 is assumed: App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM at"), note)
        for way in ["--profile", "--team-id", "team:"] { XCTAssertTrue(note.contains(way), "\(way) in \(note)") }
        XCTAssertEqual(found.first?.message, "always", "the message is the rule's")
    }

    func testARuleMayCapLowerAndSayWhichFindingsRestOnTheAssumption() {
        let found = check([NoteWhenAssumedRule()], unit(team: Self.setting, prefix: Self.assumedPrefix))
        XCTAssertEqual(found.map { "\($0.message) \($0.severity) \($0.notes.count)" }.sorted(), ["sure error 0", "unsure note 1"])
    }

    func testAProjectRulesFindingsAreHeldToTheFactsOfTheUnitEachNames() {
        var known = unit(team: Self.setting, prefix: .profile("App.mobileprovision"))
        known.name = "Known"
        var assumed = unit(team: Self.setting, prefix: Self.assumedPrefix)
        assumed.name = "Assumed"
        var unknown = unit(team: nil, prefix: nil, unknown: [.teamID: "DEVELOPMENT_TEAM comes from Local.xcconfig, which this checkout lacks"])
        unknown.name = "Unknown"
        let contexts = [known, assumed, unknown].map { UnitContext(unit: $0, lock: nil) }
        let found = FactGate.check(project: EveryUnitProjectRule(), contexts)
        XCTAssertEqual(found.map { "\($0.unit ?? "") \($0.severity) \($0.notes.count)" }, ["Known error 0", "Assumed warning 1"])
    }

    func testEveryEntryPointGates() throws {
        // `lint(entitlements:)`: a team given, no profile: the prefix is assumed from a stated team,
        // so known; with nothing given the rule is silent.
        let bytes = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8)
        XCTAssertEqual(Linter(rules: [AlwaysRule()]).lint(entitlements: bytes, path: "App.entitlements").map(\.rule), [])
        XCTAssertEqual(Linter(rules: [AlwaysRule()]).lint(entitlements: bytes, path: "App.entitlements", teamID: "ABCDE12345").map(\.severity), [.error])
    }
}
