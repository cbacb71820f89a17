import EntitlintCore
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// `entitlint inspect`, through `Inspector`.
final class InspectTests: XCTestCase {
    static let today = PlistDate(year: 2026, month: 6, day: 1, hour: 0, minute: 0, second: 0)

    func testProductSummaryNamesEveryUnitAndProfile() throws {
        let dir = try temporaryFolder()
        let ipa = dir.appendingPathComponent("App.ipa")
        try ProductWriter.zip(BundleTests.family(prefix: "Payload/App.app"), at: ipa)
        let i = try Inspector.inspect(ipa.path, shown: "App.ipa", now: Self.today)
        XCTAssertEqual(i.kind, .product)
        XCTAssertEqual(i.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        XCTAssertEqual(i.profiles.count, 4)
        let app = try XCTUnwrap(i.units.first { $0.name == "App" })
        XCTAssertEqual(app.bundleID, "com.example.App")
        XCTAssertEqual(app.derEntitlements, "same as slot 5")
        XCTAssertEqual(app.profile, "App.ipa!Payload/App.app/embedded.mobileprovision")
        let text = Inspector.text(i)
        XCTAssertTrue(text.contains("App.ipa: built product, 4 signing units"), text)
        XCTAssertTrue(text.contains("Clip (App Clip): App.ipa!Payload/App.app/AppClips/Clip.app/Clip"), text)
        XCTAssertTrue(text.contains("expires:       2030-01-01T00:00:00Z (1310 days left)"), text)

        // JSON round-trips; the plist is every unit's entitlements keyed by executable.
        let data = try JSONEncoder().encode(i)
        var decoded = try JSONDecoder().decode(Inspection.self, from: data)
        decoded.plist = i.plist
        XCTAssertEqual(decoded, i)
        let plist = try PropertyListReader.parse(i.plist)
        XCTAssertEqual(plist.root.dict?.keys.count, 4)
        XCTAssertNotNil(plist.root.dict?["App.ipa!Payload/App.app/App"]?.dict?["keychain-access-groups"])
    }

    func testSingleBinaryPlistIsItsEntitlements() throws {
        let dir = try temporaryFolder()
        let body = "<key>get-task-allow</key><true/><key>keychain-access-groups</key><array><string>A &amp; B</string></array>"
        try Data(MachOWriter(xmlEntitlements: Plist.xml(body)).bytes()).write(to: dir.appendingPathComponent("tool"))
        let i = try Inspector.inspect(dir.appendingPathComponent("tool").path, shown: "tool", now: Self.today)
        let root = try PropertyListReader.parse(i.plist).root
        XCTAssertTrue(PlistComparison.equal(root, Plist.parse(body)))
        XCTAssertEqual(i.units.first?.derEntitlements, "absent")
    }

    func testProfileSummaryAndPlist() throws {
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("P.mobileprovision")
        try Data(Plist.profile(appID: "ABCDE12345.com.example.*", expires: "2026-05-01T00:00:00Z", devices: true,
                               entitlements: "<key>get-task-allow</key><true/>")).write(to: url)
        let i = try Inspector.inspect(url.path, shown: "P.mobileprovision", now: Self.today)
        let p = try XCTUnwrap(i.profiles.first)
        XCTAssertEqual(p.kind, "development")
        XCTAssertEqual(p.daysLeft, -31)
        XCTAssertEqual(p.deviceCount, 1)
        XCTAssertEqual(p.derEncodedProfile, "absent")
        XCTAssertTrue(Inspector.text(i).contains("(expired 31 days ago)"))
        XCTAssertEqual(i.plist, Array(try Data(contentsOf: url)))
    }

    func testMissingAndUnparsableFiles() throws {
        let dir = try temporaryFolder()
        XCTAssertThrowsError(try Inspector.inspect(dir.appendingPathComponent("nope").path, shown: "nope", now: Self.today))
        try Data("<plist><dict>".utf8).write(to: dir.appendingPathComponent("bad.entitlements"))
        XCTAssertThrowsError(try Inspector.inspect(dir.appendingPathComponent("bad.entitlements").path, shown: "bad.entitlements", now: Self.today))
    }

    func testPlistWriterEscapesAndRoundTrips() throws {
        let tree = Plist.parse("""
        <key>s</key><string>&lt;a&gt; &amp; "b"</string><key>n</key><integer>-5</integer><key>d</key><data>AAEC/w==</data>
        <key>t</key><date>2025-01-01T00:00:00Z</date><key>e</key><array/><key>f</key><dict/><key>b</key><false/>
        """)
        let back = try PropertyListReader.parse(Array(PlistXMLWriter.document(tree).utf8)).root
        XCTAssertTrue(PlistComparison.equal(tree, back), "\(PlistComparison.differences(tree, back))")
        XCTAssertEqual(PlistXMLWriter.base64([0, 1, 2, 255]), "AAEC/w==")
        XCTAssertEqual(PlistXMLWriter.base64([1, 2]), "AQI=")
    }
}
