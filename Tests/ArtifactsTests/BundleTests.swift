import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// What the product test classes share: a lint run over products in a folder, on the date the
/// tests pin (`BundleTests.today`).
protocol BundleLinting: XCTestCase {}

extension BundleLinting {
    func lint(_ paths: [String], in dir: URL, reader: ArtifactReader = ArtifactReader()) throws -> LintResult {
        var options = LintOptions()
        options.paths = paths
        options.discoverySources = [reader]
        options.settings = CheckSettings(now: BundleTests.today)
        options.parallel = false
        let saved = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        return try Linter(rules: RuleRegistry.all).lint(options)
    }
}

/// `.app`, `.xcarchive` and `.ipa` products linted end to end.
final class BundleTests: XCTestCase, BundleLinting {
    static let today = PlistDate(year: 2026, month: 6, day: 1, hour: 0, minute: 0, second: 0)

    /// A signed binary: slot 5 from `body`, slot 7 the same (or `der` when given).
    static func binary(_ body: String, der: String? = nil, cpu: UInt32 = 0x0100_000c, padding: Int = 256) -> [UInt8] {
        MachOWriter(cpuType: cpu, xmlEntitlements: Plist.xml(body), derEntitlements: DERWriter.entitlements(Plist.parse(der ?? body)),
                    padding: padding).bytes()
    }

    static let appBody = """
    <key>application-identifier</key><string>ABCDE12345.com.example.App</string>
    <key>com.apple.developer.team-identifier</key><string>ABCDE12345</string>
    <key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App</string><string>ABCDE12345.com.example.shared</string></array>
    <key>get-task-allow</key><false/>
    """

    static func appProfile(expires: String = "2030-01-01T00:00:00Z") -> [UInt8] {
        Plist.profile(appID: "ABCDE12345.com.example.*", expires: expires, entitlements: """
        <key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array>
        <key>get-task-allow</key><false/><key>com.apple.developer.team-identifier</key><string>ABCDE12345</string>
        """)
    }

    /// An iOS app with a share extension, an App Clip that claims a shared group, and a watch app.
    static func family(prefix: String) -> FileMap {
        var files = ProductWriter.iOSApp(prefix, name: "App", bundleID: "com.example.App", binary: binary(appBody), profile: appProfile())
        files.merge(ProductWriter.iOSApp("\(prefix)/PlugIns/Share.appex", name: "Share", bundleID: "com.example.App.Share",
                                         binary: binary("""
                                         <key>application-identifier</key><string>ABCDE12345.com.example.App.Share</string>
                                         <key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App.Share</string><string>ABCDE12345.com.example.shared</string></array>
                                         """), profile: appProfile())) { $1 }
        files.merge(ProductWriter.iOSApp("\(prefix)/AppClips/Clip.app", name: "Clip", bundleID: "com.example.App.Clip",
                                         binary: binary("""
                                         <key>application-identifier</key><string>ABCDE12345.com.example.App.Clip</string>
                                         <key>com.apple.developer.on-demand-install-capable</key><true/>
                                         <key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App.Clip</string><string>ABCDE12345.com.example.shared</string></array>
                                         """), profile: Plist.profile(appID: "ABCDE12345.com.example.App.Clip", entitlements: """
                                         <key>com.apple.developer.on-demand-install-capable</key><true/>
                                         <key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array>
                                         """))) { $1 }
        files.merge(ProductWriter.iOSApp("\(prefix)/Watch/Watch.app", name: "Watch", bundleID: "com.example.App.watchkitapp",
                                         binary: binary("<key>application-identifier</key><string>ABCDE12345.com.example.App.watchkitapp</string>"),
                                         profile: appProfile())) { $1 }
        return files
    }


    func testIPALintsEveryNestedBundle() throws {
        let dir = try temporaryFolder()
        try ProductWriter.zip(Self.family(prefix: "Payload/App.app"), at: dir.appendingPathComponent("App.ipa"))
        let result = try lint(["App.ipa"], in: dir)
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        let app = try XCTUnwrap(result.units.first { $0.name == "App" })
        XCTAssertEqual(app.entitlementsPath, "App.ipa!Payload/App.app/App")
        XCTAssertEqual(app.bundleID?.value, "com.example.App")
        XCTAssertEqual(app.profile?.path, "App.ipa!Payload/App.app/embedded.mobileprovision")
        XCTAssertEqual(app.artifact?.entitlementsSource, .codeSignatureXML)
        XCTAssertEqual(app.artifact?.bundleKind, .app)
        XCTAssertEqual(result.units.first { $0.name == "Clip" }?.artifact?.bundleKind, .appClip)
        XCTAssertEqual(result.units.first { $0.name == "Share" }?.entitlementsPath, "App.ipa!Payload/App.app/PlugIns/Share.appex/Share")
        // The only finding: the App Clip's keychain-access-groups, located in the clip's binary, without a line.
        XCTAssertEqual(result.findings.map(\.rule), ["app-clip-access-groups"], "\(result.findings.map(\.message))")
        XCTAssertEqual(result.findings.first?.path, "App.ipa!Payload/App.app/AppClips/Clip.app/Clip")
        XCTAssertEqual(result.findings.first?.line, 0)
        XCTAssertEqual(result.findings.first?.keyPath, "keychain-access-groups")
        XCTAssertTrue(result.paths.contains("App.ipa!Payload/App.app/Watch/Watch.app/Watch"))
    }

