import XCTest
import EntitlintCore
import EntitlintWorkspace
import TestSupport
@testable import XcodeProject

/// An entitlements file linted alone (as the pre-commit hook lints a changed file) belongs to the
/// XcodeGen spec above it whatever the spec's name, by the content test a folder walk applies; the
/// search reads only YAML files directly in each folder up to the work tree's root, each of a
/// bounded size.
final class AncestorSpecTests: XCTestCase {
    func writeProject(in dir: URL, padding: Int = 0) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let app = SyntheticProject.spec("App", head: ["include:", "  - path: common.yml"], team: nil, targets: [
            SpecTarget("App", bundleID: "com.example.App", entitlements: "App/App.entitlements", entitlementsFirst: true),
        ])
        try SyntheticProject.write(["app-project.yml": app + "\n" + String(repeating: "# padding\n", count: padding),
                                    "common.yml": SyntheticProject.spec("Common", targets: [SpecTarget("Shared", type: "framework")]), ".swiftlint.yml": "disabled_rules:\n  - line_length\n",
           "App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])], in: dir)
    }

    struct Facts: Hashable {
        var name: String
        var bundleID: String?
        var team: String?
        var defaultGroup: String?
    }

    func facts(_ result: LintResult) -> [Facts] {
        result.units.map { Facts(name: $0.name, bundleID: $0.bundleID?.value, team: $0.teamID?.value, defaultGroup: $0.accessGroups.defaultGroup?.value) }
            .sorted { $0.name < $1.name }
    }

    func testAFileLintedAloneGetsTheUnitsOfASpecFoundByContent() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeProject(in: dir)
        let folder = try Fixture.lint([dir.path])
        let alone = try Fixture.lint([dir.appendingPathComponent("App/App.entitlements").path])
        XCTAssertEqual(facts(folder).map(\.name), ["App (Debug)", "App (Release)"], "the included spec is not a project of its own")
        XCTAssertEqual(facts(alone), facts(folder))
        XCTAssertEqual(alone.units.first?.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App")
        XCTAssertEqual(alone.units.first?.origin?.projectFile.hasSuffix("app-project.yml"), true)
    }

    func testASpecAboveTheSizeCapIsNotReadOnTheFilesPath() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeProject(in: dir, padding: (XcodeGenSpec.ancestorSpecLimit / 10) + 1)
        let alone = try Fixture.lint([dir.appendingPathComponent("App/App.entitlements").path])
        XCTAssertNil(alone.units.first?.origin, "read as a loose file: \(alone.units.map(\.name))")
    }
}
