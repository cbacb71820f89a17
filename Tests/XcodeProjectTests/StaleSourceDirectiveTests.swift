import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import TestSupport
@testable import XcodeProject

/// A directive in a scanned source file where the run finds nothing at all is still read, so a
/// stale or broken one is reported; a directive naming a code rule there is not judged.
final class StaleSourceDirectiveTests: XCTestCase {
    func project(_ files: [String: String]) throws -> URL {
        let root = try Fixture.temporaryDirectory(self)
        for (path, text) in files { try Fixture.write(text, path, in: root) }
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: root)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: LinkedCodeTests.settings("com.example.app", entitlements: "App.entitlements"),
                           synchronizedFolders: [(path: "App", exceptions: [])])]
        try p.write(to: root)
        return root
    }

    func testDirectivesInAFileWithoutFindingsAreStillChecked() throws {
        let root = try project([
            "App/Quiet.swift": """
                // entitlint:disable-next-line wildcard-access-group: copied from the entitlements file
                let a = 1
                // entitlint:disable-nextline code-group-not-entitled
                let b = 2
                // entitlint:disable-next-line code-group-not-entitled: the SDK's own group
                let c = 3
                let help = "// entitlint:disable-file all"

                """,
            "App/Plain.swift": "let d = 4\n",
        ])
        let result = try Fixture.lint([root.path])
        let unused = result.findings.filter { $0.rule == "unused-suppression" }
        XCTAssertEqual(unused.map { "\($0.path.hasSuffix("App/Quiet.swift")) \($0.line)" }, ["true 1", "true 3"],
                       "\(result.findings.map { "\($0.path):\($0.line) \($0.rule) \($0.message)" })")
        XCTAssertTrue(unused.first?.message.contains("no wildcard-access-group finding on line 2") == true, unused.first?.message ?? "")
        XCTAssertTrue(unused.last?.message.contains("is not a directive (did you mean 'disable-next-line'?)") == true, unused.last?.message ?? "")
    }

    func testDirectivesInAnXcconfigAndASpecWithoutFindingsAreStillChecked() throws {
        let root = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write([
            "Config/App.xcconfig": "// entitlint:disable-next-line wildcard-access-group: not here\nDEVELOPMENT_TEAM = ABCDE12345\n",
            "App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]),
        ], in: root)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"), ("CODE_SIGN_ENTITLEMENTS", "App.entitlements")])],
                           baseConfigurations: ["Release": "Config/App.xcconfig"])]
        try p.write(to: root)
        let spec = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": SyntheticProject.spec("Suite", head: ["# entitlint:disable-file unknown-rule-name: a typo"],
                                                                         targets: [SpecTarget("App", more: ["bundleId: com.example.app"])])], in: spec)
        for (folder, file, line, phrase) in [(root, "Config/App.xcconfig", 1, "no wildcard-access-group finding on line 2"),
                                             (spec, "project.yml", 2, "unknown rule 'unknown-rule-name'")] {
            let result = try Fixture.lint([folder.path])
            let unused = result.findings.filter { $0.rule == "unused-suppression" }
            XCTAssertEqual(unused.map { "\($0.path.hasSuffix(file)) \($0.line)" }, ["true \(line)"],
                           "\(result.findings.map { "\($0.path):\($0.line) \($0.rule) \($0.message)" })")
            XCTAssertTrue(unused.first?.message.contains(phrase) == true, unused.first?.message ?? "")
        }
    }
}