    func testAppFolderAndArchiveGiveTheSameUnits() throws {
        let dir = try temporaryFolder()
        try ProductWriter.folder(Self.family(prefix: "Build/App.app"), at: dir)
        try ProductWriter.folder(Self.family(prefix: "App.xcarchive/Products/Applications/App.app"), at: dir)
        let app = try lint(["Build/App.app"], in: dir)
        let archive = try lint(["App.xcarchive"], in: dir)
        XCTAssertEqual(app.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        XCTAssertEqual(archive.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        XCTAssertEqual(app.findings.map(\.path), ["Build/App.app/AppClips/Clip.app/Clip"])
        XCTAssertEqual(archive.findings.map(\.path), ["App.xcarchive/Products/Applications/App.app/AppClips/Clip.app/Clip"])
    }

    func testMacOSBundleWithRestrictedEntitlementsAndNoProfile() throws {
        let dir = try temporaryFolder()
        let body = "<key>keychain-access-groups</key><array><string>ABCDE12345.com.example.Mac</string></array><key>com.apple.security.app-sandbox</key><true/>"
        try ProductWriter.folder(ProductWriter.macOSApp("Mac.app", name: "Mac", bundleID: "com.example.Mac", binary: Self.binary(body), profile: nil), at: dir)
        let result = try lint(["Mac.app"], in: dir)
        XCTAssertEqual(result.units.first?.platform, .macOS)
        XCTAssertEqual(result.findings.map(\.rule), ["macos-restricted-without-profile"])
        XCTAssertEqual(result.findings.first?.path, "Mac.app/Contents/MacOS/Mac")

        // With an embedded macOS profile that allows the group: clean.
        let profile = Plist.profile(appID: "ABCDE12345.com.example.Mac", macOS: true,
                                    entitlements: "<key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array>")
        try ProductWriter.folder(ProductWriter.macOSApp("Signed.app", name: "Mac", bundleID: "com.example.Mac", binary: Self.binary(body), profile: profile), at: dir)
        XCTAssertEqual(try lint(["Signed.app"], in: dir).findings, [])
    }

    func testSlot5AndSlot7Disagree() throws {
        let dir = try temporaryFolder()
        let binary = Self.binary(Self.appBody, der: Self.appBody.replacingOccurrences(of: "<false/>", with: "<true/>"))
        try ProductWriter.folder(ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: binary, profile: Self.appProfile()), at: dir)
        let result = try lint(["App.app"], in: dir)
        XCTAssertEqual(result.findings.map(\.rule), ["xml-der-entitlements-mismatch"])
        XCTAssertEqual(result.findings.first?.keyPath, "get-task-allow")
    }

    func testUniversalBinaryWhoseSlicesDisagree() throws {
        let dir = try temporaryFolder()
        let other = Self.appBody.replacingOccurrences(of: "ABCDE12345.com.example.shared", with: "ABCDE12345.com.example.other")
        let fat = MachOWriter.fat([(0x0100_000c, 0, Self.binary(Self.appBody)), (0x0100_0007, 3, Self.binary(other, cpu: 0x0100_0007))])
        try ProductWriter.folder(ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: fat, profile: Self.appProfile()), at: dir)
        let result = try lint(["App.app"], in: dir)
        XCTAssertEqual(result.units.first?.artifact?.architectures, ["arm64", "x86_64"])
        XCTAssertEqual(result.findings.map(\.rule), ["xml-der-entitlements-mismatch"])
        XCTAssertTrue(result.findings[0].message.contains("x86_64"), result.findings[0].message)
    }

    func testStandaloneMachOFileNamedOnTheCommandLine() throws {
        let dir = try temporaryFolder()
        let body = "<key>get-task-allow</key><true/><key>com.example.when</key><date>2025-01-01T00:00:00Z</date>"
        // A DER copy cannot hold the date: slot 7 carries only get-task-allow.
        try Data(MachOWriter(xmlEntitlements: Plist.xml(body), derEntitlements: DERWriter.entitlements(Plist.parse("<key>get-task-allow</key><true/>"))).bytes())
            .write(to: dir.appendingPathComponent("tool"))
        let result = try lint(["tool"], in: dir)
        XCTAssertEqual(result.units.first?.artifact?.bundleKind, .standaloneBinary)
        XCTAssertEqual(Set(result.findings.map(\.rule)), ["der-unencodable-value", "xml-der-entitlements-mismatch"])
        XCTAssertTrue(result.findings.allSatisfy { $0.path == "tool" })
    }

