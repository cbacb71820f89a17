import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import TestSupport
@testable import XcodeProject

/// Inline directives in the project's own files, end to end: a Swift file, an xcconfig file and
/// an XcodeGen spec, each with a finding that a directive on the line before suppresses.
final class SourceSuppressionProjectTests: XCTestCase {
    /// The file a finding is located in.
    func url(of f: Finding) -> URL {
        URL(fileURLWithPath: Paths.absolute(f.path, cwd: FileManager.default.currentDirectoryPath))
    }

    /// Writes `comment` (with the indentation of the finding's line) on a line of its own before it.
    func insert(_ comment: String, before f: Finding) throws {
        var lines = try String(contentsOf: url(of: f), encoding: .utf8).components(separatedBy: "\n")
        let indent = lines[f.line - 1].prefix { $0 == " " || $0 == "\t" }
        lines.insert(String(indent) + comment, at: f.line - 1)
        try lines.joined(separator: "\n").write(to: url(of: f), atomically: true, encoding: .utf8)
    }

    func rules(_ result: LintResult) -> [String] { result.findings.map(\.rule) }

    func swiftProject() throws -> URL {
        let root = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["App/A.swift": """
            import Security

            func save() {
                let q: [String: Any] = [kSecAttrAccessGroup as String: "ABCDE12345.com.example.other"]
                SecItemAdd(q as CFDictionary, nil)
            }
            """, "App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"])], in: root)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: LinkedCodeTests.settings("com.example.app", entitlements: "App.entitlements"),
                           synchronizedFolders: [(path: "App", exceptions: [])])]
        try p.write(to: root)
        return root
    }

    func codeFinding(_ result: LintResult) throws -> Finding {
        try XCTUnwrap(result.findings.first { $0.rule.hasPrefix("code-") && $0.path.hasSuffix("App/A.swift") }, "\(result.findings.map(\.rule))")
    }

    func testSwiftDirectiveSuppressesACodeFinding() throws {
        let root = try swiftProject()
        let f = try codeFinding(try Fixture.lint([root.path]))
        try insert("// entitlint:disable-next-line \(f.rule): the SDK's own group", before: f)
        let result = try Fixture.lint([root.path])
        XCTAssertFalse(result.findings.contains { $0.path == f.path }, "\(result.findings.map { "\($0.rule) \($0.message)" })")
    }

    func testSwiftDirectiveThatSuppressesNothingIsReported() throws {
        let root = try swiftProject()
        let f = try codeFinding(try Fixture.lint([root.path]))
        let misspelt = String(f.rule.dropLast()) + "x"
        try insert("// entitlint:disable-next-line \(misspelt)", before: f)
        // A rule that never reports in code, and a code rule where the code has no finding
        // (not judged: whether it would report needs the project's facts).
        try insert("// entitlint:disable-next-line wildcard-access-group, \(f.rule): reason", before: Finding(rule: f.rule, severity: f.severity, message: "", path: f.path, line: 3, column: 0))
        let result = try Fixture.lint([root.path])
        let unused = result.findings.filter { $0.rule == "unused-suppression" }
        XCTAssertEqual(unused.map(\.line), [3, 5], "\(result.findings.map { "\($0.line) \($0.rule) \($0.message)" })")
        XCTAssertTrue(unused[0].message.contains("no wildcard-access-group finding on line 4"), unused[0].message)
        XCTAssertFalse(unused[0].message.contains(f.rule), unused[0].message)
        XCTAssertTrue(unused[1].message.contains("unknown rule '\(misspelt)' (did you mean '\(f.rule)'?)"), unused[1].message)
        XCTAssertTrue(result.findings.contains { $0.rule == f.rule && $0.line == f.line + 2 }, "the misspelt directive silences nothing")
    }

    func testDirectiveTextInAStringLiteralIsNotADirective() throws {
        let root = try swiftProject()
        let f = try codeFinding(try Fixture.lint([root.path]))
        let file = url(of: f)
        let text = try String(contentsOf: file, encoding: .utf8)
        try ("""
            let help = \"""
            // entitlint:disable-file \(f.rule): text of a string
            \"""
            let hint = "// entitlint:disable-file \(f.rule)"

            """ + text).write(to: file, atomically: true, encoding: .utf8)
        let result = try Fixture.lint([root.path])
        XCTAssertEqual(result.findings.filter { $0.rule == f.rule }.map(\.line), [f.line + 4], "\(result.findings.map(\.rule))")
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-suppression" }, "no directive was read")
    }

    func testXcconfigDirectiveSuppressesABuildSettingFinding() throws {
        let root = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["Config/App.xcconfig": "// The app's team\nDEVELOPMENT_TEAM = ABCDE12345\n",
                                    "App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]),
                                    "Widget.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app.widget"])], in: root)
        var p = ProjectFixture()
        p.targets = [
            .init(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"), ("CODE_SIGN_ENTITLEMENTS", "App.entitlements")])],
                  baseConfigurations: ["Release": "Config/App.xcconfig"], embeds: ["Widget"]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension",
                  settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app.widget"), ("DEVELOPMENT_TEAM", "ZYXWV98765"),
                                        ("CODE_SIGN_ENTITLEMENTS", "Widget.entitlements")])]),
        ]
        try p.write(to: root)
        let f = try XCTUnwrap(try Fixture.lint([root.path]).findings.first { $0.path.hasSuffix("Config/App.xcconfig") && $0.line > 0 })
        try insert("// entitlint:disable-next-line \(f.rule): the widget moves to our team in 3.2", before: f)
        try insert("// entitlint:disable-nextline \(f.rule)", before: Finding(rule: f.rule, severity: f.severity, message: "", path: f.path, line: 1, column: 0))
        let result = try Fixture.lint([root.path])
        let inFile = result.findings.filter { $0.path == f.path }
        XCTAssertEqual(inFile.map { "\($0.line) \($0.rule)" }, ["1 unused-suppression"], "\(result.findings.map { "\($0.rule) \($0.message)" })")
        XCTAssertTrue(inFile.first?.message.contains("is not a directive (did you mean 'disable-next-line'?)") == true, "\(inFile.map(\.message))")
    }

    func testYAMLSpecDirectiveSuppressesAnXcodeGenFinding() throws {
        let root = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": SyntheticProject.spec("Suite", head: ["options:", "  bundleIdPrefix: com.example"], targets: [
            SpecTarget("App", entitlements: "App/App.entitlements", properties: ["com.apple.security.application-groups:", "  - suite"]),
        ])], in: root)
        let f = try XCTUnwrap(try Fixture.lint([root.path]).findings.first { $0.path.hasSuffix("project.yml") && $0.line > 0 })
        try insert("# entitlint:disable-next-line \(f.rule): a legacy name the server knows", before: f)
        let result = try Fixture.lint([root.path])
        XCTAssertFalse(result.findings.contains { $0.path == f.path }, "\(result.findings.map { "\($0.rule) \($0.message)" })")
    }
}
