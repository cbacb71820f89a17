import EntitlintCore
import EntitlintRules
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// Bazel `BUILD` files with rules_apple rules read without running them: attributes, labels,
/// `select()` branches as configurations, macros with literal arguments, and what stays unknown.
final class BazelSourceTests: XCTestCase {
    func lint(_ dir: URL) throws -> LintResult {
        try Fixture.lint([dir.path]) { $0.discoverySources = [XcodeDiscoverer(), BazelSource()] }
    }

    func unit(_ result: LintResult, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> SigningUnit {
        try XCTUnwrap(result.units.first { $0.name == name }, "no unit \(name) in \(result.units.map(\.name))", file: file, line: line)
    }

    func testRulesLabelsSelectsAndHosts() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("module(name = \"demo\")\n", "MODULE.bazel", in: dir)
        try Fixture.write("""
        load("@build_bazel_rules_apple//apple:ios.bzl", "ios_application", "ios_extension")

        MIN_OS = "16.0"

        ios_application(
            name = "App",
            bundle_id = "com.example.app",
            entitlements = select({
                "//:beta": "App-beta.entitlements",
                "//conditions:default": ":App.entitlements",
            }),
            extensions = [":Share", "//ext:Widget"],
            families = ["iphone", "ipad"],
            minimum_os_version = MIN_OS,
            deps = glob(["*.swift"]),
        )

        ios_extension(
            name = "Share",
            bundle_id = "com.example.app.share",
            entitlements = "//app:Share.entitlements",
            minimum_os_version = MIN_OS,
        )
        """, "app/BUILD.bazel", in: dir)
        try Fixture.write("""
        ios_extension(
            name = "Widget",
            bundle_id = "com.example.app.widget",
            entitlements = "Widget.entitlements",
        )
        """, "ext/BUILD", in: dir)
        for name in ["app/App-beta.entitlements", "app/App.entitlements", "app/Share.entitlements", "ext/Widget.entitlements"] {
            try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), name, in: dir)
        }
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (beta)", "App (default)", "Share (default)", "Widget (default)"])
        let beta = try unit(result, "App (beta)")
        XCTAssertEqual(beta.bundleID?.value, "com.example.app")
        XCTAssertTrue(beta.entitlementsPath.hasSuffix("app/App-beta.entitlements"), beta.entitlementsPath)
        XCTAssertEqual(beta.origin?.kind, .app)
        XCTAssertEqual(beta.platform, .iOS)
        XCTAssertNil(beta.teamID, "rules_apple has no team attribute")
        let sources = beta.origin?.settingSources ?? [:]
        XCTAssertTrue(sources["PRODUCT_BUNDLE_IDENTIFIER"]?.hasSuffix("app/BUILD.bazel:7") == true, "\(sources)")
        XCTAssertTrue(sources["CODE_SIGN_ENTITLEMENTS"]?.hasSuffix("app/BUILD.bazel:9") == true, "\(sources)")
        XCTAssertTrue(sources["minimum_os_version"]?.hasSuffix("app/BUILD.bazel:3") == true, "\(sources)")
        XCTAssertTrue(try unit(result, "App (default)").entitlementsPath.hasSuffix("app/App.entitlements"))
        let share = try unit(result, "Share (default)")
        XCTAssertEqual(share.origin?.kind, .appExtension)
        XCTAssertEqual(share.origin?.hostTarget, "App")
        XCTAssertEqual(share.origin?.hostBundleID, "com.example.app")
        XCTAssertTrue(share.entitlementsPath.hasSuffix("app/Share.entitlements"), "a // label from the workspace root")
        let widget = try unit(result, "Widget (default)")
        XCTAssertEqual(widget.origin?.hostTarget, "App", "a host in another package")
    }

    func testMacrosWithLiteralArgumentsAndProfiles() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("", "WORKSPACE", in: dir)
        try Fixture.write("""
        load("@build_bazel_rules_apple//apple:macos.bzl", "macos_application")

        def mac_app(name, bundle_id, profile = None, entitlements = None):
            macos_application(
                name = name,
                bundle_id = bundle_id,
                entitlements = entitlements,
                provisioning_profile = profile,
            )
        """, "tools/app.bzl", in: dir)
        try Fixture.write("""
        load("//tools:app.bzl", make = "mac_app")

        make(
            name = "Signed",
            bundle_id = "com.example.signed",
            entitlements = "Signed.entitlements",
        )

        make(
            name = "FromProfile",
            bundle_id = "com.example.profile",
            profile = "Dev.provisionprofile",
        )

        make(
            name = "External",
            bundle_id = "com.example.ext",
            entitlements = "@secrets//:ext.entitlements",
        )
        """, "mac/BUILD", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.signed"]), "mac/Signed.entitlements", in: dir)
        try Fixture.write("not really a profile", "mac/Dev.provisionprofile", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(result.units.map(\.name), ["Signed (default)"])
        let signed = try unit(result, "Signed (default)")
        XCTAssertEqual(signed.bundleID?.value, "com.example.signed")
        XCTAssertEqual(signed.platform, .macOS)
        XCTAssertTrue(signed.origin?.settingSources["PRODUCT_BUNDLE_IDENTIFIER"]?.hasSuffix("mac/BUILD:5") == true, "\(signed.origin?.settingSources ?? [:])")
        XCTAssertTrue(result.notices.contains { $0.message.contains("FromProfile (default)") && $0.message.contains("Dev.provisionprofile") }, "\(result.notices)")
        XCTAssertTrue(result.notices.contains { $0.message.contains("the entitlements of External cannot") && $0.message.contains("@secrets") }, "\(result.notices)")
    }

    func testLabelsStayInsideTheWorkspace() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("", "ws/MODULE.bazel", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.x"]), "Outside.entitlements", in: dir)
        try Fixture.write("""
        ios_application(name = "Escape", bundle_id = "com.example.x", entitlements = "//../Outside.entitlements")
        ios_application(name = "Nested", bundle_id = select({"//:a": select({}), "//conditions:default": "com.example.n"}))
        """, "ws/app/BUILD", in: dir)
        let result = try lint(dir)
        XCTAssertFalse(result.units.contains { $0.name.hasPrefix("Escape") }, "\(result.units.map(\.name))")
        XCTAssertTrue(result.notices.contains { $0.message.contains("the entitlements of Escape cannot be known") }, "\(result.notices)")
        XCTAssertNil(try unit(result, "Nested (a)").bundleID, "a select inside a select needs evaluation")
        XCTAssertEqual(try unit(result, "Nested (default)").bundleID?.value, "com.example.n")
    }

    /// `families` and `minimum_os_version` are kept on the units as written, a `select()` per
    /// configuration as the other attributes; a value that needs evaluation is unknown, with its line.
    func testFamiliesAndMinimumOSAreKeptPerConfiguration() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("module(name = \"demo\")\n", "MODULE.bazel", in: dir)
        try Fixture.write("""
        ios_application(
            name = "App",
            bundle_id = "com.example.app",
            entitlements = "App.entitlements",
            families = ["iphone", "ipad"],
            minimum_os_version = select({
                "//:legacy": "15.0",
                "//conditions:default": "17.0",
            }),
        )

        ios_application(
            name = "Odd",
            bundle_id = "com.example.odd",
            families = all_families(),
        )
        """, "app/BUILD.bazel", in: dir)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.app"]), "app/App.entitlements", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (legacy)", "App (default)", "Odd (default)"])
        let legacy = try unit(result, "App (legacy)").origin?.declared
        XCTAssertEqual(legacy?.deviceFamilies?.value, "iphone, ipad")
        XCTAssertTrue(legacy?.deviceFamilies?.source.hasPrefix("families at ") == true && legacy?.deviceFamilies?.source.hasSuffix("app/BUILD.bazel:5") == true, "\(String(describing: legacy))")
        XCTAssertEqual(legacy?.minimumOS?.value, "15.0")
        XCTAssertTrue(legacy?.minimumOS?.source.hasPrefix("minimum_os_version at ") == true && legacy?.minimumOS?.source.hasSuffix("app/BUILD.bazel:7") == true, "\(String(describing: legacy))")
        let current = try unit(result, "App (default)").origin?.declared
        XCTAssertEqual(current?.minimumOS?.value, "17.0")
        XCTAssertTrue(current?.minimumOS?.source.hasSuffix("app/BUILD.bazel:8") == true, "\(String(describing: current))")
        let odd = try unit(result, "Odd (default)").origin?.declared
        XCTAssertNil(odd?.deviceFamilies?.value)
        XCTAssertTrue(odd?.deviceFamilies?.source.hasPrefix("families unknown: a value that needs evaluation (") == true && odd?.deviceFamilies?.source.hasSuffix("app/BUILD.bazel:15)") == true, "\(String(describing: odd))")
        XCTAssertNil(odd?.minimumOS, "not written: not declared")
    }

    /// `app_clips` and `watch_application` name hosted targets as `extensions` does, and a watch
    /// app's `extension` is hosted by the watch app.
    func testAppClipsAndWatchApplicationsAreHosted() throws {
        let dir = try Fixture.temporaryDirectory(self)
        try Fixture.write("""
        ios_application(name = "App", bundle_id = "com.example.app", app_clips = [":Clip"], watch_application = ":Watch")

        ios_app_clip(name = "Clip", bundle_id = "com.example.app.clip")

        watchos_application(name = "Watch", bundle_id = "com.example.app.watchkitapp", extension = ":WatchExtension")

        watchos_extension(name = "WatchExtension", bundle_id = "com.example.app.watchkitapp.watchkitextension")
        """, "app/BUILD", in: dir)
        try Fixture.write("workspace(name = \"demo\")\n", "WORKSPACE", in: dir)
        let result = try lint(dir)
        XCTAssertEqual(Set(result.units.map(\.name)), ["App (default)", "Clip (default)", "Watch (default)", "WatchExtension (default)"])
        let clip = try unit(result, "Clip (default)")
        XCTAssertEqual(clip.origin?.kind, .appClip)
        XCTAssertEqual(clip.origin?.hostTarget, "App")
        XCTAssertEqual(clip.origin?.hostBundleID, "com.example.app")
        let watch = try unit(result, "Watch (default)")
        XCTAssertEqual(watch.origin?.kind, .watchApp)
        XCTAssertEqual(watch.origin?.hostTarget, "App")
        let watchExtension = try unit(result, "WatchExtension (default)")
        XCTAssertEqual(watchExtension.origin?.hostTarget, "Watch")
        XCTAssertEqual(watchExtension.origin?.hostBundleID, "com.example.app.watchkitapp")
    }
}