    func testEmbeddedProfileRulesRunOnTheProduct() throws {
        let dir = try temporaryFolder()
        // The App Store profile expired, the binary is debuggable, and its DER copy is damaged.
        var profile = Self.appProfile(expires: "2026-01-01T00:00:00Z")
        let text = String(decoding: profile, as: UTF8.self).replacingOccurrences(of: "<key>Name</key>", with: "<key>DER-Encoded-Profile</key><data>MIIBAAYJ</data><key>Name</key>")
        profile = Array(text.utf8)
        let body = Self.appBody.replacingOccurrences(of: "<false/>", with: "<true/>")
        try ProductWriter.zip(ProductWriter.iOSApp("Payload/App.app", name: "App", bundleID: "com.example.App", binary: Self.binary(body), profile: profile),
                              at: dir.appendingPathComponent("App.ipa"))
        let result = try lint(["App.ipa"], in: dir)
        let byRule = Dictionary(grouping: result.findings, by: \.rule)
        XCTAssertEqual(Set(byRule.keys), ["profile-expired", "profile-der-mismatch", "get-task-allow-in-distribution"], "\(result.findings.map(\.message))")
        XCTAssertEqual(byRule["profile-expired"]?.first?.path, "App.ipa!Payload/App.app/embedded.mobileprovision")
        XCTAssertEqual(byRule["get-task-allow-in-distribution"]?.first?.path, "App.ipa!Payload/App.app/App")
    }

    func testProfileOfAnotherAppIsReported() throws {
        let dir = try temporaryFolder()
        let other = Plist.profile(appID: "ABCDE12345.com.example.Other", entitlements: "<key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array><key>get-task-allow</key><false/><key>com.apple.developer.team-identifier</key><string>ABCDE12345</string>")
        let body = "<key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App</string></array>"
        try ProductWriter.folder(ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: Self.binary(body), profile: other), at: dir)
        let result = try lint(["App.app"], in: dir)
        XCTAssertEqual(result.findings.map(\.rule), ["profile-app-id-mismatch"])
        XCTAssertTrue(result.findings[0].message.contains("CFBundleIdentifier"), result.findings[0].message)
    }

    func testSimulatorBuildEntitlementsSection() throws {
        let dir = try temporaryFolder()
        let sim = MachOWriter(cpuType: 0x0100_0007, simulatorEntitlements: Plist.xml(Self.appBody), signed: false).bytes()
        try ProductWriter.folder(ProductWriter.iOSApp("Sim.app", name: "Sim", bundleID: "com.example.App", binary: sim, profile: nil), at: dir)
        let result = try lint(["Sim.app"], in: dir)
        XCTAssertEqual(result.units.first?.artifact?.entitlementsSource, .simulatorSection)
        XCTAssertEqual(result.units.first?.artifact?.isSigned, false)
        XCTAssertEqual(result.findings, [])
    }

    func testBigExecutableInADeflatedIPAStreamsOnce() throws {
        let dir = try temporaryFolder()
        // 6 MB of code-like filler before the signature: many inflate chunks.
        let big = Self.binary(Self.appBody, padding: 6 << 20)
        try ProductWriter.zip(ProductWriter.iOSApp("Payload/App.app", name: "App", bundleID: "com.example.App", binary: big, profile: Self.appProfile()),
                              at: dir.appendingPathComponent("Big.ipa"))
        let storage = try ZipStorage(path: dir.appendingPathComponent("Big.ipa").path, shownRoot: "Big.ipa")
        let file = try storage.machO("Payload/App.app/App", maxBlob: 1 << 20)
        XCTAssertEqual(file.slices.first?.xmlEntitlements, Plist.xml(Self.appBody))
        let fat = MachOWriter.fat([(0x0100_000c, 0, big), (0x0100_0007, 3, Self.binary(Self.appBody, cpu: 0x0100_0007, padding: 3 << 20))])
        try ProductWriter.zip(["Payload/F.app/F": fat], at: dir.appendingPathComponent("Fat.ipa"))
        let fatFile = try ZipStorage(path: dir.appendingPathComponent("Fat.ipa").path, shownRoot: "Fat.ipa").machO("Payload/F.app/F", maxBlob: 1 << 20)
        XCTAssertEqual(fatFile.slices.map(\.architecture), ["arm64", "x86_64"])
        XCTAssertTrue(fatFile.slices.allSatisfy { $0.xmlEntitlements == Plist.xml(Self.appBody) })
    }
}
