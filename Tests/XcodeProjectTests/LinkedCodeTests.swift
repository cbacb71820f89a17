import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// The code of framework and library targets counts as the code of every app and extension that
/// links or embeds them (it runs in their processes), through chains and cycles of links.
final class LinkedCodeTests: XCTestCase {
    static func settings(_ bundle: String, entitlements: String? = nil) -> [(String, [(String, String)])] {
        var s = [("PRODUCT_BUNDLE_IDENTIFIER", bundle), ("DEVELOPMENT_TEAM", "ABCDE12345")]
        if let entitlements { s.append(("CODE_SIGN_ENTITLEMENTS", entitlements)) }
        return [("Debug", s), ("Release", s)]
    }

    func sources(_ result: LintResult, _ unit: String) throws -> [String] {
        let u = try XCTUnwrap(result.units.first { $0.name == unit }, "\(result.units.map(\.name))")
        return try XCTUnwrap(u.origin?.sources).files
    }

    func testFrameworkAndLibraryCodeCountsForTheTargetsThatLinkOrEmbedIt() throws {
        let root = try Fixture.temporaryDirectory(self)
        for f in ["App/A.swift", "Kit/K.swift", "Core/C.swift", "Widget/W.swift", "Res/R.swift", "Loose/L.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        try Fixture.write("""
            func save() {
                let q: [String: Any] = [kSecAttrAccessGroup as String: "ABCDE12345.com.example.shared"]
                SecItemAdd(q as CFDictionary, nil)
            }
            """, "Kit/K.swift", in: root)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: root)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app.widget"]), "Widget.entitlements", in: root)
        var p = ProjectFixture()
        p.targets = [
            // The app links Kit (a frameworks phase) and embeds the widget and a resource bundle.
            .init(name: "App", settings: Self.settings("com.example.app", entitlements: "App.entitlements"), embeds: ["Widget", "Res"],
                  links: ["Kit"], synchronizedFolders: [(path: "App", exceptions: [])]),
            // Kit links the static library Core, which links Kit back: a cycle, followed once.
            .init(name: "Kit", productType: "com.apple.product-type.framework", settings: Self.settings("com.example.kit"),
                  links: ["Core"], synchronizedFolders: [(path: "Kit", exceptions: [])]),
            .init(name: "Core", productType: "com.apple.product-type.library.static", settings: Self.settings("com.example.core"),
                  links: ["Kit"], synchronizedFolders: [(path: "Core", exceptions: [])]),
            // The widget only embeds Kit (a copy-files phase).
            .init(name: "Widget", productType: "com.apple.product-type.app-extension",
                  settings: Self.settings("com.example.app.widget", entitlements: "Widget.entitlements"), embeds: ["Kit"],
                  synchronizedFolders: [(path: "Widget", exceptions: [])]),
            // A bundle is loaded only on request, and an app embedding an extension does not run its code.
            .init(name: "Res", productType: "com.apple.product-type.bundle", settings: Self.settings("com.example.res"),
                  synchronizedFolders: [(path: "Res", exceptions: [])]),
            // A target nothing links.
            .init(name: "Loose", productType: "com.apple.product-type.framework", settings: Self.settings("com.example.loose"),
                  synchronizedFolders: [(path: "Loose", exceptions: [])]),
            // Only a dependency on Kit, no phase naming it: `import Kit` links it.
            .init(name: "Share", productType: "com.apple.product-type.app-extension", settings: Self.settings("com.example.app.share"),
                  dependsOn: ["Kit"]),
        ]
        try p.write(to: root)

        let result = try Fixture.lint([root.path])
        let abs = { (names: [String]) in names.map { root.appendingPathComponent($0).path } }
        XCTAssertEqual(try sources(result, "App (Release)"), abs(["App/A.swift", "Kit/K.swift", "Core/C.swift"]))
        XCTAssertEqual(try sources(result, "Widget (Release)"), abs(["Widget/W.swift", "Kit/K.swift", "Core/C.swift"]))
        XCTAssertEqual(try sources(result, "Share (Release)"), abs(["Kit/K.swift", "Core/C.swift"]))
        // The framework's group is checked against each target that runs it: the extensions lack it, the app has it.
        let notEntitled = result.findings.filter { $0.rule == "code-group-not-entitled" }
        XCTAssertEqual(notEntitled.map(\.path), [Paths.display(root.path) + "/Kit/K.swift"])
        XCTAssertEqual(notEntitled.count, 1)
        XCTAssertTrue(notEntitled.first?.message.contains("which the entitlements of Widget (Debug, Release), Share (Debug, Release) do not grant") == true,
                      "\(notEntitled.map(\.message))")
    }

    func testEachLinkedListIsMadeOnceAndALongChainStopsAtTheBound() throws {
        let root = try Fixture.temporaryDirectory(self)
        // A chain of 40 frameworks, each linking the next, and two apps linking the first.
        let count = 40
        var targets: [ProjectFixture.Target] = []
        for k in 0..<count {
            try Fixture.write("//\n", "F\(k)/F.swift", in: root)
            targets.append(.init(name: "F\(k)", productType: "com.apple.product-type.framework", settings: Self.settings("com.example.f\(k)"),
                                 links: k + 1 < count ? ["F\(k + 1)"] : [], synchronizedFolders: [(path: "F\(k)", exceptions: [])]))
        }
        targets.append(.init(name: "App", settings: Self.settings("com.example.app"), links: ["F0"]))
        targets.append(.init(name: "Two", settings: Self.settings("com.example.two"), links: ["F0"]))
        var p = ProjectFixture()
        p.targets = targets
        try p.write(to: root)
        let options = { () -> ProjectFiles in
            var o = LintOptions()
            o.paths = [root.path]
            return ProjectFiles(options: o, cwd: Paths.currentDirectory())
        }()
        let (project, _) = PBXProject.read(bundlePath: root.appendingPathComponent("Fixture.xcodeproj").path, files: options, limits: PlistLimits())
        let catalog = SourceCatalog(files: options)
        var builder = ProjectUnitBuilder(project: try XCTUnwrap(project), files: options, xcconfigs: XCConfigLoader(files: options),
                                         entitlements: EntitlementsCache(files: options, limits: PlistLimits()), variables: [:], catalog: catalog)
        let units = builder.build().filter { ["App", "Two"].contains($0.unit.origin.target) }
        XCTAssertEqual(units.count, 4)
        for u in units {
            XCTAssertEqual(u.unit.origin.sources?.files, (0..<count).map { root.appendingPathComponent("F\($0)/F.swift").path })
        }
        // Two apps, two configurations each: every framework's folder walked once.
        XCTAssertEqual(catalog.walked, count)

        // The closure itself: bounded by LinkedCode.maxTargets, whatever the graph.
        let wide = LinkedCode.closure(of: "root") { id in id == "root" ? (0..<5_000).map { "t\($0)" } : [id, "root"] }
        XCTAssertEqual(wide.count, LinkedCode.maxTargets)
        var asked = 0
        let cycle = LinkedCode.closure(of: "a") { id in asked += 1; return id == "a" ? ["b"] : ["a", "b"] }
        XCTAssertEqual(cycle, ["b"])
        XCTAssertEqual(asked, 2, "each target's links asked once")
    }

    func testXcodeGenTargetDependenciesOnFrameworksAndLibraries() throws {
        let root = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
            name: Gen
            targets:
              App:
                type: application
                platform: iOS
                sources: [App]
                dependencies:
                  - target: Kit
                  - target: Tool
                    link: false
                  - target: Widget
                settings:
                  PRODUCT_BUNDLE_IDENTIFIER: com.example.gen
              Widget:
                type: app-extension
                platform: iOS
                sources: [Widget]
                dependencies:
                  - target: Kit
                settings:
                  PRODUCT_BUNDLE_IDENTIFIER: com.example.gen.widget
              Kit:
                type: framework
                platform: iOS
                sources: [Kit]
                dependencies:
                  - target: Core
              Core:
                type: library.static
                platform: iOS
                sources: [Core]
                dependencies:
                  - target: Kit
              Tool:
                type: framework
                platform: iOS
                sources: [Tool]
            """, "project.yml", in: root)
        for f in ["App/A.swift", "Widget/W.swift", "Kit/K.swift", "Core/C.swift", "Tool/T.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        let result = try Fixture.lint([root.path])
        let abs = { (names: [String]) in names.map { root.appendingPathComponent($0).path } }
        XCTAssertEqual(try sources(result, "App (Release)"), abs(["App/A.swift", "Kit/K.swift", "Core/C.swift"]))
        XCTAssertEqual(try sources(result, "Widget (Debug)"), abs(["Widget/W.swift", "Kit/K.swift", "Core/C.swift"]))
    }
}
