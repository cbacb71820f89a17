import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList
@testable import XcodeProject

/// Which files and Info.plist entries a unit compiles (`UnitOrigin.sources`), from Xcode projects
/// and XcodeGen specs written in the test (local Swift packages: PackageSourcesTests; the real
/// projects: RealProjectSourcesTests).
final class UnitSourcesTests: XCTestCase, UnitSourcesTesting {
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
                     .init(name: "NoPlist", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.two"), ("INFOPLIST_FILE", "Gone/Info.plist")])]),
                     // Named in another case: read as a case-insensitive volume (the macOS default) reads it.
                     .init(name: "OtherCase", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.three"), ("INFOPLIST_FILE", "app/info.plist")])])]
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
        XCTAssertEqual(try sources(result, "OtherCase (Release)").infoPlistPath, Paths.display(root.path) + "/App/Info.plist")
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
}
