import XCTest
@testable import EntitlintCore
import PropertyList

/// Which rules a run executes: only those whose findings it reports. A rule set to `off`, or
/// opt-in and not named, is not run at all (its work would be thrown away).
final class RuleRunTests: XCTestCase {
    /// Counts its checks, per rule id, and reports one finding each time.
    static let calls = MutexLock()
    nonisolated(unsafe) static var counted: [String: Int] = [:]

    static func record(_ id: String) {
        calls.lock()
        counted[id, default: 0] += 1
        calls.unlock()
    }

    static func count(_ id: String) -> Int {
        calls.lock()
        defer { calls.unlock() }
        return counted[id] ?? 0
    }

    struct CountedRule: Rule {
        static let description = RuleDescription(
            id: "counted-rule", severity: .warning, category: .entitlements, readsOnlyTheFile: true, precision: .high,
            summary: "Counts.", rationale: "For the engine's tests.", triggering: [], nonTriggering: [])
        func check(_ context: UnitContext) -> [Finding] {
            RuleRunTests.record(Self.description.id)
            return [finding("counted", in: context, at: context.unit.document.root.location)]
        }
    }

    struct CountedOptInRule: Rule {
        static let description = RuleDescription(
            id: "counted-opt-in", severity: .note, category: .entitlements, readsOnlyTheFile: true, precision: .high,
            summary: "Counts.", rationale: "For the engine's tests.", triggering: [], nonTriggering: []).optingIn()
        func check(_ context: UnitContext) -> [Finding] {
            RuleRunTests.record(Self.description.id)
            return [finding("counted", in: context, at: context.unit.document.root.location)]
        }
    }

    let unit = SigningUnit(name: "App", entitlementsPath: "App.entitlements",
                           document: PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml))

    func run(_ overrides: [String: Configuration.RuleSetting]) -> (findings: [String], plain: Int, optIn: Int) {
        let before = (Self.count("counted-rule"), Self.count("counted-opt-in"))
        let found = Linter(rules: [CountedRule(), CountedOptInRule()], severityOverrides: overrides).check(unit)
        return (found.map(\.rule).sorted(), Self.count("counted-rule") - before.0, Self.count("counted-opt-in") - before.1)
    }

    func testARuleTheRunReportsRunsOnce() {
        let r = run([:])
        XCTAssertEqual(r.findings, ["counted-rule"])
        XCTAssertEqual(r.plain, 1)
    }

    func testARuleSetToOffDoesNotRun() {
        let r = run(["counted-rule": .off])
        XCTAssertEqual(r.findings, [])
        XCTAssertEqual(r.plain, 0, "its findings would all be dropped")
    }

    func testAnOptInRuleRunsOnlyWhenNamed() {
        let unnamed = run([:])
        XCTAssertEqual(unnamed.optIn, 0)
        let named = run(["counted-opt-in": .note])
        XCTAssertEqual(named.optIn, 1)
        XCTAssertEqual(named.findings, ["counted-opt-in", "counted-rule"])
    }
}
