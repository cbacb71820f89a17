import Foundation
import XCTest

/// `entitlint inspect` and the profile rules through the command line.
final class ProfileCommandTests: XCTestCase {
    static let family = CLI.packageRoot.appendingPathComponent("Examples/family")

    func testInspectProfileSummary() throws {
        let r = try CLI.run(["inspect", "profiles/AppOne.mobileprovision"], in: Self.family)
        XCTAssertEqual(r.status, 0, r.stderr)
        for line in ["profiles/AppOne.mobileprovision: provisioning profile", "name:          AppOne App Store",
                     "UUID:          6F2A7C1E-3B1D-4A8E-9C51-0D2B7E4F1A11", "team:          ABCDE12345 (Example Ltd)",
                     "App ID:        ABCDE12345.com.example.AppOne (AppOne)", "kind:          app-store",
                     "expires:       2126-01-05T10:00:00Z (36377 days left)", "envelope:      der"] {
            XCTAssertTrue(r.stdout.contains(line), "missing \(line):\n\(r.stdout)")
        }
    }

    func testInspectFormats() throws {
        let plist = try CLI.run(["inspect", "--format", "plist", "profiles/AppTwo.mobileprovision"], in: Self.family)
        XCTAssertEqual(plist.status, 0)
        XCTAssertTrue(plist.stdout.hasPrefix("<?xml"), plist.stdout)
        XCTAssertTrue(plist.stdout.contains("<string>0B9D3E52-8A47-4C6F-B1E2-5A7C9D3F2B22</string>"))

        let json = try CLI.run(["inspect", "--format", "json", "AppOne/AppOne.entitlements"], in: Self.family)
        XCTAssertEqual(json.status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["kind"] as? String, "entitlements")

        XCTAssertEqual(try CLI.run(["inspect", "--format", "yaml", "AppOne/AppOne.entitlements"], in: Self.family).status, 2)
        XCTAssertEqual(try CLI.run(["inspect", "nope.mobileprovision"], in: Self.family).status, 2)
    }

    /// Profiles in use expire; profiles that only lie in a walked folder are only decoded.
    func testExpiryOfProfilesInUseOnly() throws {
        let later = ["ENTITLINT_NOW": "2126-02-01"]
        let paired = try CLI.run(["lint", "."], in: Self.family, environment: later)
        XCTAssertEqual(paired.status, 1)
        XCTAssertTrue(paired.stdout.contains("profiles/AppOne.mobileprovision: error: provisioning profile \"AppOne App Store\" expired on 2126-01-05 (26 days ago)"), paired.stdout)

        let walked = try CLI.run(["lint", "profiles"], in: Self.family, environment: later)
        XCTAssertEqual(walked.status, 0, walked.stdout)
        XCTAssertEqual(walked.stdout, "2 files checked: no problems found\n")

        let named = try CLI.run(["lint", "profiles/AppTwo.mobileprovision"], in: Self.family, environment: later)
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stdout.contains("[profile-expired]"), named.stdout)

        let soon = try CLI.run(["lint", "."], in: Self.family, environment: ["ENTITLINT_NOW": "2125-12-20"])
        XCTAssertEqual(soon.status, 0)
        XCTAssertTrue(soon.stdout.contains("expires on 2126-01-05 (in 16 days)"), soon.stdout)

        // The window is the configuration's `profile-expiring-days`.
        let dir = try CLI.temporaryDirectory(self)
        try FileManager.default.copyItem(at: Self.family, to: dir.appendingPathComponent("family"))
        let copy = dir.appendingPathComponent("family")
        let config = try String(contentsOf: copy.appendingPathComponent(".entitlint.yml"), encoding: .utf8)
        func window(_ line: String) throws {
            try (config + "\n" + line + "\n").write(to: copy.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
        }
        try window("profile-expiring-days: 7")
        let narrow = try CLI.run(["lint", "."], in: copy, environment: ["ENTITLINT_NOW": "2125-12-20"])
        XCTAssertEqual(narrow.status, 0, narrow.stdout)
        XCTAssertFalse(narrow.stdout.contains("[profile-expiring]"), narrow.stdout)
        try window("profile-expiring-days: 20")
        let wide = try CLI.run(["lint", "."], in: copy, environment: ["ENTITLINT_NOW": "2125-12-20"])
        XCTAssertTrue(wide.stdout.contains("[profile-expiring]"), wide.stdout)
        try window("profile-expiring-days: 0")
        let bad = try CLI.run(["lint", "."], in: copy)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("'profile-expiring-days' must be a whole number of days from 1 to 3650, not '0'"), bad.stderr)
    }
}
