import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// Tuist manifests read without running them: every argument form the reader knows, the
/// helpers it resolves, and what stays unknown (a notice, no guessed fact).
final class TuistSourceTests: XCTestCase {
    func lint(_ dir: URL) throws -> LintResult {
        try Fixture.lint([dir.path]) { $0.discoverySources = [XcodeDiscoverer(), TuistSource()] }
    }

    func unit(_ result: LintResult, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> SigningUnit {
        try XCTUnwrap(result.units.first { $0.name == name }, "no unit \(name) in \(result.units.map(\.name))", file: file, line: line)
    }

    /// An app and its extension in `.target(...)` form, the team a helper constant, the extension
    /// built by a helper function.
    func writeApp(_ dir: URL) throws {
        try Fixture.write("""
        import ProjectDescription

        public enum Constants {
            public static let team = "ABCDE12345"
            public static let baseSettings = SettingsDictionary()
                .automaticCodeSigning(devTeam: team)
                .currentProjectVersion("1")
            public static let destinations: Destinations = [.iPhone, .iPad]
        }
        """, "Tuist/ProjectDescriptionHelpers/Constants.swift", in: dir)
        try Fixture.write("""
        import ProjectDescription

        public extension Target {
            static func extensionTarget(name: String, bundleId: String, entitlements: String) -> Target {
                return .target(name: name,
                               destinations: Constants.destinations,
                               product: .appExtension,
                               bundleId: bundleId,
                               entitlements: Entitlements(stringLiteral: entitlements),
                               settings: .settings(base: Constants.baseSettings))
            }
        }
        """, "Tuist/ProjectDescriptionHelpers/ExtensionTarget.swift", in: dir)
        try Fixture.write("""
        import ProjectDescription
        import ProjectDescriptionHelpers

        let appBundle = "com.example.app"

        let project = Project(name: "App",
                              targets: [
                                  .target(name: "App",
                                          destinations: Constants.destinations,
                                          product: .app,
                                          bundleId: appBundle,
                                          entitlements: "App/App.entitlements",
                                          dependencies: [
                                              .target(name: "Share"),
                                              .external(name: "Lib"),
                                          ],
                                          settings: .settings(base: Constants.baseSettings)),
                                  .extensionTarget(name: "Share",
                                                   bundleId: "com.example.app.share",
                                                   entitlements: "Share/Share.entitlements"),
                                  .target(name: "Core",
                                          destinations: .iOS,
                                          product: .framework,
                                          bundleId: "com.example.core"),
                              ])
        """, "Project.swift", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "Share/Share.entitlements", in: dir)
    }

    func testTargetsHelpersConstantsAndHosts() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeApp(dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (Debug)", "App (Release)", "Share (Debug)", "Share (Release)"],
                       "the framework has no entitlements: no unit")
        let app = try unit(result, "App (Release)")
        XCTAssertEqual(app.bundleID?.value, "com.example.app")
        XCTAssertEqual(app.teamID?.value, "ABCDE12345")
        XCTAssertEqual(app.platform, .iOS)
        XCTAssertEqual(app.origin?.kind, .app)
        XCTAssertEqual(app.origin?.signingStyle, "Automatic")
        XCTAssertTrue(app.entitlementsPath.hasSuffix("App/App.entitlements"), app.entitlementsPath)
        // Where each fact comes from: the manifest line, or the helper's.
        let sources = app.origin?.settingSources ?? [:]
        XCTAssertTrue(sources["PRODUCT_BUNDLE_IDENTIFIER"]?.hasSuffix("Project.swift:4") == true, "\(sources)")
        XCTAssertTrue(sources["DEVELOPMENT_TEAM"]?.hasSuffix("Tuist/ProjectDescriptionHelpers/Constants.swift:6") == true, "\(sources)")
        XCTAssertTrue(sources["CODE_SIGN_ENTITLEMENTS"]?.hasSuffix("Project.swift:12") == true, "\(sources)")
        let share = try unit(result, "Share (Debug)")
        XCTAssertEqual(share.bundleID?.value, "com.example.app.share")
        XCTAssertEqual(share.teamID?.value, "ABCDE12345")
        XCTAssertEqual(share.origin?.kind, .appExtension)
        XCTAssertEqual(share.origin?.hostTarget, "App")
        XCTAssertEqual(share.origin?.hostBundleID, "com.example.app")
        XCTAssertTrue(share.entitlementsPath.hasSuffix("Share/Share.entitlements"), share.entitlementsPath)
        XCTAssertTrue(share.origin?.settingSources["PRODUCT_BUNDLE_IDENTIFIER"]?.hasSuffix("Project.swift:19") == true, "\(share.origin?.settingSources ?? [:])")
        XCTAssertTrue(result.paths.contains { $0.hasSuffix("Tuist/ProjectDescriptionHelpers/ExtensionTarget.swift") }, "\(result.paths)")
        XCTAssertFalse(result.notices.contains { $0.message.contains("does not read Tuist") }, "\(result.notices)")
    }

