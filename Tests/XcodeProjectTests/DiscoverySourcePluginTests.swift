import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// A new discovery source needs its own file (`StubSpecSource.swift`) and one registration line:
/// the walk collects its files, a file it names is not linted as a loose property list, the
/// project it generates is left to it, and the merge settles a file two sources claim.
final class DiscoverySourcePluginTests: XCTestCase {
    /// A folder holding `app.stub`, the entitlements file it names, and `Stub.xcodeproj`, whose
    /// target signs with the same file under another bundle ID.
    func folder() throws -> URL {
        let dir = try Fixture.temporaryDirectory(self)
        var project = ProjectFixture()
        project.name = "Stub"
        project.targets = [.init(name: "FromXcode", settings: [("Release", [("CODE_SIGN_ENTITLEMENTS", "App.entitlements"),
                                                                            ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.FromXcode"),
                                                                            ("DEVELOPMENT_TEAM", "ABCDE12345")])])]
        try project.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: dir)
        try Fixture.write("App.entitlements\n", "app.stub", in: dir)
        return dir
    }

    func lint(_ paths: [String], sources: [any DiscoverySource]) throws -> LintResult {
        var options = LintOptions()
        options.paths = paths
        options.parallel = false
        options.discoverySources = sources
        return try Linter(rules: RuleRegistry.all).lint(options)
    }

    func testWithoutTheSourceTheXcodeProjectDefinesTheUnit() throws {
        let result = try lint([try folder().path], sources: [XcodeDiscoverer()])
        XCTAssertEqual(result.units.map(\.name), ["FromXcode (Release)"])
        XCTAssertEqual(result.units.first?.bundleID?.value, "com.example.FromXcode")
    }

    func testRegisteredSourceSupersedesTheProjectItGenerates() throws {
        let result = try lint([try folder().path], sources: [XcodeDiscoverer(), StubSpecSource()])
        XCTAssertEqual(result.units.map(\.name), ["Stub (Release)"], "the generated project is read from its spec only")
        XCTAssertEqual(result.units.first?.bundleID?.value, "com.example.FromStub")
        XCTAssertTrue(result.paths.contains { $0.hasSuffix("app.stub") }, "the spec counts as a file read: \(result.paths)")
        XCTAssertTrue(result.notices.isEmpty, "\(result.notices)")
    }

    func testSpecNamedOnTheCommandLineIsNotALooseFile() throws {
        let dir = try folder()
        let spec = dir.appendingPathComponent("app.stub").path
        let named = try lint([spec], sources: [StubSpecSource()])
        XCTAssertEqual(named.units.map(\.name), ["Stub (Release)"])
        XCTAssertFalse(named.findings.contains { $0.rule == "parse-error" }, "\(named.findings)")
        // Unregistered, the same file is only a file that is not a property list.
        let unknown = try lint([spec], sources: [])
        XCTAssertTrue(unknown.units.isEmpty || unknown.units.allSatisfy { $0.origin == nil })
        XCTAssertTrue(unknown.findings.contains { $0.rule == "parse-error" && $0.path.hasSuffix("app.stub") }, "\(unknown.findings)")
    }

    func testFirstRegisteredSourceKeepsAFileBothClaim() throws {
        let dir = try folder()
        let xcodeFirst = try lint([dir.path], sources: [XcodeDiscoverer(), StubSpecSource(supersedesGeneratedProject: false)])
        XCTAssertEqual(xcodeFirst.units.map(\.name), ["FromXcode (Release)"])
        XCTAssertEqual(xcodeFirst.notices.filter { $0.message.contains("stub specs") }.count, 1, "\(xcodeFirst.notices)")
        let stubFirst = try lint([dir.path], sources: [StubSpecSource(supersedesGeneratedProject: false), XcodeDiscoverer()])
        XCTAssertEqual(stubFirst.units.map(\.name), ["Stub (Release)"])
        XCTAssertTrue(stubFirst.notices.contains { $0.message.contains("read from stub specs") }, "\(stubFirst.notices)")
    }
}
