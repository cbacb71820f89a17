import XCTest
import PropertyList
@testable import EntitlintCore

/// What a finding carries besides its message: a location or none, the units a folded finding
/// concerns (as data, never parsed back from the message), a fix, and the ids of the linter's own
/// findings, which `--select` keeps and `--ignore` removes.
final class FindingModelTests: XCTestCase {
    func testLineZeroIsNoLocationAndTheLineColumnViewsFollowTheLocation() {
        var f = Finding(rule: "r", severity: .error, message: "m", path: "P.mobileprovision")
        XCTAssertNil(f.location)
        XCTAssertEqual(f.line, 0)
        XCTAssertEqual(f.column, 0)
        f.column = 4
        XCTAssertNil(f.location, "without a line there is no column to set")
        f.line = 7
        XCTAssertEqual(f.location, Finding.Location(line: 7))
        XCTAssertNil(f.location?.column)
        f.column = 3
        XCTAssertEqual(f.location?.column, 3)
        f.line = 9
        XCTAssertEqual(f.location, Finding.Location(line: 9, column: 3), "a new line keeps the column")
        f.line = 0
        XCTAssertNil(f.location)

        let g = Finding(rule: "r", severity: .error, message: "m", path: "A.entitlements", line: 2, column: 0)
        XCTAssertEqual(g.location?.line, 2)
        XCTAssertNil(g.location?.column, "column 0 is no column")
        XCTAssertNil(Finding.Location(line: 0, column: 5))
    }

    func testShownMessageListsTheUnitsAfterTheMessage() {
        var f = Finding(rule: "r", severity: .error, message: "group moved", path: "A.entitlements", line: 3)
        XCTAssertEqual(f.shownMessage, "group moved")
        f.units = ["App (Debug)", "App (Beta, EU)"]
        XCTAssertEqual(f.shownMessage, "group moved (in App (Debug), App (Beta, EU))")
        XCTAssertEqual(f.message, "group moved", "the message itself never holds the units")
    }

    func testSortingOrdersByTheShownMessageWhenUnitsDiffer() {
        var a = Finding(rule: "r", severity: .error, message: "m", path: "A", line: 1)
        var b = a
        a.units = ["Z"]
        b.units = ["B"]
        let plain = Finding(rule: "r", severity: .error, message: "m", path: "A", line: 1)
        XCTAssertEqual([a, plain, b].sorted().map(\.units), [[], ["B"], ["Z"]])
    }

    func unit(_ name: String, _ path: String) throws -> SigningUnit {
        SigningUnit(name: name, entitlementsPath: path, document: try PropertyListReader.parse(Array("<plist><dict/></plist>".utf8)))
    }

    func testFoldingSetsUnitsAndLeavesTheMessageAlone() throws {
        let units = try ["App (Debug)", "App (Release)", "App (Beta)"].map { try unit($0, "App.entitlements") }
        func finding(_ unit: String, _ message: String = "wrong") -> Finding {
            Finding(rule: "r", severity: .error, message: message, path: "App.entitlements", line: 4, column: 2, unit: unit)
        }
        // Two of three configurations: named.
        let some = FindingStage.foldConfigurations([finding("App (Debug)"), finding("App (Release)")], units: units)
        XCTAssertEqual(some.count, 1)
        XCTAssertEqual(some[0].message, "wrong")
        XCTAssertEqual(some[0].units, ["App (Debug)", "App (Release)"])
        // All three: none named.
        let all = FindingStage.foldConfigurations(units.map { finding($0.name) }, units: units)
        XCTAssertEqual(all.map(\.units), [[]])
        // Different messages at one place: each names its units, even when that is all of them.
        let split = FindingStage.foldConfigurations([finding("App (Debug)", "a"), finding("App (Release)", "b"), finding("App (Beta)", "b")], units: units)
        XCTAssertEqual(split.map(\.units), [["App (Debug)"], ["App (Release)", "App (Beta)"]])
        XCTAssertEqual(split.map(\.message), ["a", "b"])
    }

