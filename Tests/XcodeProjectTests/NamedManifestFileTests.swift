import EntitlintCore
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// An entitlements file named alone (as the pre-commit hook names a changed file) gets the facts
/// of the Tuist manifest or Bazel build file above it that names it, as a run over the folder
/// does; the search stops at the git work tree's root (Bazel: at the workspace root too), and the
/// other targets of the manifest are context, their findings not reported.
final class NamedManifestFileTests: XCTestCase {
    struct Facts: Hashable {
        var name: String
        var bundleID: String?
        var team: String?
        var kind: UnitOrigin.Kind?
        var platform: Platform
        var entitlements: String
        var projectFile: String?
    }

    func facts(_ result: LintResult) -> [Facts] {
        result.units.map {
            Facts(name: $0.name, bundleID: $0.bundleID?.value, team: $0.teamID?.value, kind: $0.origin?.kind, platform: $0.platform,
                  entitlements: URL(fileURLWithPath: $0.entitlementsPath).standardizedFileURL.path,
                  projectFile: $0.origin.map { URL(fileURLWithPath: $0.projectFile).standardizedFileURL.path })
        }.sorted { $0.name < $1.name }
    }

    func lint(_ path: URL, _ sources: [any DiscoverySource]) throws -> LintResult {
        try Fixture.lint([path.path]) { $0.discoverySources = sources }
    }

    /// A git work tree holding a Tuist project: `App` names `App/App.entitlements`, `Tool` a file
    /// that does not exist (a finding of `Tool`), `Generated` a dictionary (a notice).
    func writeTuistProject(in dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app",
                    entitlements: "App/App.entitlements",
                    settings: .settings(base: ["DEVELOPMENT_TEAM": "ABCDE12345"])),
            .target(name: "Tool", destinations: .iOS, product: .app, bundleId: "com.example.tool",
                    entitlements: "Tool/Gone.entitlements"),
            .target(name: "Generated", destinations: .iOS, product: .appExtension, bundleId: "com.example.app.gen",
                    entitlements: .dictionary(["com.apple.security.app-sandbox": sandboxed])),
        ])
        """, "Project.swift", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["ABCDE12345.com.example.loose"]), "Loose/Loose.entitlements", in: dir)
    }

    func testATuistProjectsFileNamedAloneHasTheFactsOfTheFolderRun() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeTuistProject(in: dir)
        let sources: [any DiscoverySource] = [XcodeDiscoverer(), TuistSource()]
        let folder = try lint(dir, sources)
        XCTAssertTrue(folder.findings.contains { $0.message.contains("Tool/Gone.entitlements") }, "\(folder.findings)")
        let alone = try lint(dir.appendingPathComponent("App/App.entitlements"), sources)
        XCTAssertEqual(facts(alone).map(\.name), ["App (Debug)", "App (Release)"])
        XCTAssertEqual(facts(alone), facts(folder).filter { $0.name.hasPrefix("App ") })
        XCTAssertEqual(alone.units.first?.teamID?.value, "ABCDE12345")
        XCTAssertEqual(alone.units.first?.origin?.projectFile.hasSuffix("Project.swift"), true)
        XCTAssertFalse(alone.findings.contains { $0.message.contains("Gone") }, "Tool does not concern App.entitlements: \(alone.findings)")
        XCTAssertFalse(alone.notices.contains { $0.message.contains("Generated") }, "\(alone.notices)")

        // A file the manifest does not name is a loose file; the findings of the manifest's
        // targets are not its concern, the notices of targets whose entitlements are unknown are.
        let loose = try lint(dir.appendingPathComponent("Loose/Loose.entitlements"), sources)
        XCTAssertEqual(loose.units.count, 1)
        XCTAssertNil(loose.units.first?.origin, "\(loose.units.map(\.name))")
        XCTAssertFalse(loose.findings.contains { $0.message.contains("Gone") }, "\(loose.findings)")
        XCTAssertTrue(loose.notices.contains { $0.message.contains("Generated") }, "\(loose.notices)")
    }

    func testTheTuistSearchStopsAtTheWorkTreesRoot() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeTuistProject(in: dir.appendingPathComponent("repo"))
        // A manifest above the work tree naming the file is not read.
        try Fixture.write("""
        let project = Project(name: "Outer", targets: [
            .target(name: "Outer", destinations: .iOS, product: .app, bundleId: "com.example.outer",
                    entitlements: "repo/Loose/Loose.entitlements"),
        ])
        """, "Project.swift", in: dir)
        let alone = try lint(dir.appendingPathComponent("repo/Loose/Loose.entitlements"), [XcodeDiscoverer(), TuistSource()])
        XCTAssertEqual(alone.units.count, 1)
        XCTAssertNil(alone.units.first?.origin, "\(alone.units.map(\.name))")
        // Named as a folder, the outer project is read (the user named its root).
        let outer = try lint(dir, [XcodeDiscoverer(), TuistSource()])
        XCTAssertTrue(outer.units.contains { $0.origin?.target == "Outer" }, "\(outer.units.map(\.name))")
    }

    /// A Bazel workspace: `app/BUILD.bazel` names `App.entitlements` of its package and
    /// `sub/Sub.entitlements` of a folder below it with no build file of its own.
    func writeBazelWorkspace(in dir: URL, root: Bool) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        if root { try Fixture.write("module(name = \"demo\")\n", "MODULE.bazel", in: dir) }
        try Fixture.write("""
        ios_application(
            name = "App",
            bundle_id = "com.example.app",
            entitlements = "App.entitlements",
            extensions = [":Sub"],
        )

        ios_extension(
            name = "Sub",
            bundle_id = "com.example.app.sub",
            entitlements = "sub/Sub.entitlements",
        )
        """, "app/BUILD.bazel", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "app/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app.sub"]), "app/sub/Sub.entitlements", in: dir)
    }

    func testABazelTargetsFileNamedAloneHasTheFactsOfTheFolderRun() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeBazelWorkspace(in: dir, root: true)
        let sources: [any DiscoverySource] = [XcodeDiscoverer(), BazelSource()]
        let folder = try lint(dir, sources)
        for (file, target) in [("app/App.entitlements", "App"), ("app/sub/Sub.entitlements", "Sub")] {
            let alone = try lint(dir.appendingPathComponent(file), sources)
            XCTAssertEqual(facts(alone).map(\.name), ["\(target) (default)"])
            XCTAssertEqual(facts(alone), facts(folder).filter { $0.name.hasPrefix(target + " ") })
        }
        XCTAssertEqual(try lint(dir.appendingPathComponent("app/sub/Sub.entitlements"), sources).units.first?.origin?.hostTarget, "App")
    }

    func testABazelBuildFileWithNoWorkspaceRootIsNotSearchedFor() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeBazelWorkspace(in: dir, root: false)
        let alone = try lint(dir.appendingPathComponent("app/App.entitlements"), [XcodeDiscoverer(), BazelSource()])
        XCTAssertEqual(alone.units.count, 1)
        XCTAssertNil(alone.units.first?.origin, "\(alone.units.map(\.name))")
    }
}
