import XCTest
@testable import EntitlintCore
import PropertyList

/// Folding the configurations' findings: one finding per place and message, in the order first
/// met, naming its units when they are some of the file's units, or when the place has
/// several messages; notes of every folded finding, each once, in the order met.
final class FoldConfigurationsTests: XCTestCase {
    private func finding(_ rule: String, _ message: String, path: String = "A.entitlements", line: Int = 3, unit: String?, notes: [String] = []) -> Finding {
        var f = Finding(rule: rule, severity: .error, message: message, path: path, line: line, column: 2, unit: unit)
        f.notes = notes
        return f
    }

    private func units(_ names: [String], path: String) throws -> [SigningUnit] {
        let doc = try PropertyListReader.parse(Array("<plist><dict/></plist>".utf8))
        return names.map { SigningUnit(name: $0, entitlementsPath: path, document: doc) }
    }

    func testFoldsByPlaceAndMessage() throws {
        let all = try units(["Debug", "Release", "Beta"], path: "A.entitlements") + units(["Other"], path: "B.entitlements")
        let findings = [
            finding("r", "everywhere", unit: "Debug", notes: ["n1"]),
            finding("r", "some", line: 5, unit: "Debug"),
            finding("r", "everywhere", unit: "Release", notes: ["n2", "n1"]),
            finding("r", "everywhere", unit: "Beta", notes: ["n2"]),
            finding("r", "some", line: 5, unit: "Beta"),
            finding("s", "one of two", line: 7, unit: "Debug"),
            finding("s", "the other", line: 7, unit: "Debug"),
            finding("s", "one of two", line: 7, unit: "Release"),
            finding("s", "the other", line: 7, unit: "Release"),
            finding("s", "the other", line: 7, unit: "Beta"),
            finding("s", "one of two", line: 7, unit: "Beta"),
            finding("t", "file B", path: "B.entitlements", unit: "Other"),
            finding("t", "no unit", path: "B.entitlements", line: 4, unit: nil),
            finding("t", "no unit", path: "B.entitlements", line: 4, unit: nil, notes: ["x"]),
        ]
        let folded = FindingStage.foldConfigurations(findings, units: all)
        XCTAssertEqual(folded.map(\.message), ["everywhere", "some", "one of two", "the other", "file B", "no unit"])
        XCTAssertEqual(folded.map(\.units), [[], ["Debug", "Beta"], ["Debug", "Release", "Beta"], ["Debug", "Release", "Beta"], [], []])
        XCTAssertEqual(folded[0].notes, ["n1", "n2"])
        XCTAssertEqual(folded[0].unit, "Debug", "the first finding stands for the group")
        XCTAssertEqual(folded[5].notes, ["x"])
        XCTAssertEqual(folded[5].unit, nil)
    }

    /// Findings that already name different units are different findings.
    func testFindingsNamingDifferentUnitsStayApart() throws {
        var a = finding("r", "m", unit: "Debug")
        a.units = ["Debug"]
        var b = finding("r", "m", unit: "Release")
        b.units = ["Release"]
        let folded = FindingStage.foldConfigurations([a, b, a], units: try units(["Debug", "Release"], path: "A.entitlements"))
        XCTAssertEqual(folded.count, 2)
        XCTAssertEqual(folded.map(\.units), [["Debug"], ["Release"]])
    }
}