    func testFoldingKeepsEveryConfigurationsNotesOnce() throws {
        let units = try ["App (Debug)", "App (Release)"].map { try unit($0, "App.entitlements") }
        var debug = Finding(rule: "r", severity: .error, message: "wrong", path: "App.entitlements", line: 4, unit: "App (Debug)")
        debug.notes = ["team from Debug.xcconfig", "prefix assumed"]
        debug.help = "fix it"
        var release = debug
        release.unit = "App (Release)"
        release.notes = ["team from Release.xcconfig", "prefix assumed"]
        release.help = "other help"
        let folded = FindingStage.foldConfigurations([debug, release], units: units)
        XCTAssertEqual(folded.count, 1)
        XCTAssertEqual(folded[0].notes, ["team from Debug.xcconfig", "prefix assumed", "team from Release.xcconfig"])
        XCTAssertEqual(folded[0].help, "fix it")
        XCTAssertEqual(folded[0].units, [], "both units of the file: none named")
    }

    func testUnitNamesReadTheUnitsFieldNotTheMessage() throws {
        let units = try ["App (Debug)", "App (Release)"].map { try unit($0, "App.entitlements") }
        let index = UnitIndex(units)
        var f = Finding(rule: "r", severity: .error, message: "quotes a name (in App (Debug))", path: "App.entitlements", unit: "App (Debug)")
        XCTAssertEqual(index.unitNames(of: f), ["App (Debug)", "App (Release)"],
                       "a message that happens to end like a list names no units")
        f.units = ["App (Release)"]
        XCTAssertEqual(index.unitNames(of: f), ["App (Release)"])
        f.units = ["Other (Debug)"]
        XCTAssertEqual(index.unitNames(of: f), ["App (Debug)", "App (Release)"], "a unit of another file is not one of these")
    }

    func testAFixHoldsItsEditsByByteRange() {
        let edit = Finding.Edit(path: "A.entitlements", range: 10..<14, replacement: "ABCDE12345.")
        var f = Finding(rule: "r", severity: .warning, message: "m", path: "A.entitlements", line: 2)
        f.fix = Finding.Fix(title: "Prefix the group", applicability: .unsafe, edits: [edit, Finding.Edit(path: "A.entitlements", range: 20..<20, replacement: "x")])
        XCTAssertEqual(f.fix?.edits.map(\.range), [10..<14, 20..<20])
        XCTAssertEqual(f.fix?.applicability.rawValue, "unsafe")
        XCTAssertNotEqual(f, Finding(rule: "r", severity: .warning, message: "m", path: "A.entitlements", line: 2), "the fix is part of the finding")
    }

    func testCutsAreFindingsOfTheirOwnIds() {
        let findings = (0..<5).map { Finding(rule: "comment-in-plist", severity: .note, message: "m\($0)", path: "F\($0)", line: 1) }
        XCTAssertEqual(FindingStage.capped(findings, at: 2).last?.rule, ToolFindings.findingsTruncated)
        XCTAssertEqual(FindingStage.capped(findings, at: 2, name: RunLimits.outputBytesName).last?.rule, ToolFindings.outputTruncated)
        XCTAssertEqual(FindingStage.capped(findings, at: 2).last?.location, Finding.Location(line: 1), "at the first finding left out")
    }

    func testSelectKeepsEveryToolFindingAndIgnoreRemovesOne() {
        let all = ["wildcard-access-group", "comment-in-plist"] + ToolFindings.ids
        let selected = RuleSelection(select: ["wildcard-access-group"], ignore: ["unreadable-path"]).overrides(configuration: nil, all: all)
        XCTAssertEqual(selected["comment-in-plist"], .off)
        XCTAssertEqual(selected["unreadable-path"], .off)
        for id in ToolFindings.ids where id != "unreadable-path" { XCTAssertNil(selected[id], id) }
        XCTAssertEqual(ToolFindings.ids.first, "parse-error")
        XCTAssertEqual(Set(ToolFindings.ids).count, ToolFindings.ids.count)
    }

    func testSeverityOverridesReachToolFindingsOfAnyLinter() {
        let linter = Linter(rules: [], severityOverrides: ["unreadable-path": .warning, "link-outside-root": .off])
        let out = FindingStage(linter).applySeverities([
            Finding(rule: "unreadable-path", severity: .error, message: "m", path: "A"),
            Finding(rule: "link-outside-root", severity: .error, message: "m", path: "B"),
            Finding(rule: "read-limit", severity: .error, message: "m", path: "C"),
            Finding(rule: "wildcard-access-group", severity: .error, message: "m", path: "D"),
        ])
        XCTAssertEqual(out.map(\.rule), ["unreadable-path", "read-limit"], "a rule the linter does not run is dropped; tool findings are not")
        XCTAssertEqual(out.first?.severity, .warning)
    }
}
