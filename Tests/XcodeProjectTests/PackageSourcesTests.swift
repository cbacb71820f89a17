import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList
@testable import XcodeProject

/// What a target compiles of the local Swift packages it links: the files of a product's targets
/// and of the packages they depend on, manifests not understood, and the bounds of a package chain.
final class PackageSourcesTests: XCTestCase, UnitSourcesTesting {
    static let kitManifest = """
        // swift-tools-version:5.9
        import PackageDescription

        /* A product of two targets; /* nested */ comments are skipped. */
        let package = Package(
            name: "Kit",
            platforms: [.iOS(.v15), .macOS("12.0")],
            products: [
                .library(name: "Kit", type: .dynamic, targets: ["KitCore", "KitUI"]),
                .library(name: "Other", targets: ["Unused"]),
            ],
            dependencies: [
                .package(path: "../Base"),
                .package(url: "https://github.com/kishikawakatsumi/KeychainAccess.git", from: "4.2.2"),
            ],
            targets: [
                .target(name: "KitCore", dependencies: ["Helpers", .product(name: "Base", package: "Base")],
                        path: "Core", exclude: ["Legacy", "Notes.swift"], swiftSettings: settings),
                .target(name: "KitUI", dependencies: [
                    .target(name: "KitCore"),
                    .product(name: "KeychainAccess", package: "KeychainAccess", condition: .when(platforms: [.iOS])),
                ]),
                .target(name: "Helpers", sources: ["Public", "Extra.swift"]),
                .target(name: "Unused"),
                .testTarget(name: "KitTests", dependencies: ["KitCore"]),
            ]
        )

        let settings: [SwiftSetting] = [.define("KIT")]
        for target in package.targets { target.swiftSettings = settings }
        """

    static let baseManifest = """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Base", products: [.library(name: "Base", targets: ["Base", "Escape"])],
                              targets: [.target(name: "Base"), .target(name: "Escape", path: "../../../..")])
        """