    func testOlderTargetFormConfigurationsAndXcconfig() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        import ProjectDescription

        let configurations: [Configuration] = [
            .debug(name: "Beta", settings: ["DEVELOPMENT_TEAM": "BETA123456"]),
            .release(name: "Prod", xcconfig: .relativeToRoot("Config/Prod.xcconfig")),
        ]

        let project = Project(
            name: "Mac",
            settings: .settings(base: ["CODE_SIGN_STYLE": "Manual"], configurations: configurations),
            targets: [
                Target(name: "MacApp",
                       platform: .macOS,
                       product: .app,
                       bundleId: "com.example.mac",
                       entitlements: .file(path: "Mac.entitlements"),
                       settings: .settings(configurations: [.release(name: "Prod", settings: ["CODE_SIGN_STYLE": "Automatic"])])),
            ]
        )
        """, "Project.swift", in: dir)
        try Fixture.write("DEVELOPMENT_TEAM = PROD123456\n", "Config/Prod.xcconfig", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.mac"]), "Mac.entitlements", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["MacApp (Beta)", "MacApp (Prod)"])
        let beta = try unit(result, "MacApp (Beta)")
        XCTAssertEqual(beta.teamID?.value, "BETA123456")
        XCTAssertEqual(beta.platform, .macOS)
        XCTAssertEqual(beta.origin?.signingStyle, "Manual")
        let prod = try unit(result, "MacApp (Prod)")
        XCTAssertEqual(prod.teamID?.value, "PROD123456")
        XCTAssertEqual(prod.origin?.signingStyle, "Automatic", "the target's configuration over the project's")
        XCTAssertTrue(prod.origin?.settingSources["DEVELOPMENT_TEAM"]?.hasSuffix("Config/Prod.xcconfig:1") == true, "\(prod.origin?.settingSources ?? [:])")
    }

    func testWhatNeedsEvaluationStaysUnknown() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        import ProjectDescription

        let prefix = "com.example"
        let project = Project(name: "Odd", targets: [
            .target(name: "Interpolated", destinations: .iOS, product: .app, bundleId: "\\(prefix).odd",
                    entitlements: "Odd.entitlements",
                    settings: .settings(base: SettingsDictionary().customSigning())),
            .target(name: "Generated", destinations: .iOS, product: .appExtension, bundleId: "com.example.gen",
                    entitlements: .dictionary(["com.apple.security.app-sandbox": true, "aps-environment": apsEnvironment])),
            .madeElsewhere(name: "Elsewhere"),
        ])
        """, "Project.swift", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.odd"]), "Odd.entitlements", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["Interpolated (Debug)", "Interpolated (Release)"])
        let odd = try unit(result, "Interpolated (Debug)")
        XCTAssertNil(odd.bundleID, "an interpolated string is not guessed")
        XCTAssertNil(odd.teamID, "a settings helper not in the files read may set the team")
        XCTAssertEqual(odd.origin?.unknownKeySettings["DEVELOPMENT_TEAM"] != nil, true)
        XCTAssertTrue(result.notices.contains { $0.message.contains("the entitlements of Generated cannot") && $0.message.contains("dictionary") }, "\(result.notices)")
        XCTAssertTrue(result.notices.contains { $0.message.contains("madeElsewhere") }, "\(result.notices)")
    }

    /// A literal `.dictionary([...])` is the unit's entitlements, each value at its manifest line;
    /// one value that is not literal leaves the whole dictionary unknown.
    func testLiteralDictionaryEntitlements() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "Dict", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.dict",
                    entitlements: .dictionary([
                        "keychain-access-groups": .array([.string("$(AppIdentifierPrefix)com.example.dict"),
                                                          "$(AppIdentifierPrefix)com.example.dict"]),
                        "com.apple.security.application-groups": ["group.com.example.dict"],
                        "aps-environment": "development",
                        "flag": .boolean(true),
                        "count": 2,
                        "nested": .dictionary(["ratio": .real(1.5), "on": false]),
                    ])),
            .target(name: "Partial", destinations: .iOS, product: .appExtension, bundleId: "com.example.dict.partial",
                    entitlements: .dictionary([
                        "aps-environment": "development",
                        "com.apple.security.application-groups": .array([.string(groupName)]),
                    ])),
        ])
        """, "Project.swift", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (Debug)", "App (Release)"], "no entitlements are guessed for Partial")
        let app = try unit(result, "App (Debug)")
        XCTAssertTrue(app.entitlementsPath.hasSuffix("Project.swift"), app.entitlementsPath)
        XCTAssertTrue(app.origin?.settingSources["CODE_SIGN_ENTITLEMENTS"]?.hasSuffix("Project.swift:5") == true, "\(app.origin?.settingSources ?? [:])")
        guard case .dict(let d) = app.document.root.value else { return XCTFail("\(app.document.root.value)") }
        XCTAssertEqual(d.entries.map(\.key), ["keychain-access-groups", "com.apple.security.application-groups", "aps-environment", "flag", "count", "nested"])
        XCTAssertEqual(d.entries.map(\.keyLocation.line), [6, 8, 9, 10, 11, 12])
        XCTAssertEqual(d.entries[3].value.value, .bool(true))
        XCTAssertEqual(d.entries[4].value.value, .integer(.signed(2)))
        guard case .array(let groups) = d.entries[0].value.value else { return XCTFail("\(d.entries[0].value.value)") }
        XCTAssertEqual(groups.map(\.value), [.string("$(AppIdentifierPrefix)com.example.dict"), .string("$(AppIdentifierPrefix)com.example.dict")])
        guard case .dict(let nested) = d.entries[5].value.value else { return XCTFail("\(d.entries[5].value.value)") }
        XCTAssertEqual(nested.entries.map(\.value.value), [.real(1.5), .bool(false)])
        // The entitlements rules run on it; the finding is at the manifest's line.
        let duplicate = result.findings.filter { $0.rule == "duplicate-access-group" }
        XCTAssertEqual(duplicate.map { "\($0.path.hasSuffix("Project.swift")):\($0.line)" }, ["true:7"], "\(result.findings)")
        let partial = result.notices.filter { $0.message.contains("the entitlements of Partial cannot be known") }
        XCTAssertEqual(partial.count, 1, "\(result.notices)")
        XCTAssertTrue(partial.first?.message.contains("a value that needs evaluation, at ") == true && partial.first?.message.contains("Project.swift:17)") == true, "\(partial)")
    }

    /// `.project(target:path:)` names a target of another `Project.swift`: the app hosts it.
    func testCrossProjectDependenciesAreHosts() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("import ProjectDescription\nlet tuist = Tuist()\n", "Tuist.swift", in: dir)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app",
                    entitlements: "App.entitlements",
                    dependencies: [
                        .project(target: "Share", path: "../Extensions"),
                        TargetDependency.project(target: "Widget", path: .relativeToRoot("Extensions")),
                        .project(target: "Far", path: "../../Outside"),
                    ]),
        ])
        """, "App/Project.swift", in: dir)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "Extensions", targets: [
            .target(name: "Share", destinations: .iOS, product: .appExtension, bundleId: "com.example.app.share",
                    entitlements: "Share.entitlements"),
            .target(name: "Widget", destinations: .iOS, product: .appExtension, bundleId: "com.example.app.widget"),
            .target(name: "Alone", destinations: .iOS, product: .appExtension, bundleId: "com.example.alone"),
        ])
        """, "Extensions/Project.swift", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "Extensions/Share.entitlements", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (Debug)", "App (Release)", "Share (Debug)", "Share (Release)",
                                                      "Widget (Debug)", "Widget (Release)", "Alone (Debug)", "Alone (Release)"])
        for name in ["Share (Debug)", "Share (Release)", "Widget (Debug)", "Widget (Release)"] {
            let u = try unit(result, name)
            XCTAssertEqual(u.origin?.hostTarget, "App", name)
            XCTAssertEqual(u.origin?.hostBundleID, "com.example.app", name)
            XCTAssertTrue(u.origin?.projectFile.hasSuffix("Extensions/Project.swift") == true, "\(u.origin?.projectFile ?? "")")
        }
        XCTAssertNil(try unit(result, "Alone (Debug)").origin?.hostTarget, "a target no app names has no host")
    }

    func testPlacesThatNeedEvaluationAreSaidOncePerFile() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let items = (1...7).map { "    computed\($0)," }.joined(separator: "\n")
        try Fixture.write("""
        import ProjectDescription
        let project = Project(name: "Many", targets: [
        \(items)
        ])
        """, "Project.swift", in: dir)
        try Fixture.write("""
        let project = Project(name: "One", targets: [
            .target(name: "\\(prefix)App", destinations: .iOS, product: .app, bundleId: "com.example.one"),
        ])
        """, "One/Project.swift", in: dir)
        let result = try lint(dir)
        let many = result.notices.filter { $0.path.hasSuffix("Project.swift") && !$0.path.hasSuffix("One/Project.swift") }
        XCTAssertEqual(many.map(\.message), ["7 places in this file build targets that need evaluation: they are not read (lines 3, 4, 5, 6, 7 and 2 more)"])
        XCTAssertEqual(many.first?.line, 3)
        let one = result.notices.filter { $0.path.hasSuffix("One/Project.swift") }
        XCTAssertEqual(one.map(\.message), ["a target built here needs evaluation: it is not read"])
        XCTAssertEqual(one.first?.line, 2)
    }

    func testManifestSupersedesTheProjectItGenerates() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeApp(dir)
        var project = ProjectFixture()
        project.name = "App"
        project.targets = [.init(name: "FromXcode", settings: [("Release", [("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"),
                                                                            ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.stale")])])]
        try project.write(to: dir)
        let result = try lint(dir)
        XCTAssertFalse(result.units.contains { $0.name.hasPrefix("FromXcode") }, "\(result.units.map(\.name))")
        XCTAssertEqual(try unit(result, "App (Release)").bundleID?.value, "com.example.app")
        XCTAssertTrue(result.notices.contains { $0.message.contains("App.xcodeproj is generated from this Tuist manifest") }, "\(result.notices)")
        // Without the Tuist source, the committed project is what is read.
        let xcodeOnly = try Fixture.lint([dir.path])
        XCTAssertTrue(xcodeOnly.units.contains { $0.name.hasPrefix("FromXcode") })
    }

    func testHostileManifestIsBounded() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        try Fixture.write("""
        let a = b
        let b = a
        let d = Set(d)
        let project = Project(name: "H", targets: [
            .target(name: "Loop", destinations: d, product: .app, bundleId: a),
            \(deep)
        ])
        """, "Project.swift", in: dir)
        let result = try lint(dir)
        let loop = try unit(result, "Loop (Debug)")
        XCTAssertNil(loop.bundleID)
        XCTAssertEqual(loop.platform, .unknown, "destinations defined through themselves are unknown")
    }

    /// An App Clip and a watch app the app depends on are hosted by it; the watch extension the
    /// watch app depends on is hosted by the watch app.
    func testAppClipsAndWatchAppsInDependenciesAreHosted() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        import ProjectDescription

        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app",
                    dependencies: [.target(name: "Clip"), .target(name: "Watch")]),
            .target(name: "Clip", destinations: .iOS, product: .appClip, bundleId: "com.example.app.clip"),
            .target(name: "Watch", destinations: .watchOS, product: .watch2App, bundleId: "com.example.app.watchkitapp",
                    dependencies: [.target(name: "WatchExtension")]),
            .target(name: "WatchExtension", destinations: .watchOS, product: .watch2Extension, bundleId: "com.example.app.watchkitapp.ext"),
        ])
        """, "Project.swift", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(try unit(result, "Clip (Debug)").origin?.hostTarget, "App")
        XCTAssertEqual(try unit(result, "Clip (Debug)").origin?.kind, .appClip)
        XCTAssertEqual(try unit(result, "Watch (Release)").origin?.hostTarget, "App")
        XCTAssertEqual(try unit(result, "Watch (Release)").origin?.hostBundleID, "com.example.app")
        XCTAssertEqual(try unit(result, "WatchExtension (Debug)").origin?.hostTarget, "Watch")
    }
}
