import Foundation
import TestSupport
import XCTest
import EntitlintCore
import EntitlintWorkspace
import XcodeProject

/// The `openstep-plist` fuzz harness reads each input as a `project.pbxproj` and, when it parses,
/// builds the project's units with `XcodeDiscoverer` over in-memory files. Here the inputs it kept
/// (`Tests/Fuzz/Regressions/openstep-plist/`) go the same way: units or findings, quickly, never a
/// crash; and its seeds must reach the project model, or the harness would test only the reader.
final class ProjectFuzzRegressionTests: XCTestCase {
    /// What the harness does: the input as `/fuzz/AppSuite.xcodeproj/project.pbxproj`, with an
    /// xcconfig and entitlements beside it, all virtual (nothing on disk).
    static func discover(_ pbxproj: [UInt8]) -> Discovery {
        let entitlements = Array("<plist><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)x</string></array></dict></plist>".utf8)
        let path = "/fuzz/AppSuite.xcodeproj/project.pbxproj"
        var options = LintOptions()
        options.paths = [path]
        options.parallel = false
        options.virtualFiles = VirtualFiles(files: [
            path: pbxproj,
            "/fuzz/Config/Shared.xcconfig": Array("DEVELOPMENT_TEAM = ABCDE12345\nBUNDLE_ID_PREFIX = com.example\n".utf8),
            "/fuzz/AppOne/AppOne.entitlements": entitlements,
            "/fuzz/AppTwo/AppTwo.entitlements": entitlements,
        ], exclusive: true)
        return XcodeDiscoverer().discover(DiscoveryRequest(files: [], options: options, cwd: "/fuzz"))
    }

    func testOpenStepRegressionsGoThroughTheProjectModel() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/openstep-plist") {
            let discovery = Self.discover(bytes)
            for f in discovery.findings { XCTAssertFalse(f.message.isEmpty, "\(name): a finding without a message") }
        }
    }

    func testSeedsReachTheProjectModel() throws {
        let seeds = try FuzzInputs.files("Seeds/openstep-plist")
        let project = try XCTUnwrap(seeds.first { $0.name == "small-project.pbxproj" })
        let units = Self.discover(project.bytes).units
        XCTAssertEqual(units.map(\.name).sorted(), ["App (Debug)", "App (Release)"])
        let debug = try XCTUnwrap(units.first { $0.name == "App (Debug)" })
        XCTAssertEqual(debug.teamID?.value, "FGHIJ67890")
        XCTAssertEqual(debug.bundleID?.value, "com.example.App")
        XCTAssertEqual(debug.entitlementsPath, "AppOne/AppOne.entitlements")   // as shown from /fuzz

        let example = try Data(contentsOf: FuzzInputs.root.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/AppSuite/AppSuite.xcodeproj/project.pbxproj"))
        XCTAssertFalse(Self.discover(Array(example)).units.isEmpty, "the AppSuite example seed gives units")
    }
}
