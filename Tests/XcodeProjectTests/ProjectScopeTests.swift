import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Scope follows the project: project rules compare the units of one app family, and a run that
/// names one file reports what concerns that file and the units that use it.
final class ProjectScopeTests: XCTestCase {
    func app(_ name: String, team: String, bundle: String, entitlements: String? = nil, base: String? = nil,
             type: String = "com.apple.product-type.application") -> ProjectFixture.Target {
        var settings = [("PRODUCT_BUNDLE_IDENTIFIER", bundle), ("DEVELOPMENT_TEAM", team)]
        if let entitlements { settings.append(("CODE_SIGN_ENTITLEMENTS", entitlements)) }
        return .init(name: name, productType: type, settings: [("Release", settings)],
                     baseConfigurations: base.map { ["Release": $0] } ?? [:])
    }

    struct Seen: Hashable, CustomStringConvertible {
        var rule: String, path: String, line: Int, message: String
        var description: String { "\(rule) \(path):\(line) \(message)" }
    }

    func seen(_ r: LintResult, relativeTo dir: URL) -> Set<Seen> {
        Set(r.findings.map { f in
            let path = f.path.hasPrefix(dir.path + "/") ? String(f.path.dropFirst(dir.path.count + 1)) : f.path
            return Seen(rule: f.rule, path: path, line: f.line, message: f.message)
        })
    }

