import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList
@testable import XcodeProject

/// Which files, packages and Info.plist entries a unit compiles (`UnitOrigin.sources`), from
/// Xcode projects and XcodeGen specs written in the test, and facts of the real projects.
final class UnitSourcesTests: XCTestCase {
    /// Objects for `extraObjects`: IDs are made from a counter, so each test writes its own graph.
    struct Objects {
        var text = ""
        var next = 0
        mutating func id() -> String { next += 1; return String(format: "AB%022X", next) }

        mutating func fileRef(_ path: String, tree: String = "\"<group>\"", type: String = "sourcecode.swift") -> String {
            let i = id()
            text += "\t\t\(i) = {isa = PBXFileReference; lastKnownFileType = \(type); path = \"\(path)\"; sourceTree = \(tree); };\n"
            return i
        }

        mutating func group(_ path: String, _ children: [String]) -> String {
            let i = id()
            text += "\t\t\(i) = {isa = PBXGroup; children = (\(children.map { $0 + "," }.joined())); path = \"\(path)\"; sourceTree = \"<group>\"; };\n"
            return i
        }

        /// A sources build phase holding `refs`.
        mutating func sourcesPhase(_ refs: [String]) -> String {
            var buildFiles: [String] = []
            for r in refs {
                let b = id()
                buildFiles.append(b)
                text += "\t\t\(b) = {isa = PBXBuildFile; fileRef = \(r); };\n"
            }
            let phase = id()
            text += "\t\t\(phase) = {isa = PBXSourcesBuildPhase; files = (\(buildFiles.map { $0 + "," }.joined())); };\n"
            return phase
        }

        /// `packageProductDependencies = (...)` for the target, with a local or remote package each.
        mutating func products(_ products: [(name: String, local: String?, remote: String?)]) -> String {
            var ids: [String] = []
            for p in products {
                var packageLine = ""
                if let local = p.local {
                    let ref = id()
                    text += "\t\t\(ref) = {isa = XCLocalSwiftPackageReference; relativePath = \"\(local)\"; };\n"
                    packageLine = "package = \(ref); "
                } else if let remote = p.remote {
                    let ref = id()
                    text += "\t\t\(ref) = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"\(remote)\"; requirement = {kind = upToNextMajorVersion; minimumVersion = 1.0.0; }; };\n"
                    packageLine = "package = \(ref); "
                }
                let dep = id()
                ids.append(dep)
                text += "\t\t\(dep) = {isa = XCSwiftPackageProductDependency; \(packageLine)productName = \"\(p.name)\"; };\n"
            }
            return "\t\t\tpackageProductDependencies = (\(ids.map { $0 + "," }.joined()));\n"
        }
    }

