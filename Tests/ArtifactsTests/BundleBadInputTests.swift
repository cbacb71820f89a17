import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// Damaged and hostile products (unsafe zip paths, zip bombs, truncation, too many entries, lying
/// binaries, damaged profiles and Info.plists), and files that are not products; each test is named
/// for what it checks.
final class BundleBadInputTests: XCTestCase, BundleLinting {
    // MARK: - Bad input

    func testZipWithDotDotPathsIsReportedAndTheRestLinted() throws {
        let dir = try temporaryFolder()
        var files = BundleTests.family(prefix: "Payload/App.app")
        files["../../evil.txt"] = Array("x".utf8)
        files["Payload/../../evil2.txt"] = Array("x".utf8)
        try ProductWriter.zip(files, at: dir.appendingPathComponent("App.ipa"))
        let result = try lint(["App.ipa"], in: dir)
        XCTAssertEqual(result.units.count, 4)
        let parseErrors = result.findings.filter { $0.rule == "parse-error" }
        XCTAssertEqual(parseErrors.count, 2)
        XCTAssertTrue(parseErrors.allSatisfy { $0.message.contains("unsafe path") && $0.path == "App.ipa" })
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("evil.txt").path))
    }

    func testZipBombIsRefusedNotExpanded() throws {
        let dir = try temporaryFolder()
        // An executable of zeros: deflate shrinks it about a thousand times.
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        var files = ProductWriter.iOSApp("Payload/App.app", name: "App", bundleID: "com.example.App", binary: zeros, profile: nil)
        files.merge(ProductWriter.iOSApp("Payload/Good.app", name: "Good", bundleID: "com.example.Good", binary: BundleTests.binary(BundleTests.appBody), profile: nil)) { $1 }
        try ProductWriter.zip(files, at: dir.appendingPathComponent("Bomb.ipa"))
        let reader = ArtifactReader(zipLimits: ZipLimits(ratioCheckMinimum: 1 << 20))
        let result = try lint(["Bomb.ipa"], in: dir, reader: reader)
        XCTAssertEqual(result.units.map(\.name), ["Good"])
        let bomb = try XCTUnwrap(result.findings.first { $0.rule == "parse-error" })
        XCTAssertEqual(bomb.path, "Bomb.ipa!Payload/App.app/App")
        XCTAssertTrue(bomb.message.contains("zip bomb"), bomb.message)

        // A total budget: the second executable would pass it.
        let tight = ArtifactReader(zipLimits: ZipLimits(maxExpandedTotal: 4 << 20))
        let limited = try lint(["Bomb.ipa"], in: dir, reader: tight)
        XCTAssertTrue(limited.findings.contains { $0.message.contains("ZipLimits.maxExpandedTotal") }, "\(limited.findings.map(\.message))")
    }

    func testTruncatedIPAIsAFindingNotACrash() throws {
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("App.ipa")
        try ProductWriter.zip(BundleTests.family(prefix: "Payload/App.app"), at: url)
        let whole = try Data(contentsOf: url)
        for fraction in [0.1, 0.5, 0.9, 0.99] {
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: dir.appendingPathComponent("Cut.ipa"))
            let result = try lint(["Cut.ipa"], in: dir)
            XCTAssertTrue(result.findings.contains { $0.rule == "parse-error" }, "\(fraction)")
        }
        // Damage inside the deflated data of an executable (the central directory intact).
        var damaged = whole
        let middle = damaged.count / 3
        for i in middle..<(middle + 64) { damaged[i] ^= 0x5a }
        try damaged.write(to: dir.appendingPathComponent("Damaged.ipa"))
        _ = try lint(["Damaged.ipa"], in: dir)
    }

    func testTooManyZipEntries() throws {
        let dir = try temporaryFolder()
        var files = BundleTests.family(prefix: "Payload/App.app")
        for i in 0..<30 { files["Payload/App.app/Assets/\(i).png"] = [UInt8(i)] }
        try ProductWriter.zip(files, at: dir.appendingPathComponent("Many.ipa"))
        let result = try lint(["Many.ipa"], in: dir, reader: ArtifactReader(zipLimits: ZipLimits(maxEntries: 20)))
        XCTAssertEqual(result.units, [])
        XCTAssertTrue(result.findings.contains { $0.rule == "parse-error" && $0.message.contains("more than 20 zip entries") })
    }

    func testNotAZip() throws {
        let dir = try temporaryFolder()
        try Data("not a zip at all".utf8).write(to: dir.appendingPathComponent("Junk.ipa"))
        let result = try lint(["Junk.ipa"], in: dir)
        XCTAssertEqual(result.findings.map(\.rule), ["parse-error"])
        XCTAssertEqual(result.findings.first?.path, "Junk.ipa")
    }

    func testLyingBinaryIsAFindingOnThatUnitOnly() throws {
        let dir = try temporaryFolder()
        var files = BundleTests.family(prefix: "Payload/App.app")
        var broken = BundleTests.binary("<key>application-identifier</key><string>ABCDE12345.com.example.App.Share</string>")
        for i in 0..<4 { broken[16 + i] = 0xff }   // ncmds
        files["Payload/App.app/PlugIns/Share.appex/Share"] = broken
        files["Payload/App.app/Watch/Watch.app/Watch"] = Array(files["Payload/App.app/Watch/Watch.app/Watch"]!.prefix(40))
        try ProductWriter.zip(files, at: dir.appendingPathComponent("App.ipa"))
        let result = try lint(["App.ipa"], in: dir)
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App", "Clip"])
        let errors = result.findings.filter { $0.rule == "parse-error" }
        XCTAssertEqual(Set(errors.map(\.path)), ["App.ipa!Payload/App.app/PlugIns/Share.appex/Share", "App.ipa!Payload/App.app/Watch/Watch.app/Watch"])
        XCTAssertTrue(errors.allSatisfy { $0.message.count > 30 })
    }

    /// Embedded XML entitlements (slot 5) whose root is an array holding `*` were read as no
    /// entitlements at all: the unit passed. They are a parse-error on the executable now.
    func testEmbeddedEntitlementsWithARootArrayAreAParseError() throws {
        let dir = try temporaryFolder()
        let root = Array("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array><string>*</string></array></plist>\n".utf8)
        let binary = MachOWriter(xmlEntitlements: root, derEntitlements: nil).bytes()
        try ProductWriter.folder(ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: binary, profile: nil), at: dir)
        let result = try lint(["App.app"], in: dir)
        XCTAssertEqual(result.units.count, 0)
        let errors = result.findings.filter { $0.rule == "parse-error" }
        XCTAssertEqual(errors.map(\.path), ["App.app/App"])
        XCTAssertEqual(errors.map(\.message), ["cannot read built product: arm64: the XML entitlements (slot 5) cannot be parsed: the root of an entitlements file must be a dictionary (<dict>), not an array (<array>)"])
    }

    func testDamagedEmbeddedProfileAndInfoPlist() throws {
        let dir = try temporaryFolder()
        var files = ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: BundleTests.binary(BundleTests.appBody), profile: Array("junk".utf8))
        files["App.app/Info.plist"] = Array("<plist><dict><key>CFBundleIdentifier</key>".utf8)
        try ProductWriter.folder(files, at: dir)
        let result = try lint(["App.app"], in: dir)
        XCTAssertEqual(result.units.count, 1, "the binary is still linted")
        XCTAssertEqual(Set(result.findings.filter { $0.rule == "parse-error" }.map(\.path)), ["App.app/Info.plist", "App.app/embedded.mobileprovision"])
    }

    func testNothingIsWritten() throws {
        let dir = try temporaryFolder()
        try ProductWriter.zip(BundleTests.family(prefix: "Payload/App.app"), at: dir.appendingPathComponent("App.ipa"))
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        let tmpBefore = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).count
        _ = try lint(["App.ipa"], in: dir)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), before)
        XCTAssertLessThanOrEqual(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).count, tmpBefore)
    }

    func testOnlyProductsAreHandled() throws {
        let dir = try temporaryFolder()
        try Data(MachOWriter(signed: false).bytes()).write(to: dir.appendingPathComponent("tool"))
        try Data(Plist.xml("")).write(to: dir.appendingPathComponent("App.entitlements"))
        try Data([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]).write(to: dir.appendingPathComponent("Main.class"))
        let reader = ArtifactReader()
        XCTAssertTrue(reader.handles(dir.appendingPathComponent("tool").path))
        XCTAssertTrue(reader.handles("Some.ipa"))
        XCTAssertTrue(reader.handles("Some.app/"))
        XCTAssertTrue(reader.handles("X.xcarchive"))
        XCTAssertFalse(reader.handles(dir.appendingPathComponent("App.entitlements").path))
        XCTAssertFalse(reader.handles(dir.appendingPathComponent("Main.class").path))
        XCTAssertFalse(reader.handles(dir.path))
    }
}
