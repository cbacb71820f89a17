import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// A Tuist `Workspace.swift` names where its projects' manifests are: a project it lists is read
/// even where the folder walk does not go, a listed folder without a manifest is a note; and
/// each target keeps its declared destinations and deployment target for the report.
extension TuistSourceTests {
    /// A workspace listing `App` (a string), `Modules/**` (a glob), `Pods/Kit` (a Path, in a
    /// folder the walk skips), a folder holding no manifest, and an element that needs evaluation.
    func writeWorkspace(_ dir: URL) throws {
        try Fixture.write("""
        import ProjectDescription

        let workspace = Workspace(
            name: "Suite",
            projects: [
                "App",
                "Modules/**",
                .relativeToRoot("Pods/Kit"),
                "Missing",
                "\\(generated)",
            ]
        )
        """, "Workspace.swift", in: dir)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app", entitlements: "App.entitlements",
                    dependencies: [.project(target: "Share", path: "../Modules/Share")]),
        ])
        """, "App/Project.swift", in: dir)
        for (folder, name) in [("Modules/Share", "Share"), ("Modules/Deep/Widget", "Widget"), ("Pods/Kit", "Kit")] {
            try Fixture.write("""
            import ProjectDescription

            let project = Project(name: "\(name)", targets: [
                .target(name: "\(name)", destinations: .iOS, product: .appExtension, bundleId: "com.example.app.\(name.lowercased())"),
            ])
            """, "\(folder)/Project.swift", in: dir)
        }
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "App/App.entitlements", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Missing"), withIntermediateDirectories: true)
    }

    func assertWorkspaceRead(_ result: LintResult, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (Debug)", "App (Release)", "Share (Debug)", "Share (Release)",
                                                      "Widget (Debug)", "Widget (Release)", "Kit (Debug)", "Kit (Release)"], file: file, line: line)
        let app = try unit(result, "App (Debug)")
        XCTAssertEqual(app.origin?.declared.workspace?.value, "Suite", file: file, line: line)
        XCTAssertTrue(app.origin?.declared.workspace?.source.hasSuffix("Workspace.swift:3") == true, "\(String(describing: app.origin?.declared))", file: file, line: line)
        XCTAssertTrue(try unit(result, "Kit (Release)").origin?.declared.workspace?.source.hasSuffix("Workspace.swift:3") == true, file: file, line: line)
        XCTAssertEqual(try unit(result, "Share (Debug)").origin?.hostTarget, "App", file: file, line: line)
        let missing = result.notices.filter { $0.message.contains("holds no Project.swift") }
        XCTAssertEqual(missing.count, 1, "\(result.notices)", file: file, line: line)
        XCTAssertTrue(missing.first?.message.contains("Missing") == true, "\(missing)", file: file, line: line)
        XCTAssertEqual(missing.first?.line, 9, file: file, line: line)
        XCTAssertFalse(result.findings.contains { $0.message.contains("Missing") }, "a missing project is a note, not a finding", file: file, line: line)
        XCTAssertTrue(result.notices.contains { $0.message.contains("a project of workspace Suite needs evaluation") && $0.line == 10 }, "\(result.notices)",
                      file: file, line: line)
    }

    func testAWorkspaceListsProjectsByStringGlobAndPath() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeWorkspace(dir)
        try assertWorkspaceRead(try lint(dir))
    }

    func testTheWorkspaceFileNamedAloneReadsItsProjects() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeWorkspace(dir)
        try assertWorkspaceRead(try lint(dir.appendingPathComponent("Workspace.swift")))
    }

    /// A `Project.swift` named alone is read as the walk reads it: its targets, and what they
    /// depend on in other projects.
    func testAManifestNamedAloneReadsItsTargets() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeWorkspace(dir)
        let result = try lint(dir.appendingPathComponent("App/Project.swift"))
        XCTAssertTrue(Set(result.units.map(\.name)).isSuperset(of: ["App (Debug)", "App (Release)"]), "\(result.units.map(\.name))")
        XCTAssertEqual(try unit(result, "App (Debug)").entitlementsPath.hasSuffix("App/App.entitlements"), true)
    }

    func testGlobsMatchFolderNamesAndAnyDepth() {
        XCTAssertTrue(TuistWorkspace.matches(["**"], ["A", "B"]))
        XCTAssertTrue(TuistWorkspace.matches(["**"], []))
        XCTAssertTrue(TuistWorkspace.matches(["*"], ["Share"]))
        XCTAssertFalse(TuistWorkspace.matches(["*"], ["Deep", "Widget"]))
        XCTAssertTrue(TuistWorkspace.matches(["F*", "**", "?it"], ["Features", "a", "b", "Kit"]))
        XCTAssertFalse(TuistWorkspace.matches(["F*", "?it"], ["Features", "Kits"]))
    }

    /// Each glob walks a folder: past the bound, a glob is a note, not read.
    func testGlobsPerWorkspaceAreBounded() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let globs = (1...17).map { "\"M\($0)/*\"" }.joined(separator: ", ")
        try Fixture.write("import ProjectDescription\nlet workspace = Workspace(name: \"W\", projects: [\(globs)])\n", "Workspace.swift", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(result.notices.filter { $0.message.contains("matches no folder") }.count, 16, "\(result.notices)")
        XCTAssertEqual(result.notices.filter { $0.message.contains("more than 16 globs") && $0.message.contains("M17/*") }.count, 1, "\(result.notices)")
    }

    func testAProjectsListThatNeedsEvaluationIsANotice() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("import ProjectDescription\n\nlet workspace = Workspace(name: \"W\", projects: allProjects())\n", "Workspace.swift", in: dir)
        let result = try lint(dir)
        XCTAssertTrue(result.notices.contains { $0.message.contains("the projects of workspace W need evaluation") && $0.line == 3 }, "\(result.notices)")
        XCTAssertTrue(result.findings.isEmpty, "\(result.findings)")
    }

    /// `destinations:` and `deploymentTargets:` are kept as declared, per SDK (Mac Catalyst takes
    /// the iOS deployment target); a constant is followed; a call that needs evaluation is unknown.
    func testDestinationsAndDeploymentTargetsAreKeptAsDeclared() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        import ProjectDescription

        let minimum: DeploymentTargets = .multiplatform(iOS: "16.0", macOS: "13.0")
        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: [.iPhone, .iPad, .macCatalyst], product: .app, bundleId: "com.example.app",
                    deploymentTargets: minimum),
            .target(name: "Mac", destinations: .macOS, product: .app, bundleId: "com.example.mac",
                    deploymentTargets: .macOS("14.0")),
            .target(name: "Phone", destinations: .iOS, product: .app, bundleId: "com.example.phone",
                    deploymentTargets: computedTargets()),
            .target(name: "Old", platform: .iOS, product: .app, bundleId: "com.example.old",
                    deploymentTarget: .iOS(targetVersion: "15.0", devices: [.iphone, .ipad])),
        ])
        """, "Project.swift", in: dir)
        let result = try lint(dir)
        let app = try unit(result, "App (Debug)").origin?.declared
        XCTAssertEqual(app?.deviceFamilies?.value, "iPhone, iPad, macCatalyst")
        XCTAssertTrue(app?.deviceFamilies?.source.hasPrefix("destinations at ") == true && app?.deviceFamilies?.source.hasSuffix("/Project.swift:5") == true, "\(String(describing: app))")
        XCTAssertEqual(app?.minimumOS?.value, "16.0")
        XCTAssertTrue(app?.minimumOS?.source.hasPrefix("deploymentTargets at ") == true && app?.minimumOS?.source.hasSuffix("/Project.swift:3") == true, "\(String(describing: app))")
        XCTAssertEqual(try unit(result, "App (Debug, Mac Catalyst)").origin?.declared.minimumOS?.value, "16.0")
        let mac = try unit(result, "Mac (Release)").origin?.declared
        XCTAssertEqual(mac?.deviceFamilies?.value, "mac")
        XCTAssertEqual(mac?.minimumOS?.value, "14.0")
        let phone = try unit(result, "Phone (Debug)").origin?.declared
        XCTAssertEqual(phone?.deviceFamilies?.value, "iPhone, iPad, macWithiPadDesign", "Tuist's .iOS set")
        XCTAssertNil(phone?.minimumOS?.value)
        XCTAssertTrue(phone?.minimumOS?.source.contains("deploymentTargets unknown") == true, "\(String(describing: phone))")
        let old = try unit(result, "Old (Debug)").origin?.declared
        XCTAssertEqual(old?.deviceFamilies?.value, "iphone, ipad")
        XCTAssertEqual(old?.minimumOS?.value, "15.0")
        XCTAssertTrue(old?.minimumOS?.source.hasPrefix("deploymentTarget at ") == true && old?.minimumOS?.source.hasSuffix("/Project.swift:12") == true, "\(String(describing: old))")
    }
}
