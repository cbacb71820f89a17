import Foundation
import XCTest
import TestSupport

/// `entitlint report` shows what a manifest declares about where a unit runs (rules_apple's
/// `families` and `minimum_os_version`) and the Tuist workspace listing its project, each with
/// its manifest line, in the text and in the JSON (valid against the report's schema).
final class ManifestDeclaredReportTests: XCTestCase {
    func testBazelFamiliesAndMinimumOSAreShownWithTheirLines() throws {
        let dir = try CLI.temporaryDirectory(self)
        _ = try SyntheticProject.write([
            "MODULE.bazel": "module(name = \"demo\")\n",
            "app/BUILD.bazel": """
            ios_application(
                name = "Reader",
                families = ["ipad"],
                minimum_os_version = select({
                    "//conditions:default": "18.0",
                    "//:old": "16.0",
                }),
                bundle_id = "com.example.reader",
                entitlements = ":Reader.entitlements",
            )
            """,
            "app/Reader.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.reader"]),
        ], in: dir)
        let json = try CLI.run(["report", "--format", "json"], in: dir)
        XCTAssertEqual(json.status, 0, json.stderr)
        try SchemaValidator.validate(json.stdout, format: "report")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let units = try XCTUnwrap(object["units"] as? [[String: Any]])
        let old = try XCTUnwrap(units.first { $0["name"] as? String == "Reader (old)" }?["declared"] as? [String: Any], json.stdout)
        let families = try XCTUnwrap(old["deviceFamilies"] as? [String: String])
        XCTAssertEqual(families, ["value": "ipad", "source": "families at app/BUILD.bazel:3"])
        XCTAssertEqual(old["minimumOS"] as? [String: String], ["value": "16.0", "source": "minimum_os_version at app/BUILD.bazel:6"])
        XCTAssertNil(old["workspace"])

        let text = try CLI.run(["report"], in: dir)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  devices       ipad ") && $0.hasSuffix("families at app/BUILD.bazel:3") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  minimum OS    16.0 ") && $0.hasSuffix("minimum_os_version at app/BUILD.bazel:6") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  minimum OS    18.0 ") && $0.hasSuffix("minimum_os_version at app/BUILD.bazel:5") },
                      "configurations declaring different versions are sections of their own: \(text.stdout)")
    }

    func testTheTuistWorkspaceIsShownWithItsLine() throws {
        let dir = try CLI.temporaryDirectory(self)
        _ = try SyntheticProject.write([
            "Workspace.swift": "import ProjectDescription\n\nlet workspace = Workspace(name: \"Suite\", projects: [\"App\"])\n",
            "App/Project.swift": """
            import ProjectDescription

            let project = Project(name: "App", targets: [
                .target(name: "App", destinations: [.iPhone], product: .app, bundleId: "com.example.app", entitlements: "App.entitlements",
                        deploymentTargets: .iOS("16.0")),
            ])
            """,
            "App/App.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.app"]),
        ], in: dir)
        let text = try CLI.run(["report"], in: dir)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  workspace     Suite ") && $0.hasSuffix("Workspace at Workspace.swift:3") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  devices       iPhone ") && $0.hasSuffix("destinations at App/Project.swift:4") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  minimum OS    16.0 ") && $0.hasSuffix("deploymentTargets at App/Project.swift:5") }, text.stdout)
        let json = try CLI.run(["report", "--format", "json"], in: dir)
        try SchemaValidator.validate(json.stdout, format: "report")
    }
}
