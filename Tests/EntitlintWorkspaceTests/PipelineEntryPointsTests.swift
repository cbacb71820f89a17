import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import EntitlintRules
import PropertyList

/// Every entry point ends in the same staged run (`Linter.run`): a file on disk, the same bytes
/// from standard input, the in-memory file, one unit checked alone and units linted together
/// report the same findings, with the file's directives, the lock and post-processing applied
/// in each.
final class PipelineEntryPointsTests: XCTestCase {
    static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>keychain-access-groups</key>
    \t<array>
    \t\t<string>$(AppIdentifierPrefix)com.example.App</string>
    \t\t<string>$(AppIdentifierPrefix)com.example.shared</string>
    \t\t<string>$(AppIdentifierPrefix)com.example.shared</string>
    \t\t<!-- entitlint:disable-next-line wildcard-access-group: a fixture -->
    \t\t<string>$(AppIdentifierPrefix)*</string>
    \t</array>
    </dict>
    </plist>

    """

    /// The lock records another default group: the drift is a reference finding.
    static let lock = LockFile(units: ["App": .init(bundleID: "com.example.App", defaultAccessGroup: "$(AppIdentifierPrefix)com.example.old",
                                                    accessGroups: ["$(AppIdentifierPrefix)com.example.old"])])

    struct Shown: Hashable, CustomStringConvertible {
        var rule: String, line: Int, message: String
        var description: String { "\(rule)@\(line): \(message)" }
    }

    func shown(_ findings: [Finding]) -> [Shown] { findings.map { Shown(rule: $0.rule, line: $0.line, message: $0.message) } }

    func testEveryEntryPointReportsTheSameFindings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try Self.text.write(to: dir.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }

        let linter = Linter(rules: RuleRegistry.all)
        var options = LintOptions()
        options.paths = ["App.entitlements"]
        options.bundleID = "com.example.App"
        options.lock = Self.lock
        let bytes = Array(Self.text.utf8)
        let fromFile = shown(try linter.lint(options).findings)
        let fromStandardInput = shown(try linter.lint(options, bytes: bytes, name: "App.entitlements").findings)
        let inMemory = shown(linter.lint(entitlements: bytes, path: "App.entitlements", name: "App", bundleID: "com.example.App", lock: Self.lock))
        guard case .entitlements(let document) = DocumentReader.parse(bytes: bytes, path: "App.entitlements", limits: .default) else {
            return XCTFail("the fixture parses")
        }
        let unit = linter.unit(document: document, path: "App.entitlements", name: "App", bundleID: "com.example.App")
        let checked = shown(linter.check(unit, lock: Self.lock))
        let together = shown(linter.lint(units: [unit], lock: Self.lock))

        let rules = Set(fromFile.map(\.rule))
        XCTAssertTrue(rules.contains("duplicate-access-group"), "\(fromFile)")
        XCTAssertTrue(rules.contains("default-group-drift"), "the lock is read: \(fromFile)")
        XCTAssertFalse(rules.contains("wildcard-access-group"), "the directive silences it: \(fromFile)")
        XCTAssertEqual(fromStandardInput, fromFile, "standard input")
        XCTAssertEqual(inMemory, fromFile, "lint(entitlements:)")
        XCTAssertEqual(checked, fromFile, "check(_:)")
        XCTAssertEqual(together, fromFile, "lint(units:)")
    }

    /// The plan decides which rules see a unit: a dead file gets only the dead-file rules, a
    /// context unit none, and a built product's findings have no line.
    func testThePlanDecidesWhatEachUnitIsCheckedFor() throws {
        // The fixture without its directive: the wildcard is reported too.
        let bytes = Array(Self.text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("entitlint:") }.joined(separator: "\n").utf8)
        guard case .entitlements(let document) = DocumentReader.parse(bytes: bytes, path: "App.entitlements", limits: .default) else {
            return XCTFail("the fixture parses")
        }
        let linter = Linter(rules: RuleRegistry.all)
        let unit = linter.unit(document: document, path: "App.entitlements", name: "App", bundleID: "com.example.App")
        let all = linter.run(UnitPlan(units: [PlannedUnit(unit)])).findings
        XCTAssertTrue(all.contains { $0.rule == "duplicate-access-group" && $0.line > 0 }, "\(all)")
        XCTAssertTrue(all.contains { $0.rule == "wildcard-access-group" }, "\(all)")
        var dead = unit
        dead.isUnused = true
        let deadFindings = linter.run(UnitPlan(units: [PlannedUnit(dead, checks: .deadFile)])).findings
        XCTAssertEqual(deadFindings.map(\.rule), ["unused-entitlements-file"], "\(deadFindings)")
        XCTAssertEqual(linter.run(UnitPlan(units: [PlannedUnit(unit, checks: .none)])).findings, [], "context is never reported on")
        let built = linter.run(UnitPlan(units: [PlannedUnit(unit, lineless: true)])).findings
        XCTAssertEqual(Set(built.map(\.rule)), Set(all.map(\.rule)))
        XCTAssertTrue(built.allSatisfy { $0.line == 0 }, "\(built)")
        var capped = UnitPlan(units: [PlannedUnit(unit)])
        capped.maxFindings = 1
        let cut = linter.run(capped)
        XCTAssertEqual(cut.findings.count, 2, "one kept, one saying how many more: \(cut.findings)")
        XCTAssertEqual(cut.findings.last?.rule, "findings-truncated")
        XCTAssertEqual(cut.omitted, all.count - 1)
    }
}
