import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
import TestSupport
@testable import XcodeProject

final class XcodeGenTests: XCTestCase {
    static let spec = """
    name: Suite
    include:
      - base.yml
    options:
      bundleIdPrefix: com.example
    configs:
      Debug: debug
      Release: release
    configFiles:
      Release: Config/Release.xcconfig
    settings:
      base:
        DEVELOPMENT_TEAM: ABCDE12345
    targetTemplates:
      Extension:
        type: app-extension
        platform: iOS
        settings:
          base:
            HOST_ID: com.example.App_One
    targets:
      App_One:
        type: application
        platform: iOS
        entitlements:
          path: App/App.entitlements
          properties:
            keychain-access-groups:
              - $(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)
              - $(AppIdentifierPrefix)com.example.shared
            com.apple.security.application-groups:
              - suite
        dependencies:
          - target: Share
      Share:
        templates: [Extension]
        settings:
          configs:
            release:
              PRODUCT_BUNDLE_IDENTIFIER: $(HOST_ID).share
        entitlements:
          path: Share/Share.entitlements
      Mac:
        type: application
        platform: macOS
        settings:
          PRODUCT_BUNDLE_IDENTIFIER: com.example.mac
      Multi:
        type: framework
        platform: [iOS, macOS]
    """

    func write(_ dir: URL) throws {
        try SyntheticProject.write(["project.yml": Self.spec, "base.yml": "settings:\n  base:\n    CODE_SIGN_STYLE: Automatic\n",
                                    "Config/Release.xcconfig": "DEVELOPMENT_TEAM = ZYXWV98765\n",
                                    "Share/Share.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)com.example.App-One", "$(AppIdentifierPrefix)com.example.shared"])],
                                   in: dir)
    }

    func testSpecUnits() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try write(dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertEqual(result.units.map(\.name), ["App_One (Debug)", "App_One (Release)", "Share (Debug)", "Share (Release)",
                                                  "Mac (Debug)", "Mac (Release)"])
        let app = try XCTUnwrap(result.units.first { $0.name == "App_One (Debug)" })
        XCTAssertEqual(app.bundleID?.value, "com.example.App-One", "bundleIdPrefix + the target name, `_` made `-`")
        XCTAssertEqual(app.teamID?.value, "ABCDE12345")
        XCTAssertEqual(app.origin?.signingStyle, "Automatic", "from the included spec")
        XCTAssertTrue(app.entitlementsPath.hasSuffix("project.yml"), "properties are read from the spec")
        XCTAssertEqual(app.accessGroups.defaultGroup?.value, "ABCDE12345.com.example.App-One")
        // Findings about properties point into project.yml.
        XCTAssertTrue(result.findings.contains { $0.rule == "app-group-format" && $0.path.hasSuffix("project.yml") && $0.line == 32 },
                      "\(result.findings.map { "\($0.rule) \($0.line)" })")
        // The release config file sets the team below the target settings.
        XCTAssertEqual(result.units.first { $0.name == "App_One (Release)" }?.teamID?.value, "ABCDE12345",
                       "project settings come after the project's config file")
        let share = try XCTUnwrap(result.units.first { $0.name == "Share (Release)" })
        XCTAssertEqual(share.bundleID?.value, "com.example.App_One.share", "template settings and the release config")
        XCTAssertEqual(share.origin?.hostTarget, "App_One")
        XCTAssertEqual(share.origin?.kind, .appExtension)
        XCTAssertEqual(result.units.first { $0.name == "Mac (Release)" }?.platform, .macOS)
        XCTAssertFalse(result.findings.contains { $0.message.contains("multi-platform") }, "a framework: no unit on either platform")
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [], "an undefined setting is empty, as in Xcode")
    }

    func testSpecWinsOverTheProjectItGenerates() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try write(dir)
        var generated = ProjectFixture()
        generated.name = "Suite"
        generated.targets = [.init(name: "Stale", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.stale")])])]
        try generated.write(to: dir)
        let result = try Fixture.lint([dir.path])
        XCTAssertFalse(result.units.contains { $0.name.hasPrefix("Stale") })
        XCTAssertTrue(result.units.contains { $0.name == "App_One (Release)" })
    }

    func testBrokenYAMLIsAFindingWithALine() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": "name: X\ntargets:\n  A: [unclosed\n"], in: dir)
        let result = try Fixture.lint([dir.path])
        let f = try XCTUnwrap(result.findings.first)
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertTrue(f.path.hasSuffix("project.yml"))
        XCTAssertGreaterThan(f.line, 0)
    }

    func testIncludeLoopIsReported() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": "include: [b.yml]\nname: X\n", "b.yml": "include: [project.yml]\n"], in: dir)
        let result = try Fixture.lint([dir.appendingPathComponent("project.yml").path])
        XCTAssertTrue(result.findings.contains { $0.rule == "parse-error" && $0.message.contains("include loop") }, "\(result.findings.map(\.message))")
    }
}

extension XcodeGenTests {
    /// A clip target is a clip by its XcodeGen type, though its source entitlements do not carry
    /// `on-demand-install-capable` (Xcode adds it when signing): listing its own App ID is reported,
    /// and its app groups are left out of its list.
    func testAppClipRecognisedByItsTypeNotByTheSourceFile() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try SyntheticProject.write(["project.yml": SyntheticProject.spec("Clips", head: ["options:", "  bundleIdPrefix: com.example"], targets: [
            SpecTarget("Clip", type: "application.on-demand-install-capable", entitlements: "Clip/Clip.entitlements"),
        ]), "Clip/Clip.entitlements": Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])], in: dir)
        let result = try Fixture.lint([dir.path])
        let clip = try XCTUnwrap(result.units.first { $0.name == "Clip (Debug)" })
        XCTAssertEqual(clip.origin?.kind, .appClip)
        XCTAssertTrue(clip.isAppClip)
        XCTAssertEqual(clip.accessGroups.entries.map(\.value), ["ABCDE12345.com.example.Clip", "ABCDE12345.com.example.Clip"])
        let clipFindings = result.findings.filter { $0.rule == "app-clip-access-groups" }
        // Both configurations sign with the one file: one finding, at its key.
        XCTAssertEqual(clipFindings.count, 1, "\(result.findings.map(\.message))")
        XCTAssertTrue(clipFindings[0].path.hasSuffix("Clip/Clip.entitlements"), clipFindings[0].path)
        XCTAssertEqual(clipFindings[0].keyPath, "keychain-access-groups")
        XCTAssertTrue(clipFindings[0].message.contains("errSecRestrictedAPI (-34020)"), clipFindings[0].message)
    }
}