    static let appSettings: [(String, [(String, String)])] = [
        ("Debug", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app")]), ("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app")]),
    ]

    func sources(_ result: LintResult, _ unit: String) throws -> UnitSources {
        let u = try XCTUnwrap(result.units.first { $0.name == unit }, "\(result.units.map(\.name))")
        return try XCTUnwrap(u.origin?.sources, "\(unit) has no sources")
    }

    /// Absolute paths of `relative` below `folder`, as discovery lists them (symlinks of the
    /// temporary folder kept as written).
    func absolute(_ folder: URL, _ relative: [String]) -> [String] { relative.map { folder.appendingPathComponent($0).path } }

    func testSourcesPhaseFilesAreLocatedThroughGroupsAndNothingOutsideTheRootIsListed() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let root = dir.appendingPathComponent("proj")
        try Fixture.write("// secret\n", "Outside.swift", in: dir)
        try Fixture.write("// a\n", "App/Code/A.swift", in: root)
        try Fixture.write("// b\n", "Shared/B.m", in: root)
        try Fixture.write("// header\n", "App/Code/A.h", in: root)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("App/Code/Link.swift").path,
                                                   withDestinationPath: dir.appendingPathComponent("Outside.swift").path)
        var o = Objects()
        let a = o.fileRef("A.swift"), h = o.fileRef("A.h", type: "sourcecode.c.h"), gone = o.fileRef("Gone.swift"), link = o.fileRef("Link.swift")
        let readme = o.fileRef("README.md", type: "net.daringfireball.markdown")
        let code = o.group("Code", [a, h, gone, link, readme])
        let app = o.group("App", [code])
        let b = o.fileRef("Shared/B.m", tree: "SOURCE_ROOT", type: "sourcecode.c.objc")
        let generated = o.fileRef("Generated.swift", tree: "BUILT_PRODUCTS_DIR")
        let up = o.fileRef("../Outside.swift")
        let absoluteRef = o.fileRef(dir.appendingPathComponent("Outside.swift").path, tree: "\"<absolute>\"")
        let phase = o.sourcesPhase([a, h, gone, link, readme, b, generated, up, absoluteRef, a])
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, extraBuildPhases: [phase])]
        p.extraObjects = o.text
        p.extraMainGroupChildren = [app, b, generated, up, absoluteRef]
        try p.write(to: root)

        let result = try Fixture.lint([root.path])
        let s = try sources(result, "App (Release)")
        XCTAssertEqual(s.files, absolute(root, ["App/Code/A.swift", "App/Code/A.h", "Shared/B.m"]), "each once, in phase order")
        let shown = Paths.display(root.path)
        XCTAssertEqual(s.missing, [shown + "/App/Code/Gone.swift", shown + "/App/Code/Link.swift", Paths.display(dir.path) + "/Outside.swift"])
        XCTAssertFalse(s.files.contains { $0.hasSuffix("Outside.swift") || $0.hasSuffix("Link.swift") })
        XCTAssertEqual(s.unscanned, [])
        XCTAssertFalse(s.isComplete)
        XCTAssertEqual(try sources(result, "App (Debug)").files, s.files, "every configuration has the target's list")
        // Nothing here is a finding: the project is what it was.
        XCTAssertEqual(result.findings.map(\.rule), [])
    }

    func testSynchronisedFolderMinusItsExceptionsAndLinksLeavingTheRoot() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let root = dir.appendingPathComponent("proj")
        try Fixture.write("// secret\n", "Secret.swift", in: dir)
        for f in ["App/A.swift", "App/Excluded.swift", "App/Sub/C.swift", "App/Deep/D.m", "App/Deep/E.mm", "App/notes.txt", "App/Inside.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("App/Link.swift").path,
                                                   withDestinationPath: dir.appendingPathComponent("Secret.swift").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("App/LinkIn.swift").path,
                                                   withDestinationPath: root.appendingPathComponent("App/Inside.swift").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("App/OutsideFolder").path, withDestinationPath: dir.path)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, synchronizedFolders: [(path: "App", exceptions: ["Excluded.swift", "Sub"])])]
        try p.write(to: root)

        let result = try Fixture.lint([root.path])
        let s = try sources(result, "App (Release)")
        XCTAssertEqual(s.files, absolute(root, ["App/A.swift", "App/Deep/D.m", "App/Deep/E.mm", "App/Inside.swift", "App/LinkIn.swift"]))
        XCTAssertEqual(s.missing, [])
    }

    func testASynchronisedFolderAddsTheFilesItsExceptionSetsListToTargetsThatDoNotHoldIt() throws {
        let root = try Fixture.temporaryDirectory(self)
        for f in ["App/A.swift", "App/Shared/Model.swift", "App/Shared/Other.swift", "App/Excluded.swift", "Widget/W.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, synchronizedFolders: [(path: "App", exceptions: ["Excluded.swift"])]),
                     .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: Self.appSettings,
                           synchronizedFolders: [(path: "Widget", exceptions: [])])]
        // Xcode writes these when a file of App's folder is ticked for the widget: for the widget
        // (which does not hold the folder) the list is what it compiles of it; an asset catalog is
        // not code, and a listed file that is not on disk is missing.
        p.foreignExceptions = [(folder: "App", target: "Widget", files: ["Shared/Model.swift", "Assets.xcassets", "Gone.swift"]),
                               (folder: "Widget", target: "App", files: ["W.swift"])]
        try p.write(to: root)

        let result = try Fixture.lint([root.path])
        let app = try sources(result, "App (Release)")
        // Files a folder adds come with the listed files, before the target's own folders.
        XCTAssertEqual(app.files, absolute(root, ["Widget/W.swift", "App/A.swift", "App/Shared/Model.swift", "App/Shared/Other.swift"]))
        let widget = try sources(result, "Widget (Release)")
        XCTAssertEqual(widget.files, absolute(root, ["App/Shared/Model.swift", "Widget/W.swift"]))
        XCTAssertEqual(widget.missing, [Paths.display(root.path) + "/App/Gone.swift"])
    }

    func testAMissingSynchronisedFolderIsMissing() throws {
        let root = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, synchronizedFolders: [(path: "Gone", exceptions: [])])]
        try p.write(to: root)
        let s = try sources(try Fixture.lint([root.path]), "App (Release)")
        XCTAssertEqual(s.files, [])
        XCTAssertEqual(s.missing, [Paths.display(root.path) + "/Gone"])
    }

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

    func files(_ root: URL) -> ProjectFiles {
        var options = LintOptions()
        options.paths = [root.path]
        return ProjectFiles(options: options, cwd: Paths.currentDirectory())
    }

    func testInfoPlistEntriesAreEvaluatedWithTheUnitsSettings() throws {
        let root = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            \t<key>AppIdentifierPrefix</key><string>$(AppIdentifierPrefix)</string>
            \t<key>TeamPrefix</key><string>${TeamIdentifierPrefix}</string>
            \t<key>KeychainGroup</key><string>$(AppIdentifierPrefix)$(GROUP_BASE).shared</string>
            \t<key>Undefined</key><string>x$(NOT_SET)y</string>
            \t<key>Cycle</key><string>$(CYCLE_A)</string>
            \t<key>Plain</key><string>plain</string>
            \t<key>Number</key><integer>3</integer>
            \t<key>Nested</key><dict><key>Inner</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict>
            </dict>
            </plist>
            """, "App/Info.plist", in: root)
        var p = ProjectFixture()
        let settings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"), ("INFOPLIST_FILE", "$(TARGET_NAME)/Info.plist"),
                        ("GROUP_BASE", "$(PRODUCT_BUNDLE_IDENTIFIER:lower)"), ("CYCLE_A", "$(CYCLE_B)"), ("CYCLE_B", "$(CYCLE_A)")]
        p.targets = [.init(name: "App", settings: [("Release", settings)]),
                     .init(name: "NoPlist", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.two"), ("INFOPLIST_FILE", "Gone/Info.plist")])])]
        try p.write(to: root)
        let result = try Fixture.lint([root.path])
        let s = try sources(result, "App (Release)")
        XCTAssertEqual(s.infoPlistPath, Paths.display(root.path) + "/App/Info.plist")
        XCTAssertEqual(s.infoPlist, ["CFBundleIdentifier": "com.example.app", "AppIdentifierPrefix": "$(AppIdentifierPrefix)",
                                     "TeamPrefix": "$(TeamIdentifierPrefix)", "KeychainGroup": "$(AppIdentifierPrefix)com.example.app.shared",
                                     "Undefined": "xy", "Plain": "plain"])
        let two = try sources(result, "NoPlist (Release)")
        XCTAssertNil(two.infoPlistPath)
        XCTAssertEqual(two.missing, [Paths.display(root.path) + "/Gone/Info.plist"])
    }

    func testCocoaPodsIsNotScanned() throws {
        let root = try Fixture.temporaryDirectory(self)
        try Fixture.write("FOO = 1\n", "Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig", in: root)
        var o = Objects()
        let phase = o.id()
        o.text += "\t\t\(phase) = {isa = PBXShellScriptBuildPhase; name = \"[CP] Embed Pods Frameworks\"; shellScript = \"true\"; };\n"
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: Self.appSettings, baseConfigurations: ["Release": "Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig"]),
                     .init(name: "Two", settings: Self.appSettings, extraBuildPhases: [phase])]
        p.extraObjects = o.text
        try p.write(to: root)
        let result = try Fixture.lint([root.path])
        XCTAssertEqual(try sources(result, "App (Release)").unscanned, ["CocoaPods (Pods-App.release.xcconfig)"])
        XCTAssertEqual(try sources(result, "App (Debug)").unscanned, [])
        XCTAssertEqual(try sources(result, "Two (Release)").unscanned, ["CocoaPods"])
    }

    func testXcodeGenSourcesWithExcludesALocalPackageAndTheInfoPlist() throws {
        let root = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
            name: Gen
            include: [Targets/app.yml]
            packages:
              Kit:
                path: Packages/Kit
              Remote:
                url: https://github.com/example/Remote
            """, "project.yml", in: root)
        try Fixture.write("""
            targets:
              App:
                type: application
                platform: iOS
                sources:
                  - path: App
                    excludes: ["**/*Tests.swift", "Generated"]
                  - ../Shared/Util.swift
                  - path: Resources
                    buildPhase: resources
                  - ../Gone.swift
                info:
                  path: App/Info.plist
                dependencies:
                  - package: Kit
                  - package: Remote
                  - carthage: Alamofire
                settings:
                  PRODUCT_BUNDLE_IDENTIFIER: com.example.gen
                  GROUP: $(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER).shared
            """, "Targets/app.yml", in: root)
        try Fixture.write("import PackageDescription\nlet package = Package(name: \"Kit\", products: [.library(name: \"Kit\", targets: [\"Kit\"])], targets: [.target(name: \"Kit\")])\n",
                          "Packages/Kit/Package.swift", in: root)
        for f in ["Targets/App/A.swift", "Targets/App/ATests.swift", "Targets/App/Generated/G.swift", "Targets/App/Sub/B.m", "Shared/Util.swift",
                  "Targets/Resources/R.swift", "Packages/Kit/Sources/Kit/K.swift"] {
            try Fixture.write("//\n", f, in: root)
        }
        try Fixture.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>keychainAccessGroup</key><string>$(GROUP)</string>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            </dict></plist>
            """, "Targets/App/Info.plist", in: root)
        let result = try Fixture.lint([root.path])
        let s = try sources(result, "App (Release)")
        XCTAssertEqual(s.files, absolute(root, ["Targets/App/A.swift", "Targets/App/Sub/B.m", "Shared/Util.swift", "Packages/Kit/Sources/Kit/K.swift"]))
        XCTAssertEqual(s.missing, [Paths.display(root.path) + "/Gone.swift"])
        XCTAssertEqual(s.unscanned, ["remote Swift package Remote", "Carthage framework Alamofire"])
        XCTAssertEqual(s.infoPlistPath, Paths.display(root.path) + "/Targets/App/Info.plist")
        XCTAssertEqual(s.infoPlist, ["keychainAccessGroup": "$(AppIdentifierPrefix)com.example.gen.shared", "CFBundleIdentifier": "com.example.gen"])
    }

    // MARK: Real projects

    func realSources(_ folder: String, _ unit: String) throws -> UnitSources {
        guard FileManager.default.fileExists(atPath: RealProjectsTests.projects.path) else {
            throw XCTSkip("../shared/projects is absent: real-project test skipped")
        }
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let here = RealProjectsTests.projects.appendingPathComponent(folder).path
        _ = FileManager.default.changeCurrentDirectoryPath(here)
        var s = try sources(try Fixture.lint(["."]), unit)
        // Files are absolute with symbolic links resolved (the shared folder may be reached through one).
        let resolved = URL(fileURLWithPath: here).resolvingSymlinksInPath().path
        s.files = s.files.map { file in
            for root in [resolved, here] where file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
            return file
        }
        return s
    }

    func testProtonVPNiOSAppCompilesItsDependencyContainerAndReadsThePrefixFromItsInfoPlist() throws {
        let s = try realSources("ProtonVPN+ios-mac-app", "ProtonVPN (Release)")
        XCTAssertTrue(s.files.contains("apps/ios/ProtonVPN/Scenes/Common/Supporting Files/DependencyContainer.swift"), "\(s.files)")
        XCTAssertEqual(s.infoPlistPath, "apps/ios/ProtonVPN/Info.plist")
        XCTAssertEqual(s.infoPlist["AppIdentifierPrefix"], "$(AppIdentifierPrefix)")
        // Its local packages (LegacyCommon, ...) are folders of the workspace whose Package.swift
        // the copy does not hold: missing, and KeychainActor.swift (VPNShared, in NEHelper) not listed.
        XCTAssertTrue(s.missing.contains("libraries/LegacyCommon/Package.swift"), "\(s.missing.filter { $0.hasSuffix("Package.swift") })")
        XCTAssertFalse(s.files.contains { $0.contains("KeychainActor.swift") })
        XCTAssertTrue(s.unscanned.contains("remote Swift package Alamofire"), "\(s.unscanned)")
        // Most of what the target compiles is not in the copy.
        XCTAssertGreaterThan(s.missing.count, 100)
    }

    func testElementRiotReadsTheSharedKeychainGroupFromItsInfoPlist() throws {
        let s = try realSources("element-hq+element-ios", "Riot (Release)")
        XCTAssertEqual(s.infoPlistPath, "Riot/SupportingFiles/Info.plist")
        XCTAssertEqual(s.infoPlist["keychainAccessGroup"], "$(AppIdentifierPrefix)im.vector.app.keychain.shared")
        XCTAssertTrue(s.files.contains("Riot/Managers/KeyValueStorage/KeychainStore.swift"), "\(s.files)")
        XCTAssertTrue(s.files.contains("Config/BuildSettings.swift"), "\(s.files)")
    }

    func testMetatextAndThreemaLocalPackagesAreFoundThoughTheirManifestsAreAbsent() throws {
        // Metatext's app links ViewModels (a local package whose manifest brings in Keychain);
        // the copy holds no Package.swift, so what they compile is missing, not guessed.
        let metatext = try realSources("metabolist+metatext", "Metatext (Release)")
        XCTAssertTrue(metatext.missing.contains("ViewModels/Package.swift"), "\(metatext.missing)")
        XCTAssertFalse(metatext.isComplete)
        let threema = try realSources("threema-ch+threema-ios", "Threema (AppStore)")
        XCTAssertTrue(threema.missing.contains("GroupCalls/Package.swift"), "\(threema.missing)")
        XCTAssertTrue(threema.unscanned.contains("remote Swift package CocoaLumberjack"), "\(threema.unscanned)")
    }

    func testThreemaAppAndExtensionsRunTheCodeOfThreemaFramework() throws {
        // KKKeychain.m is compiled by ThreemaFramework only, which the app links and embeds and
        // each extension links: its keychain calls run with their entitlements.
        for unit in ["Threema (AppStore)", "Threema ShareExtension (AppStore)", "Threema NotificationExtension (AppStore)"] {
            let s = try realSources("threema-ch+threema-ios", unit)
            XCTAssertTrue(s.files.contains("ThreemaFramework/Vendor/KKPasscodeLock/KKKeychain.m"), "\(unit): \(s.files)")
            // ThreemaFramework links the local package Keychain, whose manifest the copy lacks.
            XCTAssertTrue(s.missing.contains("Keychain/Package.swift"), "\(unit): \(s.missing.filter { $0.hasSuffix("Package.swift") })")
        }
    }
}