    /// Two projects of different teams that both write `$(AppIdentifierPrefix)com.example.shared`:
    /// one project each, they share nothing and nothing is wrong.
    func writeUnrelatedProjects(in dir: URL) throws {
        for (name, team) in [("One", "AAAAA11111"), ("Two", "BBBBB22222")] {
            var p = ProjectFixture()
            p.name = name
            p.targets = [app(name, team: team, bundle: "com.example.\(name)", entitlements: "\(name).entitlements")]
            try p.write(to: dir.appendingPathComponent(name))
            try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)",
                                                    "$(AppIdentifierPrefix)com.example.shared"],
                                                   appGroups: ["group.com.example.suite"]),
                              "\(name)/\(name).entitlements", in: dir)
        }
    }

    func testARootHoldingTwoUnrelatedProjectsFindsWhatEachFindsAlone() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeUnrelatedProjects(in: dir)
        let whole = try Fixture.lint([dir.path])
        XCTAssertEqual(whole.units.count, 2)
        let one = try Fixture.lint([dir.appendingPathComponent("One").path])
        let two = try Fixture.lint([dir.appendingPathComponent("Two").path])
        XCTAssertEqual(seen(whole, relativeTo: dir), seen(one, relativeTo: dir).union(seen(two, relativeTo: dir)))
        XCTAssertFalse(whole.findings.contains { $0.rule == "team-mismatch-across-targets" },
                       "units of unrelated projects are not compared: \(whole.findings)")
    }

    func testTheTargetsOfOneProjectAreStillCompared() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [app("One", team: "AAAAA11111", bundle: "com.example.One", entitlements: "One.entitlements"),
                     app("Two", team: "BBBBB22222", bundle: "com.example.Two", entitlements: "Two.entitlements")]
        try p.write(to: dir)
        for name in ["One", "Two"] {
            try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)",
                                                    "$(AppIdentifierPrefix)com.example.shared"]),
                              "\(name).entitlements", in: dir)
        }
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings.filter { $0.rule == "team-mismatch-across-targets" }.count, 2, "\(result.findings)")
    }

    func testProjectsOfOneWorkspaceAreOneFamily() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeUnrelatedProjects(in: dir)
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace version = "1.0">
           <FileRef location = "group:One/One.xcodeproj"></FileRef>
           <FileRef location = "group:Two/Two.xcodeproj"></FileRef>
        </Workspace>
        """, "Suite.xcworkspace/contents.xcworkspacedata", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings.filter { $0.rule == "team-mismatch-across-targets" }.count, 4,
                       "one workspace builds them together: the shared groups differ by team \(result.findings)")
    }

    /// A project with a healthy app, a target whose entitlements file is missing, a target whose
    /// xcconfig is broken and a target with a wildcard group.
    func writeProjectWithProblems(in dir: URL) throws {
        var p = ProjectFixture()
        p.name = "Suite"
        p.targets = [app("App", team: "ABCDE12345", bundle: "com.example.App", entitlements: "App/App.entitlements"),
                     app("Gone", team: "ABCDE12345", bundle: "com.example.Gone", entitlements: "Gone/Gone.entitlements"),
                     app("Tool", team: "ABCDE12345", bundle: "com.example.Tool", entitlements: "Tool/Tool.entitlements",
                         base: "Tool/Tool.xcconfig"),
                     app("Wild", team: "ABCDE12345", bundle: "com.example.Wild", entitlements: "Wild/Wild.entitlements")]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Tool/Tool.entitlements", in: dir)
        try Fixture.write("this is not a setting\n#include \"Missing.xcconfig\"\n", "Tool/Tool.xcconfig", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)*"]), "Wild/Wild.entitlements", in: dir)
    }

    /// A folder that is the top of a git work tree: the search for a named file's project stops there.
    func repository() throws -> URL {
        let dir = try Fixture.temporaryDirectory(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        return dir
    }

    func testNamingOneFileReportsOnlyWhatConcernsIt() throws {
        let dir = try repository()
        try writeProjectWithProblems(in: dir)
        let whole = try Fixture.lint([dir.path])
        let files = Set(whole.findings.map { Paths.baseName($0.path) })
        XCTAssertTrue(files.isSuperset(of: ["project.pbxproj", "Tool.xcconfig", "Wild.entitlements"]),
                      "the whole project has problems in three files: \(whole.findings)")

        let named = try Fixture.lint([dir.appendingPathComponent("App/App.entitlements").path])
        XCTAssertEqual(named.findings, [], "a hook on App.entitlements reports nothing of the other targets")
        XCTAssertEqual(named.units.map(\.name), ["App (Release)"])

        let tool = try Fixture.lint([dir.appendingPathComponent("Tool/Tool.entitlements").path])
        XCTAssertEqual(Set(tool.findings.map { Paths.baseName($0.path) }), ["Tool.xcconfig"],
                       "the xcconfig Tool reads is its own concern: \(tool.findings)")
        XCTAssertFalse(tool.findings.contains { $0.message.contains("Gone") })
    }

    func testNamingAFileOfAnUnreadableProjectStillSaysWhy() throws {
        let dir = try repository()
        try Fixture.write("// !$*UTF8*$!\n{ objects = { broken", "App.xcodeproj/project.pbxproj", in: dir)
        try Fixture.write(Fixture.entitlements(["ABCDE12345.com.example.App"]), "App/App.entitlements", in: dir)
        let named = try Fixture.lint([dir.appendingPathComponent("App/App.entitlements").path])
        XCTAssertTrue(named.findings.contains { $0.rule == "parse-error" && $0.path.hasSuffix("project.pbxproj") }, "\(named.findings)")
    }

    // MARK: Rules that compare units compare the units' facts

    func writeTwoApps(in dir: URL, one: (team: String?, groups: [String]), two: (team: String?, groups: [String])) throws {
        var p = ProjectFixture()
        func target(_ name: String, _ team: String?) -> ProjectFixture.Target {
            var settings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.\(name)"), ("CODE_SIGN_ENTITLEMENTS", "\(name).entitlements")]
            if let team { settings.append(("DEVELOPMENT_TEAM", team)) }
            return .init(name: name, settings: [("Release", settings)])
        }
        p.targets = [target("One", one.team), target("Two", two.team)]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(one.groups), "One.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(two.groups), "Two.entitlements", in: dir)
    }

    func testTeamMismatchComparesTheUnitsPrefixesNotAGroupsFirstComponent() throws {
        let dir = try Fixture.temporaryDirectory(self)
        // Two's second group is another team's: that is Two's own prefix problem, not a mismatch
        // between the targets (they are of one team).
        try writeTwoApps(in: dir, one: ("AAAAA11111", ["$(AppIdentifierPrefix)com.example.One", "AAAAA11111.shared"]),
                         two: ("AAAAA11111", ["$(AppIdentifierPrefix)com.example.Two", "CCCCC33333.shared"]))
        let result = try Fixture.lint([dir.path])
        XCTAssertFalse(result.findings.contains { $0.rule == "team-mismatch-across-targets" }, "\(result.findings)")
        XCTAssertEqual(result.findings.filter { $0.rule == "team-prefix-mismatch" }.map { Paths.baseName($0.path) }, ["Two.entitlements"],
                       "one problem, one finding: \(result.findings)")
    }

    func testTeamMismatchSaysNothingWhenATeamIsUnknown() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try writeTwoApps(in: dir, one: (nil, ["AAAAA11111.com.example.One", "AAAAA11111.shared"]),
                         two: ("BBBBB22222", ["$(AppIdentifierPrefix)com.example.Two", "$(AppIdentifierPrefix)shared"]))
        let result = try Fixture.lint([dir.path])
        XCTAssertFalse(result.findings.contains { $0.rule == "team-mismatch-across-targets" }, "\(result.findings)")
    }

    func testExternalGroupsAreNotCalledSingleMember() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                                                                ("CODE_SIGN_ENTITLEMENTS", "App.entitlements")])], embeds: ["Widget"]),
                     .init(name: "Widget", productType: "com.apple.product-type.app-extension",
                           settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App.Widget"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                                                   ("CODE_SIGN_ENTITLEMENTS", "Widget.entitlements")])])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"], appGroups: ["group.com.vendor.sso"]), "App.entitlements", in: dir)
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>com.apple.security.application-groups</key>
        \t<array/>
        </dict>
        </plist>
        """, "Widget.entitlements", in: dir)
        let plain = try Fixture.lint([dir.path])
        XCTAssertEqual(plain.findings.filter { $0.rule == "shared-group-single-member" }.count, 1, "\(plain.findings)")
        for pattern in ["group.com.vendor.sso", "group.com.vendor.*"] {
            let told = try Fixture.lint([dir.path]) { $0.settings.externalGroups = [pattern] }
            XCTAssertFalse(told.findings.contains { $0.rule == "shared-group-single-member" }, "\(pattern): \(told.findings)")
        }
    }

    // MARK: Every platform variant is a unit

    func testMacCatalystIsItsOwnUnitWithItsConditionedSettings() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [
            ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
            ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"),
            ("CODE_SIGN_ENTITLEMENTS[sdk=macosx*]", "App/App-Catalyst.entitlements"),
            ("SUPPORTS_MACCATALYST", "YES"), ("DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER", "YES"),
        ])])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App-Catalyst.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App (Release)", "App (Release, Mac Catalyst)"])
        let ios = try XCTUnwrap(result.units.first { $0.name == "App (Release)" })
        let mac = try XCTUnwrap(result.units.first { $0.name == "App (Release, Mac Catalyst)" })
        XCTAssertTrue(ios.entitlementsPath.hasSuffix("App/App.entitlements"))
        XCTAssertEqual(ios.platform, .iOS)
        XCTAssertTrue(mac.entitlementsPath.hasSuffix("App/App-Catalyst.entitlements"), "[sdk=macosx*] chooses the file")
        XCTAssertEqual(mac.platform, .macOS)
        XCTAssertEqual(mac.origin?.isMacCatalyst, true)
        XCTAssertEqual(mac.bundleID?.value, "maccatalyst.com.example.App")
        XCTAssertEqual(mac.accessGroups.defaultGroup?.value, "ABCDE12345.maccatalyst.com.example.App")
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-entitlements-file" }, "\(result.findings)")
    }

    func testEachDevicePlatformOfAMultiplatformTargetIsAUnit() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Release", [
            ("SDKROOT", "auto"), ("SUPPORTED_PLATFORMS", "iphoneos iphonesimulator macosx appletvos appletvsimulator"),
            ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
            ("PRODUCT_BUNDLE_IDENTIFIER[sdk=appletvos*]", "com.example.App.tv"),
            ("APP_ENTITLEMENTS", "App/App.entitlements"), ("CODE_SIGN_ENTITLEMENTS", "$(APP_ENTITLEMENTS)"),
            ("CODE_SIGN_ENTITLEMENTS[sdk=macosx*]", "App/App-macOS.entitlements"),
        ])])]
        try p.write(to: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App-macOS.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App (Release)", "App (Release, macOS)", "App (Release, tvOS)"])
        let tv = try XCTUnwrap(result.units.first { $0.name == "App (Release, tvOS)" })
        XCTAssertEqual(tv.bundleID?.value, "com.example.App.tv")
        XCTAssertTrue(tv.entitlementsPath.hasSuffix("App/App.entitlements"), "a file chosen through a setting is the unit's")
        let mac = try XCTUnwrap(result.units.first { $0.name == "App (Release, macOS)" })
        XCTAssertTrue(mac.entitlementsPath.hasSuffix("App/App-macOS.entitlements"))
        XCTAssertEqual(mac.origin?.isMacCatalyst, false)
        XCTAssertEqual(result.findings.filter { $0.severity == .error }, [])
    }

    /// XcodeGen: `SUPPORTS_MACCATALYST` in a target's settings, or `macCatalyst` among its
    /// `supportedDestinations`, makes a Mac Catalyst unit with its `[sdk=macosx*]` settings.
    func testXcodeGenCatalystAndDestinationsAreUnits() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
            name: Spec
            targets:
              App:
                type: application
                platform: iOS
                entitlements: {path: App/App.entitlements}
                settings:
                  base:
                    PRODUCT_BUNDLE_IDENTIFIER: com.example.App
                    DEVELOPMENT_TEAM: ABCDE12345
                    SUPPORTS_MACCATALYST: YES
                    DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER: YES
                    CODE_SIGN_ENTITLEMENTS[sdk=macosx*]: App/App-Catalyst.entitlements
              Multi:
                type: application
                supportedDestinations: [iOS, tvOS, macCatalyst]
                entitlements: {path: App/App.entitlements}
                settings:
                  base:
                    PRODUCT_BUNDLE_IDENTIFIER: com.example.Multi
                    DEVELOPMENT_TEAM: ABCDE12345

            """, "project.yml", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App-Catalyst.entitlements", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(Set(result.units.map(\.name)), [
            "App (Debug)", "App (Release)", "App (Debug, Mac Catalyst)", "App (Release, Mac Catalyst)",
            "Multi (Debug)", "Multi (Release)", "Multi (Debug, tvOS)", "Multi (Release, tvOS)",
            "Multi (Debug, Mac Catalyst)", "Multi (Release, Mac Catalyst)",
        ])
        let mac = try XCTUnwrap(result.units.first { $0.name == "App (Release, Mac Catalyst)" })
        XCTAssertTrue(mac.entitlementsPath.hasSuffix("App/App-Catalyst.entitlements"), "[sdk=macosx*] chooses the file")
        XCTAssertEqual(mac.platform, .macOS)
        XCTAssertEqual(mac.origin?.isMacCatalyst, true)
        XCTAssertEqual(mac.bundleID?.value, "maccatalyst.com.example.App")
        XCTAssertEqual(mac.accessGroups.defaultGroup?.value, "ABCDE12345.maccatalyst.com.example.App")
        let ios = try XCTUnwrap(result.units.first { $0.name == "App (Release)" })
        XCTAssertEqual(ios.platform, .iOS)
        XCTAssertTrue(ios.entitlementsPath.hasSuffix("App/App.entitlements"))
        let multiMac = try XCTUnwrap(result.units.first { $0.name == "Multi (Release, Mac Catalyst)" })
        XCTAssertEqual(multiMac.bundleID?.value, "com.example.Multi", "not derived unless asked")
        XCTAssertEqual(result.findings.filter { $0.severity == .error }, [])
    }
}
