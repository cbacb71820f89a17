import XCTest
import EntitlintCore
import EntitlintWorkspace
import TestSupport
@testable import XcodeProject

/// What a fresh clone of a real project looks like, read without false alarms: a setting only a
/// missing file could give is unknown, not empty; an entitlements file is found as a
/// case-insensitive volume finds it, or through the variable that names it; a static library signs
/// nothing; a stale or generated workspace member is no error; a loose file's unknown variables are
/// a notice. Each test is a small synthetic project.
final class FreshCloneTests: XCTestCase {
    static let appSettings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                              ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")]

    /// A project of one app target (com.example.App, team ABCDE12345, entitlements App/App.entitlements
    /// holding `groups` and `appGroups`) whose Debug and Release configurations are based on `base`,
    /// with `files` beside it, linted.
    func lintApp(base: String?, groups: [String], appGroups: [String] = [], files: [String: String] = [:],
                 settings: [(String, String)] = appSettings) throws -> LintResult {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(files, in: dir)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Debug", settings), ("Release", settings)],
                           baseConfigurations: base.map { ["Debug": $0, "Release": $0] } ?? [:])]
        try p.write(to: dir)
        try SyntheticProject.write(["App/App.entitlements": Fixture.entitlements(groups, appGroups: appGroups)], in: dir)
        return try Fixture.lint([dir.path])
    }

    func testASettingOnlyAMissingPerDeveloperFileCouldSetIsUnknownNotEmpty() throws {
        let files = ["Config/App.xcconfig": "#include \"Developer.xcconfig\"\n",
                     "Config/Developer.xcconfig.template": "GROUP_ID = com.example.you\n"]
        let result = try lintApp(base: "Config/App.xcconfig", groups: ["$(AppIdentifierPrefix)$(KEYCHAIN_ID)"],
                                 appGroups: ["group.$(GROUP_ID)"], files: files)
        XCTAssertEqual(result.findings, [], "unknown, not wrong: \(result.findings.map(\.message))")
        let n = try XCTUnwrap(result.notices.first { $0.message.contains("Developer.xcconfig") }, "\(result.notices)")
        XCTAssertTrue(n.message.contains("$(GROUP_ID)") && n.message.contains("$(KEYCHAIN_ID)"), "names what the entitlements need: \(n.message)")
        XCTAssertTrue(n.message.contains("Developer.xcconfig.template"), n.message)
    }

    func testTheSameSettingWithTheWholeChainCommittedIsEmptyAndReported() throws {
        // Nothing is missing: a setting no level sets is the empty string, as in Xcode.
        let result = try lintApp(base: "Config/App.xcconfig", groups: ["$(AppIdentifierPrefix)com.example.App"],
                                 appGroups: ["group.$(GROUP_ID)"], files: ["Config/App.xcconfig": "// nothing\n"])
        XCTAssertEqual(result.notices, [])
        XCTAssertTrue(result.findings.contains { $0.rule == "empty-setting-in-group" && $0.severity == .error }, "\(result.findings.map(\.message))")
    }

    func testASettingTheTemplateSetsIsTheDevelopersEvenOverACommittedEarlierOne() throws {
        let chain = "DEVELOPMENT_TEAM = ABCDE12345\n#include? \"Local.xcconfig\"\n"
        let withTemplate = try lintApp(base: "Config/App.xcconfig", groups: ["$(AppIdentifierPrefix)com.example.App"],
                                       files: ["Config/App.xcconfig": chain, "Config/Local.xcconfig.sample": "DEVELOPMENT_TEAM = YOURTEAM\n"],
                                       settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")])
        XCTAssertNil(withTemplate.units.first?.teamID, "the developer's copy sets it after the committed line")
        let without = try lintApp(base: "Config/App.xcconfig", groups: ["$(AppIdentifierPrefix)com.example.App"],
                                  files: ["Config/App.xcconfig": chain],
                                  settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")])
        XCTAssertEqual(without.units.first?.teamID?.value, "ABCDE12345", "an optional override with no template: the committed value stands")
        XCTAssertEqual(without.notices, [], "an optional include nothing needs from is not worth a notice")
    }

    func testEntitlementsNamedInAnotherCaseAreSignedAsXcodeSignsThemWithANote() throws {
        let settings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                        ("CODE_SIGN_ENTITLEMENTS", "app/app.entitlements")]
        let result = try lintApp(base: nil, groups: ["$(AppIdentifierPrefix)com.example.App"], settings: settings)
        XCTAssertFalse(result.findings.contains { $0.severity > .note }, "\(result.findings.map(\.message))")
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-entitlements-file" }, "the file is the target's")
        let notes = result.findings.filter { $0.message.contains("differ only in case") }
        XCTAssertEqual(notes.count, 2, "one note per line that names the file (Debug's and Release's): \(notes.map(\.message))")
        XCTAssertEqual(Set(notes.map(\.line)).count, 2)
        XCTAssertEqual(result.units.first?.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App", "checked with the file")
    }

    func testAStaticLibraryInheritingEntitlementsFormsNoUnit() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.projectSettings = [("Release", [("SDKROOT", "iphoneos"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")])]
        p.targets = [
            .init(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345")])]),
            .init(name: "Helpers", productType: "com.apple.product-type.library.static",
                  settings: [("Release", [("DEVELOPMENT_TEAM", "ZZZZZ99999")])]),
        ]
        try p.write(to: dir)
        try SyntheticProject.write(["App/App.entitlements": Fixture.entitlements([], appGroups: ["group.com.example.shared"])], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name), ["App (Release)"])
        XCTAssertEqual(result.findings.filter { $0.rule == "team-mismatch-across-targets" }, [])
    }

    func testAFileASettingNamesThroughAVariableIsAVariantNotUnused() throws {
        let settings = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                        ("CODE_SIGN_ENTITLEMENTS", "App/App$(ENTITLEMENTS_SUFFIX).entitlements")]
        let variant = Fixture.entitlements(["$(AppIdentifierPrefix)$(DEV_GROUP)"])
        let result = try lintApp(base: nil, groups: ["$(AppIdentifierPrefix)com.example.App"],
                                 files: ["App/App-dev.entitlements": variant, "Old/Old.entitlements": variant], settings: settings)
        let unused = result.findings.filter { $0.rule == "unused-entitlements-file" }.map(\.path)
        XCTAssertEqual(unused.count, 1, "\(unused)")
        XCTAssertTrue(unused.first?.hasSuffix("Old/Old.entitlements") == true, "only the file nothing names: \(unused)")
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [], "a variant's facts are unknown: fact-free rules only")
    }

    func testAFileTheTemplateOfAMissingPerDeveloperFileNamesIsNotUnused() throws {
        let files = ["Config/App.xcconfig": "#include? \"Signing.xcconfig\"\n",
                     "Config/Signing.xcconfig.example": "CODE_SIGN_ENTITLEMENTS = App/AppPaid.entitlements // with a paid account\n",
                     "App/AppPaid.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"])]
        let result = try lintApp(base: "Config/App.xcconfig", groups: ["$(AppIdentifierPrefix)com.example.App"], files: files)
        XCTAssertEqual(result.findings.filter { $0.rule == "unused-entitlements-file" }, [], "\(result.findings.map(\.message))")
    }

    func workspace(_ members: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n"
            + members.map { "   <FileRef location = \"group:\($0)\"></FileRef>\n" }.joined() + "</Workspace>\n"
    }

    func testAStaleWorkspaceMemberIsANoteAndAGeneratedOneANotice() throws {
        let files = ["App.xcworkspace/contents.xcworkspacedata": workspace(["Fixture.xcodeproj", "Gone/Gone.xcodeproj", "Gen/Gen.xcodeproj"]),
                     "Gen/project.yml": "name: Gen\ntargets: {}\n", "Gone/README": "removed\n"]
        let result = try lintApp(base: nil, groups: ["$(AppIdentifierPrefix)com.example.App"], files: files)
        XCTAssertFalse(result.findings.contains { $0.severity > .note }, "nothing is signed differently: \(result.findings.map(\.message))")
        let stale = try XCTUnwrap(result.findings.first { $0.message.contains("Gone/Gone.xcodeproj") }, "\(result.findings.map(\.message))")
        XCTAssertEqual(stale.severity, .note)
        XCTAssertTrue(result.notices.contains { $0.message.contains("Gen/Gen.xcodeproj") && $0.message.contains("XcodeGen") }, "\(result.notices)")
    }

    func testALooseFilesUnknownVariablesAreANoticeNotAFinding() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["macos/app.entitlements": Fixture.entitlements(["$(DEVELOPMENT_TEAM).$(APP_ID_MACOS)"])], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [])
        let n = try XCTUnwrap(result.notices.first, "\(result.notices)")
        XCTAssertTrue(n.message.contains("$(APP_ID_MACOS)") && n.path.hasSuffix("macos/app.entitlements"), n.message)
        var config = Configuration()
        config.variables = ["APP_ID_MACOS": "com.example.app", "DEVELOPMENT_TEAM": "ABCDE12345"]
        let told = try Fixture.lint([dir.path]) { $0.configuration = config }
        XCTAssertEqual(told.notices, [], "values given in the configuration: nothing left unknown")
    }

    func testBuildFilesOfKindsNotReadNameTheirEntitlementsAndTheRestAreUnused() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let wildcard = Fixture.entitlements(["$(DEVELOPMENT_TEAM).*"])
        // CMake: a CMakeLists.txt names its own folder's file; a .cmake file a path below its includer.
        try Fixture.write("set_target_properties(NE PROPERTIES XCODE_ATTRIBUTE_CODE_SIGN_ENTITLEMENTS ${CMAKE_CURRENT_SOURCE_DIR}/NE.entitlements)\n",
                          "client/ios/ne/CMakeLists.txt", in: dir)
        try Fixture.write("  XCODE_ATTRIBUTE_CODE_SIGN_ENTITLEMENTS \"${CMAKE_CURRENT_SOURCE_DIR}/ios/app/main.entitlements\"\n",
                          "client/cmake/ios.cmake", in: dir)
        try SyntheticProject.write([
            "client/ios/ne/NE.entitlements": wildcard,
            "client/ios/app/main.entitlements": wildcard,
            "client/macos/ne/NE.entitlements": wildcard,
        ], in: dir)
        let result = try Fixture.lint([dir.path])
        let unused = result.findings.filter { $0.rule == "unused-entitlements-file" }.map { String($0.path.dropFirst(dir.path.count + 1)) }
        XCTAssertEqual(unused, ["client/macos/ne/NE.entitlements"], "the file no build file names, though it shares a name: \(result.findings.map(\.message))")
        XCTAssertEqual(result.findings.filter { $0.rule == "wildcard-access-group" }.count, 2, "named files get the fact-free rules; the dead one nothing else")
        XCTAssertTrue(result.notices.contains { $0.message.contains("CMake") }, "\(result.notices)")
    }

    func testTuistAndBazelBuildFilesNameTheirEntitlements() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let groups = Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App"])
        try Fixture.write("let project = Project(name: \"App\", targets: [.target(name: \"App\", entitlements: \"Config/App.entitlements\")])\n",
                          "Projects/App/Project.swift", in: dir)
        try SyntheticProject.write([
            "Projects/App/Config/App.entitlements": groups,
            "Projects/App/Config/Old.entitlements": groups,
            "tools/ios/BUILD.bazel": "ios_application(\n    name = \"ios\",\n    entitlements = \":Presence.entitlements\",\n)\n",
            "tools/ios/Presence.entitlements": groups,
        ], in: dir)
        let result = try Fixture.lint([dir.path]) { $0.discoverySources = [XcodeDiscoverer(), TuistSource(), BazelSource()] }
        let unused = result.findings.filter { $0.rule == "unused-entitlements-file" }.map { Paths.baseName($0.path) }
        XCTAssertEqual(unused, ["Old.entitlements"], "\(result.findings.map(\.message))")
        // Tuist and Bazel are read by their own sources: their targets are units, not a "not read" notice.
        XCTAssertEqual(Set(result.units.filter { $0.origin != nil }.map(\.name)), ["App (Debug)", "App (Release)", "ios (default)"])
        XCTAssertFalse(result.notices.contains { $0.message.contains("does not read") }, "\(result.notices.map(\.message))")
    }

    func testADeadFileGetsOnlyTheFindingThatItIsUnused() throws {
        let dead = Fixture.entitlements(["*", "$(AppIdentifierPrefix)com.example.App", "$(AppIdentifierPrefix)com.example.App"])
        let result = try lintApp(base: nil, groups: ["$(AppIdentifierPrefix)com.example.App"], files: ["Old/Old.entitlements": dead])
        let onDead = result.findings.filter { $0.path.hasSuffix("Old/Old.entitlements") }
        XCTAssertEqual(onDead.map(\.rule), ["unused-entitlements-file"], "\(onDead.map(\.message))")
    }

    func testAProjectWithAMergeConflictIsOneFindingAndItsEntitlementsAreStillLinted() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        // !$*UTF8*$!
        {
        \tobjects = {
        <<<<<<< HEAD
        \t\tAAAAAAAAAAAAAAAAAAAAAAAA = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        =======
        \t\tBBBBBBBBBBBBBBBBBBBBBBBB = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        >>>>>>> feature
        \t};
        \trootObject = AAAAAAAAAAAAAAAAAAAAAAAA;
        }
        """, "App.xcodeproj/project.pbxproj", in: dir)
        try SyntheticProject.write(["App/App.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)*"])], in: dir)
        let result = try Fixture.lint([dir.path])
        let project = result.findings.filter { $0.path.hasSuffix("project.pbxproj") }
        XCTAssertEqual(project.count, 1, "\(project.map(\.message))")
        XCTAssertTrue(project.first?.message.contains("merge conflict") == true && project.first?.line == 4, "\(project.map { "\($0.line): \($0.message)" })")
        XCTAssertTrue(result.findings.contains { $0.rule == "wildcard-access-group" }, "the entitlements file is linted as a loose file")
        XCTAssertNil(PBXProject.conflictMarkerLine(Array("a = 1;\n// ======= not at the start\n".utf8)))
    }

    func testAnExtensionEmbeddedOnlyOutsideMacCatalystFormsNoCatalystUnit() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.projectSettings = [("Release", [("SDKROOT", "iphoneos"), ("SUPPORTS_MACCATALYST", "YES"), ("DEVELOPMENT_TEAM", "ABCDE12345")])]
        let ext = [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App.Widget"), ("CODE_SIGN_ENTITLEMENTS", "Widget/Widget.entitlements")]
        let filtered = try lintHostAndExtension(dir, p, ext, filter: "ios")
        XCTAssertEqual(filtered.filter { $0.hasPrefix("Widget") }, ["Widget (Release)"], "\(filtered)")
        XCTAssertTrue(filtered.contains("App (Release, Mac Catalyst)"), "the app itself still has its Catalyst unit: \(filtered)")
        let unfiltered = try lintHostAndExtension(try Fixture.temporaryDirectory(self), p, ext, filter: nil)
        XCTAssertTrue(unfiltered.contains("Widget (Release, Mac Catalyst)"), "embedded everywhere: \(unfiltered)")
    }

    func lintHostAndExtension(_ dir: URL, _ base: ProjectFixture, _ ext: [(String, String)], filter: String?) throws -> [String] {
        var p = base
        var app = ProjectFixture.Target(name: "App", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App")])])
        app.embeds = ["Widget"]
        if let filter { app.embedFilters = ["Widget": filter] }
        p.targets = [app, .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: [("Release", ext)])]
        try p.write(to: dir)
        try SyntheticProject.write(["Widget/Widget.entitlements": Fixture.entitlements([], appGroups: ["group.com.example.suite"])], in: dir)
        return try Fixture.lint([dir.path]).units.map(\.name).sorted()
    }

    func testAnXcodeGenSpecIsFoundByItsContentAndAnIncludedOneIsNotReadTwice() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        name: Mail
        include:
          - path: common.yml
        targets:
          Mail:
            type: application
            platform: iOS
            entitlements:
              path: Mail/Mail.entitlements
        """, "mail-project.yml", in: dir)
        try Fixture.write("""
        name: Common
        settings:
          base:
            DEVELOPMENT_TEAM: ABCDE12345
            PRODUCT_BUNDLE_IDENTIFIER: com.example.Mail
        targets:
          Shared:
            type: framework
            platform: iOS
        """, "common.yml", in: dir)
        try SyntheticProject.write([
            ".github/workflows/ci.yml": "on: push\njobs:\n  build:\n    runs-on: macos-latest\n",
            "Mail/Mail.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]),
        ], in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name).sorted(), ["Mail (Debug)", "Mail (Release)"], "\(result.units.map(\.name))")
        XCTAssertEqual(result.units.first?.teamID?.value, "ABCDE12345", "the included spec's settings apply")
        XCTAssertFalse(result.findings.contains { $0.rule == "unused-entitlements-file" }, "\(result.findings.map(\.message))")
    }

    func testAProfileABazelBuildFileNamesIsCheckedAsANamedOne() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("ios_application(\n    name = \"ios\",\n    provisioning_profile = \"App_Development.mobileprovision\",\n)\n",
                          "ios/BUILD.bazel", in: dir)
        try SyntheticProject.write([
            "ios/App_Development.mobileprovision": Fixture.expiredProfile("Named"),
            "old/Other.mobileprovision": Fixture.expiredProfile("Loose"),
        ], in: dir)
        let result = try Fixture.lint([dir.path])
        let expired = result.findings.filter { $0.rule == "profile-expired" }.map { Paths.baseName($0.path) }
        XCTAssertEqual(expired, ["App_Development.mobileprovision"], "only the profile the build names: \(result.findings.map(\.message))")
    }

    func testADotNetProjectThatSignsWithItsOwnEntitlementsIsANotice() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <CodesignEntitlements>Platforms/iOS/Entitlements.plist</CodesignEntitlements>\n  </PropertyGroup>\n</Project>\n",
                          "App/App.csproj", in: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.findings, [])
        XCTAssertTrue(result.notices.contains { $0.message.contains(".NET (MSBuild)") && $0.path.hasSuffix("App/App.csproj") }, "never a silent pass: \(result.notices)")
    }
}
