import XCTest

/// `entitlint xcode` in a fake Xcode build environment: only the unit being built is reported,
/// with absolute paths, per configuration; the build's bundle ID never overrides the project's.
final class XcodeBuildPhaseTests: XCTestCase {
    /// A copy of the bundled suite whose AppTwo changed its bundle ID in Release only (the lock
    /// still holds the old default group): a drift in AppTwo (Release), nothing in Debug.
    func suite() throws -> URL {
        let dir = try CLI.temporaryDirectory(self).appendingPathComponent("Suite")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/AppSuite-bundle-id-change"), to: dir)
        return dir
    }

    func build(_ target: String, _ configuration: String, in dir: URL, entitlements: String?, bundleID: String,
               extra: [String: String] = [:]) throws -> CLI.Result {
        var env = ["TARGET_NAME": target, "CONFIGURATION": configuration, "SRCROOT": dir.path,
                   "PROJECT_FILE_PATH": dir.appendingPathComponent("AppSuite.xcodeproj").path,
                   "PRODUCT_BUNDLE_IDENTIFIER": bundleID, "DEVELOPMENT_TEAM": "ABCDE12345"]
        env["CODE_SIGN_ENTITLEMENTS"] = entitlements
        // Xcode runs a phase from the project's folder; the command must not depend on it.
        return try CLI.run(["xcode"], in: FileManager.default.temporaryDirectory, environment: env.merging(extra) { $1 })
    }

    func testOnlyTheConfigurationBeingBuiltIsReportedWithAbsolutePaths() throws {
        let dir = try suite()
        let release = try build("AppTwo", "Release", in: dir, entitlements: "AppTwo/AppTwo.entitlements", bundleID: "com.example.Notes")
        XCTAssertEqual(release.status, 1, release.stdout + release.stderr)
        XCTAssertTrue(release.stdout.hasPrefix(dir.path + "/AppTwo/AppTwo.entitlements:7:3: error: default access group changed"), release.stdout)
        XCTAssertFalse(release.stdout.contains("files checked"), "no summary line in the build log: \(release.stdout)")

        let debug = try build("AppTwo", "Debug", in: dir, entitlements: "AppTwo/AppTwo.entitlements", bundleID: "com.example.AppTwo")
        XCTAssertEqual(debug.status, 0, debug.stdout + debug.stderr)
        XCTAssertEqual(debug.stdout, "")

        let other = try build("AppOne", "Release", in: dir, entitlements: "AppOne/AppOne.entitlements", bundleID: "com.example.AppOne")
        XCTAssertEqual(other.status, 0, "another target's drift is not this build's: \(other.stdout)")
        XCTAssertEqual(other.stdout, "")
    }

    func testTheBuildsBundleIDDoesNotOverrideTheProjectsOtherConfigurations() throws {
        // The old recipe passed --bundle-id for the whole run: building Debug with Release's ID
        // moved every configuration's default group. Here the project's settings decide.
        let dir = try suite()
        let debug = try build("AppTwo", "Debug", in: dir, entitlements: "AppTwo/AppTwo.entitlements", bundleID: "com.example.Notes")
        XCTAssertEqual(debug.status, 0, debug.stdout + debug.stderr)
        XCTAssertEqual(debug.stdout, "")
    }

    func testATargetWithoutEntitlementsAndARunOutsideXcode() throws {
        let dir = try suite()
        let none = try build("AppOne", "Release", in: dir, entitlements: nil, bundleID: "com.example.AppOne")
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout + none.stderr, "")
        let outside = try CLI.run(["xcode"], in: dir, environment: ["TARGET_NAME": "", "CONFIGURATION": "", "SRCROOT": ""])
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.stderr.contains("runs in an Xcode build phase"), outside.stderr)
    }

    func testATargetTheReaderDoesNotKnowIsLintedAloneWithTheBuildsFacts() throws {
        let dir = try suite()
        try CLI.entitlements(["com.example.shared"]).write(to: dir.appendingPathComponent("Tool.entitlements"), atomically: true, encoding: .utf8)
        let r = try build("Tool", "Release", in: dir, entitlements: "Tool.entitlements", bundleID: "com.example.Tool")
        XCTAssertTrue(r.stderr.contains("Tool (Release) is not a target the project reader found"), r.stderr)
        XCTAssertTrue(r.stdout.contains(dir.path + "/Tool.entitlements:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[missing-team-prefix]"), r.stdout)
        XCTAssertEqual(r.status, 1)
    }
}
