import XCTest
import TestSupport
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// A spec that another spec of the run includes is read with the including spec (XcodeGen merges
/// it in), not on its own as well: its targets are units once, whether the run walks the folder
/// or names one entitlements file below the included spec (as the pre-commit hook does).
final class IncludedSpecTests: XCTestCase {
    /// `project.yml` at the root includes `Child/project.yml`, which defines the app; the root
    /// spec gives the team.
    func writeProject(in dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Fixture.write(SyntheticProject.spec("Root", head: ["include:", "  - Child/project.yml"], targets: []), "project.yml", in: dir)
        try Fixture.write(SyntheticProject.spec("Child", team: nil, targets: [
            SpecTarget("App", bundleID: "com.example.App", entitlements: "App/App.entitlements", entitlementsFirst: true),
        ]), "Child/project.yml", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Child/App/App.entitlements", in: dir)
    }

    func summary(_ result: LintResult) -> [String] {
        result.units.map { "\($0.name) \($0.origin?.projectFile ?? "-") \($0.teamID?.value ?? "-")" }.sorted()
    }

    func testAFileBelowAnIncludedSpecGetsTheUnitsOnce() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeProject(in: dir)
        let alone = try Fixture.lint([dir.appendingPathComponent("Child/App/App.entitlements").path])
        XCTAssertEqual(alone.units.count, 2, "\(summary(alone))")
        XCTAssertEqual(alone.units.map(\.name).sorted(), ["App (Debug)", "App (Release)"])
        XCTAssertTrue(alone.units.allSatisfy { $0.origin?.projectFile.hasSuffix("Child/project.yml") == false }, "read from the including spec: \(summary(alone))")
        XCTAssertTrue(alone.units.allSatisfy { $0.teamID?.value == "ABCDE12345" }, "\(summary(alone))")
    }

    func testAWalkGetsTheUnitsOnce() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeProject(in: dir)
        let folder = try Fixture.lint([dir.path])
        let alone = try Fixture.lint([dir.appendingPathComponent("Child/App/App.entitlements").path])
        XCTAssertEqual(folder.units.map(\.name).sorted(), ["App (Debug)", "App (Release)"], "\(summary(folder))")
        XCTAssertEqual(summary(alone).map { $0.replacingOccurrences(of: dir.path + "/", with: "") },
                       summary(folder).map { $0.replacingOccurrences(of: dir.path + "/", with: "") })
    }

    func testSpecsThatIncludeEachOtherAreBothStillRead() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeProject(in: dir)
        // A loop: neither spec is the root, so neither is left out (the loop itself is reported).
        try Fixture.write(SyntheticProject.spec("Child", head: ["include:", "  - ../project.yml"], team: nil, targets: [
            SpecTarget("App", entitlements: "App/App.entitlements"),
        ]), "Child/project.yml", in: dir)
        let folder = try Fixture.lint([dir.path])
        XCTAssertFalse(folder.units.isEmpty, "\(folder.findings)")
    }
}
