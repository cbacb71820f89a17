import Foundation
import XCTest
import TestSupport

/// A project as a fresh clone gives it: the team from DEVELOPMENT_TEAM and no profile, so the App
/// ID prefix of a target that does not spell it is only assumed. A finding that rests on it is a
/// warning whose note says what was assumed; with the team stated (`--team-id`) it is an error.
final class AssumedPrefixCLITests: XCTestCase {
    /// Two apps of one team share `$(AppIdentifierPrefix)com.example.shared`; AppOne spells its App
    /// ID under the legacy prefix LEGACY1234 (so its prefix is known), AppTwo spells none.
    static let spec = SyntheticProject.spec("Suite", targets: [
        SpecTarget("AppOne", bundleID: "com.example.AppOne", entitlements: "AppOne/AppOne.entitlements"),
        SpecTarget("AppTwo", bundleID: "com.example.AppTwo", entitlements: "AppTwo/AppTwo.entitlements"),
    ])

    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        let files = [
            "project.yml": Self.spec,
            "AppOne/AppOne.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"],
                                                           extra: "\n\t<key>application-identifier</key>\n\t<string>LEGACY1234.com.example.AppOne</string>"),
            "AppTwo/AppTwo.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"]),
        ]
        return try SyntheticProject.write(files, in: dir)
    }

    /// The findings of team-mismatch-across-targets in the JSON report, as (severity, path, notes).
    func findings(_ extra: [String], in dir: URL) throws -> [(severity: String, path: String, notes: [String])] {
        let r = try CLI.run(["lint", "--format", "json", "--select", "team-mismatch-across-targets", "."] + extra, in: dir)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr)
        return try XCTUnwrap(object["findings"] as? [[String: Any]]).map {
            ($0["severity"] as? String ?? "", $0["path"] as? String ?? "", $0["notes"] as? [String] ?? [])
        }
    }

    func testASharedGroupThatDiffersOnlyByAnAssumedPrefixIsAWarningThatSaysSo() throws {
        let dir = try project()
        let assumed = try findings([], in: dir)
        XCTAssertEqual(assumed.map(\.severity), ["warning"], "\(assumed)")
        XCTAssertEqual(assumed.first?.path, "AppTwo/AppTwo.entitlements")
        XCTAssertTrue(assumed.first?.notes.contains { $0.hasPrefix("The App ID prefix ABCDE12345 is assumed: App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM") && $0.contains("--profile") } == true,
                      "\(assumed)")
        let stated = try findings(["--team-id", "ABCDE12345"], in: dir)
        XCTAssertEqual(stated.map(\.severity), ["error", "error"], "a stated team is the prefix: \(stated)")
        XCTAssertEqual(Set(stated.map(\.path)), ["AppOne/AppOne.entitlements", "AppTwo/AppTwo.entitlements"])
    }
}