    /// A project whose app links `Kit` (local, `Packages/Kit`) and `Alamofire` (remote).
    func writePackageProject(_ root: URL, kitManifest: String = kitManifest) throws {
        try Fixture.write(kitManifest, "Packages/Kit/Package.swift", in: root)
        try Fixture.write(Self.baseManifest, "Packages/Base/Package.swift", in: root)
        for f in ["Packages/Kit/Core/A.swift", "Packages/Kit/Core/Legacy/Old.swift", "Packages/Kit/Core/Notes.swift",
                  "Packages/Kit/Sources/KitUI/UI.swift", "Packages/Kit/Sources/Helpers/Public/P.swift", "Packages/Kit/Sources/Helpers/Extra.swift",
                  "Packages/Kit/Sources/Helpers/Private/Q.swift", "Packages/Kit/Sources/Unused/U.swift", "Packages/Kit/Tests/KitTests/T.swift",
                  "Packages/Base/Sources/Base/Base.swift", "App/Main.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        var o = Objects()
        let main = o.fileRef("App/Main.swift")
        let phase = o.sourcesPhase([main])
        let products = o.products([("Kit", "Packages/Kit", nil), ("Alamofire", nil, "https://github.com/Alamofire/Alamofire.git"),
                                   ("plugin:SwiftLintPlugin", nil, nil)])
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, extraBuildPhases: [phase], extraEntries: products)]
        p.extraObjects = o.text
        p.extraMainGroupChildren = [main]
        try p.write(to: root)
    }

    func testLocalPackageProductOfTwoTargetsWithPathExcludeSourcesAndADependencyChain() throws {
        let root = try Fixture.temporaryDirectory(self)
        try writePackageProject(root)
        let s = try sources(try Fixture.lint([root.path]), "App (Release)")
        // Each target's files, then the products of other packages it depends on; the targets it
        // depends on inside the package after the product's own. Not listed: the excluded folder
        // and file, the target's files outside `sources:`, the unused and test targets.
        XCTAssertEqual(s.files, absolute(root, ["App/Main.swift", "Packages/Kit/Core/A.swift", "Packages/Base/Sources/Base/Base.swift",
                                                "Packages/Kit/Sources/KitUI/UI.swift",
                                                "Packages/Kit/Sources/Helpers/Public/P.swift", "Packages/Kit/Sources/Helpers/Extra.swift"]))
        XCTAssertEqual(s.unscanned, ["remote Swift package KeychainAccess", "remote Swift package Alamofire"])
        // Base's `Escape` target points at `/` through `..`: missing, never walked.
        XCTAssertEqual(s.missing, ["/"])
    }

    func testPackageManifestWithAComputedListIsNotUnderstood() throws {
        let computed = """
            import PackageDescription
            let names = ["KitCore", "KitUI"]
            let package = Package(name: "Kit", products: [.library(name: "Kit", targets: names)],
                                  targets: names.map { .target(name: $0) })
            """
        let root = try Fixture.temporaryDirectory(self)
        try writePackageProject(root, kitManifest: computed)
        let s = try sources(try Fixture.lint([root.path]), "App (Release)")
        XCTAssertEqual(s.files, absolute(root, ["App/Main.swift"]), "no guess at the package's files")
        XCTAssertEqual(s.unscanned, ["Package.swift of \(Paths.display(root.path))/Packages/Kit: not understood", "remote Swift package Alamofire"])
    }

    func testManifestFormsOutsideTheLiteralOnesAreNotUnderstood() throws {
        let understood = try XCTUnwrap(PackageManifest.parse(Array(Self.kitManifest.utf8)))
        XCTAssertEqual(understood.products.map(\.name), ["Kit", "Other"])
        XCTAssertEqual(understood.products.first?.targets, ["KitCore", "KitUI"])
        XCTAssertEqual(understood.targets.map(\.name), ["KitCore", "KitUI", "Helpers", "Unused", "KitTests"])
        XCTAssertEqual(understood.targets[0].path, "Core")
        XCTAssertEqual(understood.targets[0].exclude, ["Legacy", "Notes.swift"])
        XCTAssertEqual(understood.targets[0].dependencies, [.byName("Helpers"), .product(name: "Base", package: "Base")])
        XCTAssertEqual(understood.targets[2].sources, ["Public", "Extra.swift"])
        XCTAssertEqual(understood.dependencies.map(\.identity), ["Base", "KeychainAccess"])
        let head = "import PackageDescription\nlet package = Package(name: \"K\", products: [.library(name: \"K\", targets: [\"K\"])], targets: "
        let notUnderstood = [
            head + "targets)",                                                    // a variable
            head + "[.target(name: \"K\")] + extra)",                             // an operator
            head + "[.target(name: \"K\", path: \"Sources/\\(name)\")])",         // an interpolation
            head + "[\n#if os(iOS)\n.target(name: \"K\"),\n#endif\n])",             // conditional compilation
            head + "[.target(name: \"K\")])\npackage.targets.append(.target(name: \"X\"))",
            head + "[.target(name: \"K\", dependencies: deps)])",
            head + "[.target(name: name)])",
            head + "[.target(name: \"K\", sources: [\"A\"] + more)])",
            head + "[.target(name: \"K\")",                                       // unterminated
            "import PackageDescription\n// no Package at all\n",
            head + "[.target(name: \"K\")]) /* unterminated comment",
        ]
        for text in notUnderstood {
            XCTAssertNil(PackageManifest.parse(Array(text.utf8)), text)
        }
        XCTAssertNotNil(PackageManifest.parse(Array((head + "[.target(name: \"K\")])").utf8)))
    }

    func testARemotePackageAndAProductWhoseManifestIsAbsent() throws {
        let root = try Fixture.temporaryDirectory(self)
        var o = Objects()
        // Added by dragging the folder in: a file reference, the product without its package.
        let folder = o.fileRef("Keychain", type: "wrapper")
        let products = o.products([("Keychain", nil, nil), ("Unknown", nil, nil), ("KeychainAccess", nil, "https://github.com/kishikawakatsumi/KeychainAccess.git")])
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, extraEntries: products)]
        p.extraObjects = o.text
        p.extraMainGroupChildren = [folder]
        try p.write(to: root)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Keychain/Sources"), withIntermediateDirectories: true)
        let s = try sources(try Fixture.lint([root.path]), "App (Release)")
        XCTAssertEqual(s.missing, [Paths.display(root.path) + "/Keychain/Package.swift"])
        XCTAssertEqual(s.unscanned, ["Swift package product Unknown: its package is not named by the project", "remote Swift package KeychainAccess"])
        // With the manifest there, the folder's package gives its files.
        try Fixture.write("import PackageDescription\nlet package = Package(name: \"Keychain\", products: [.library(name: \"Keychain\", targets: [\"Keychain\"])], targets: [.target(name: \"Keychain\")])\n",
                          "Keychain/Package.swift", in: root)
        try Fixture.write("//\n", "Keychain/Sources/Keychain/Keychain.swift", in: root)
        let again = try sources(try Fixture.lint([root.path]), "App (Release)")
        XCTAssertEqual(again.files, absolute(root, ["Keychain/Sources/Keychain/Keychain.swift"]))
        XCTAssertEqual(again.missing, [])
    }

    func testALocalPackageInASynchronisedFolderLinkedByProductAloneIsFollowed() throws {
        let root = try Fixture.temporaryDirectory(self)
        var o = Objects()
        // Xcode 16: a synchronised folder that no target compiles holds the package; the app's
        // product dependency names no package reference.
        let packages = o.id()
        o.text += "\t\t\(packages) = {isa = PBXFileSystemSynchronizedRootGroup; path = Packages; sourceTree = \"<group>\"; };\n"
        let products = o.products([("CoreKit", nil, nil)])
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, synchronizedFolders: [("App", [])], extraEntries: products)]
        p.extraObjects = o.text
        p.extraMainGroupChildren = [packages]
        try p.write(to: root)
        try Fixture.write("//\n", "App/Main.swift", in: root)
        try Fixture.write("//\n", "Packages/Core/Sources/Core/Core.swift", in: root)
        let unnamed = "Swift package product CoreKit: its package is not named by the project"
        XCTAssertEqual(try sources(try Fixture.lint([root.path]), "App (Release)").unscanned, [unnamed])
        let manifest = "import PackageDescription\nlet package = Package(name: \"Core\", products: [.library(name: \"CoreKit\", targets: [\"Core\"])], targets: [.target(name: \"Core\")])\n"
        try Fixture.write(manifest, "Packages/Core/Package.swift", in: root)
        let followed = try sources(try Fixture.lint([root.path]), "App (Release)")
        XCTAssertEqual(followed.files, absolute(root, ["App/Main.swift", "Packages/Core/Sources/Core/Core.swift"]))
        XCTAssertEqual(followed.unscanned, [])
        // Two packages there declaring the product: which one is linked is not known.
        try Fixture.write(manifest, "Packages/Copy/Package.swift", in: root)
        XCTAssertEqual(try sources(try Fixture.lint([root.path]), "App (Release)").unscanned, [unnamed])
    }

    func testAPackageChainIsFollowedToABoundAndEachManifestIsReadOnce() throws {
        let root = try Fixture.temporaryDirectory(self)
        let depth = SourceCatalog.maxPackageDepth + 4
        for k in 0..<depth {
            let next = k + 1 < depth ? ".package(path: \"../P\(k + 1)\")" : ""
            let dep = k + 1 < depth ? ".product(name: \"P\(k + 1)\", package: \"P\(k + 1)\")" : ""
            try Fixture.write("""
                import PackageDescription
                let package = Package(name: "P\(k)", products: [.library(name: "P\(k)", targets: ["P\(k)"])],
                    dependencies: [\(next)], targets: [.target(name: "P\(k)", dependencies: [\(dep)])])
                """, "Packages/P\(k)/Package.swift", in: root)
            try Fixture.write("//\n", "Packages/P\(k)/Sources/P\(k)/F.swift", in: root)
        }
        var o = Objects()
        let products = o.products([("P0", "Packages/P0", nil)])
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, extraEntries: products),
                     .init(name: "Two", settings: Self.appSettings, extraEntries: products)]
        p.extraObjects = o.text
        try p.write(to: root)
        let (project, _) = PBXProject.read(bundlePath: root.appendingPathComponent("Fixture.xcodeproj").path, files: files(root), limits: PlistLimits())
        let catalog = SourceCatalog(files: files(root))
        var builder = ProjectUnitBuilder(project: try XCTUnwrap(project), files: files(root), xcconfigs: XCConfigLoader(files: files(root)),
                                         entitlements: EntitlementsCache(files: files(root), limits: PlistLimits()), variables: [:], catalog: catalog)
        let units = builder.build()
        XCTAssertEqual(units.count, 4)
        let s = try XCTUnwrap(units.first?.unit.origin.sources)
        XCTAssertEqual(s.files.count, SourceCatalog.maxPackageDepth)
        XCTAssertEqual(s.unscanned.count, 1)
        XCTAssertTrue(s.unscanned[0].contains("nested more than \(SourceCatalog.maxPackageDepth) levels"), s.unscanned[0])
        // Two targets, two configurations each: every manifest read and every folder walked once.
        XCTAssertEqual(catalog.manifestsRead, SourceCatalog.maxPackageDepth)
        XCTAssertEqual(catalog.walked, SourceCatalog.maxPackageDepth)
        XCTAssertEqual(units.map { $0.unit.origin.sources?.files ?? [] }, Array(repeating: s.files, count: 4))
    }

    /// An app that links `count` local packages `P0`...: each with one target of one file, plus
    /// `extraTargets` targets its product also lists. Returns the units built with `budgets`.
    func buildManyPackages(_ root: URL, count: Int, extraTargets: Int = 0, budgets: SourceCatalog.Budgets) throws -> (units: [ProjectUnit], catalog: SourceCatalog) {
        let extra = (0..<extraTargets).map { "\"X\($0)\"" }
        for k in 0..<count {
            let targets = (["\"P\(k)\""] + extra).joined(separator: ", ")
            let declarations = ([".target(name: \"P\(k)\")"] + (0..<extraTargets).map { ".target(name: \"X\($0)\")" }).joined(separator: ", ")
            try Fixture.write("""
                import PackageDescription
                let package = Package(name: "P\(k)", products: [.library(name: "P\(k)", targets: [\(targets)])], targets: [\(declarations)])
                """, "Packages/P\(k)/Package.swift", in: root)
            try Fixture.write("//\n", "Packages/P\(k)/Sources/P\(k)/F.swift", in: root)
        }
        var o = Objects()
        let products = o.products((0..<count).map { ("P\($0)", "Packages/P\($0)", nil) })
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, extraEntries: products)]
        p.extraObjects = o.text
        try p.write(to: root)
        let (project, _) = PBXProject.read(bundlePath: root.appendingPathComponent("Fixture.xcodeproj").path, files: files(root), limits: PlistLimits())
        let catalog = SourceCatalog(files: files(root), budgets: budgets)
        var builder = ProjectUnitBuilder(project: try XCTUnwrap(project), files: files(root), xcconfigs: XCConfigLoader(files: files(root)),
                                         entitlements: EntitlementsCache(files: files(root), limits: PlistLimits()), variables: [:], catalog: catalog)
        return (builder.build(), catalog)
    }

    func testManifestsPastTheRunsPackageBudgetAreNotReadAndANoticeSaysSo() throws {
        let root = try Fixture.temporaryDirectory(self)
        let (units, catalog) = try buildManyPackages(root, count: 8, budgets: .init(packages: 3))
        XCTAssertEqual(catalog.manifestsRead, 3)
        let s = try XCTUnwrap(units.first?.unit.origin.sources)
        XCTAssertEqual(s.files.count, 3)
        XCTAssertFalse(s.isComplete, "the units whose packages were not read are not taken as fully scanned")
        XCTAssertTrue(s.unscanned.contains { $0.hasSuffix("Package.swift manifests: more than 3 packages in the run (limit SourceCatalog.maxPackages)") }, "\(s.unscanned)")
        XCTAssertEqual(catalog.notices().map(\.message),
                       ["Package.swift manifests: more than 3 packages in the run (limit SourceCatalog.maxPackages): the code of the package targets past it is not scanned, so the code rules are silent on the units that link them"])
        XCTAssertTrue(catalog.notices().allSatisfy(\.isNotice))
    }

    func testManifestsPastTheRunsByteBudgetAreNotParsedAndANoticeSaysSo() throws {
        let root = try Fixture.temporaryDirectory(self)
        // Each manifest is about 150 bytes: the budget takes two, the third passes it.
        let (units, catalog) = try buildManyPackages(root, count: 6, budgets: .init(manifestBytes: 330))
        XCTAssertEqual(catalog.manifestsRead, 3, "the manifest that passes the budget is read, not parsed; later ones are not read")
        XCTAssertLessThanOrEqual(catalog.manifestBytes, 330 + 200)
        let s = try XCTUnwrap(units.first?.unit.origin.sources)
        XCTAssertEqual(s.files.count, 2)
        XCTAssertTrue(s.unscanned.contains { $0.contains("more than 330 bytes of them in the run (limit SourceCatalog.maxManifestBytes)") }, "\(s.unscanned)")
        XCTAssertEqual(catalog.notices().count, 1)
    }

    func testPackageTargetsPastTheRunsBudgetAreNotListedAndANoticeSaysSo() throws {
        let root = try Fixture.temporaryDirectory(self)
        // Four packages whose products list 50 targets each: 204 targets, a budget of 120.
        let (units, catalog) = try buildManyPackages(root, count: 4, extraTargets: 50, budgets: .init(targets: 120))
        XCTAssertEqual(catalog.targetsListed, 120)
        let s = try XCTUnwrap(units.first?.unit.origin.sources)
        XCTAssertTrue(s.unscanned.contains("Swift package targets: more than 120 listed in the run (limit SourceCatalog.maxPackageTargets)"), "\(s.unscanned)")
        XCTAssertEqual(catalog.notices().map(\.message).first?.hasPrefix("Swift package targets: more than 120 listed in the run"), true)
    }

    func testManifestLookupsFindTheFirstDeclarationOfEachName() throws {
        // 5,000 targets named by one product, and a second `T0` after them: lookups by name (a
        // dictionary, not a search per name) find the first, as SwiftPM's order would.
        var targets: [String] = []
        var declarations: [String] = []
        for k in 0..<5_000 {
            targets.append("\"T\(k)\"")
            declarations.append(".target(name: \"T\(k)\", dependencies: [\"T\((k + 1) % 5_000)\"])")
        }
        declarations.append(".target(name: \"T0\", dependencies: [\"Later\"])")
        let text = "import PackageDescription\nlet package = Package(name: \"Big\", products: [.library(name: \"Big\", targets: [\(targets.joined(separator: ", "))])], targets: [\(declarations.joined(separator: ", "))])\n"
        let m = try XCTUnwrap(PackageManifest.parse(Array(text.utf8)))
        XCTAssertEqual(m.targets.count, 5_001)
        XCTAssertEqual(m.target(named: "T4999")?.dependencies, [.byName("T0")])
        XCTAssertEqual(m.target(named: "T0")?.dependencies, [.byName("T1")])
        XCTAssertEqual(m.product(named: "Big")?.targets.count, 5_000)
        XCTAssertNil(m.target(named: "T5000"))
    }

    func files(_ root: URL) -> ProjectFiles {
        var options = LintOptions()
        options.paths = [root.path]
        return ProjectFiles(options: options, cwd: Paths.currentDirectory())
    }
}
