import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
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
}
