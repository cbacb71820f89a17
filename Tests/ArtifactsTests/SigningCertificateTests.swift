import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import Foundation
import PropertyList
import Provisioning
import XCTest
@testable import Artifacts

/// The signing certificate of a binary (the CMS signature, slot 0x10000) and the release-build
/// case of `get-task-allow-in-distribution`.
final class SigningCertificateTests: XCTestCase {
    static let today = PlistDate(year: 2026, month: 6, day: 1, hour: 0, minute: 0, second: 0)
    static let distribution = "Apple Distribution: Example Ltd (ABCDE12345)"
    static let development = "Apple Development: Jane Appleseed (FGHIJ67890)"
    static let debuggable = "<key>application-identifier</key><string>ABCDE12345.com.example.Tool</string><key>get-task-allow</key><true/>"

    static func binary(_ body: String = debuggable, cms: [UInt8]?) -> [UInt8] {
        MachOWriter(xmlEntitlements: Plist.xml(body), derEntitlements: DERWriter.entitlements(Plist.parse(body)), cmsSignature: cms).bytes()
    }

    func lint(_ paths: [String], in dir: URL) throws -> LintResult {
        var options = LintOptions()
        options.paths = paths
        options.discoverySources = [ArtifactReader()]
        options.settings = CheckSettings(now: Self.today)
        options.parallel = false
        let saved = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        return try Linter(rules: RuleRegistry.all).lint(options)
    }

    /// Lints one standalone binary named `tool`.
    func lintBinary(_ bytes: [UInt8]) throws -> LintResult {
        let dir = try temporaryFolder()
        try Data(bytes).write(to: dir.appendingPathComponent("tool"))
        return try lint(["tool"], in: dir)
    }

    // MARK: - Reading the CMS

    func testSignerIsNamedBySignerInfo() throws {
        let c = try XCTUnwrap(CodeSignatureCMS.signingCertificate(SignatureWriter.signature(cn: Self.distribution)))
        XCTAssertEqual(c.commonName, Self.distribution)
        XCTAssertEqual(c.organizationalUnit, "ABCDE12345")
        XCTAssertEqual(c.serialNumber, "12345678")
        XCTAssertEqual(c.notAfter.description, "2026-12-31T23:59:59Z")
        XCTAssertEqual(c.role, .distribution)
    }

    func testSignerInfoWinsOverTheLeafHeuristic() throws {
        // The SignerInfo names the intermediate: believe it.
        let cms = SignatureWriter.signedData(certificates: SignatureWriter.chain(cn: Self.distribution),
                                             signer: (SignatureWriter.appleRoot, 0x2a))
        XCTAssertEqual(try CodeSignatureCMS.signingCertificate(cms)?.commonName, "Apple Worldwide Developer Relations Certification Authority")
    }

    func testLeafIsFoundWithoutAMatchingSignerInfo() throws {
        for signer: (issuer: SignatureWriter.Name, serial: Int)? in [nil, (SignatureWriter.wwdr, 999)] {
            var certificates = SignatureWriter.chain(cn: Self.development)
            certificates.reverse()
            let cms = SignatureWriter.signedData(certificates: certificates, signer: signer)
            let c = try XCTUnwrap(CodeSignatureCMS.signingCertificate(cms))
            XCTAssertEqual(c.commonName, Self.development)
            XCTAssertEqual(c.role, .development)
        }
        // A lone self-signed certificate is its own leaf.
        let me = SignatureWriter.Name.person(cn: "Local Signing", ou: nil)
        let cms = SignatureWriter.signedData(certificates: [.init(serial: 1, issuer: me, subject: me)], signer: nil)
        XCTAssertEqual(try CodeSignatureCMS.signingCertificate(cms)?.role, .other)
    }

    func testAdHocAndCertificateFreeSignaturesHaveNoSigner() throws {
        XCTAssertNil(try CodeSignatureCMS.signingCertificate([]))
        XCTAssertNil(try CodeSignatureCMS.signingCertificate(SignatureWriter.signedData(certificates: [], signer: nil)))
    }

    func testRolesFromCommonNames() {
        for name in ["Apple Distribution: X (A)", "iPhone Distribution: X", "Developer ID Application: X (A)",
                     "3rd Party Mac Developer Application: X (A)", "Mac App Distribution: X"] {
            XCTAssertEqual(CertificateRole(commonName: name), .distribution, name)
        }
        for name in ["Apple Development: X (A)", "iPhone Developer: X (A)", "Mac Developer: X (A)"] {
            XCTAssertEqual(CertificateRole(commonName: name), .development, name)
        }
        for name in [nil, "Developer ID Installer: X", "Apple Root CA", "apple distribution: lower case"] {
            XCTAssertEqual(CertificateRole(commonName: name), .other, name ?? "nil")
        }
    }

    func testDamagedCMSThrowsNeverCrashes() {
        let good = SignatureWriter.signature(cn: Self.distribution)
        for n in 1..<good.count {
            XCTAssertThrowsError(try CodeSignatureCMS.signingCertificate(Array(good.prefix(n))), "\(n) bytes")
        }
        XCTAssertThrowsError(try CodeSignatureCMS.signingCertificate(Array("junk".utf8)))
        // A certificate that is not one: SEQUENCE { INTEGER 5 }.
        let lying = SignatureWriter.signedData(certificateDER: [SignatureWriter.Certificate(serial: 1, issuer: SignatureWriter.wwdr,
                                                                                            subject: SignatureWriter.wwdr).der(),
                                                                [0x30, 0x03, 0x02, 0x01, 0x05]], signer: nil)
        XCTAssertThrowsError(try CodeSignatureCMS.signingCertificate(lying)) { error in
            XCTAssertTrue("\(error)".contains("certificate 2 of the signature cannot be read"), "\(error)")
        }
        // A signature that is not SignedData at all.
        XCTAssertThrowsError(try CodeSignatureCMS.signingCertificate([0x30, 0x03, 0x02, 0x01, 0x05]))
    }

    // MARK: - The Mach-O reader

    func testReaderKeepsTheSignatureSlot() throws {
        let cms = SignatureWriter.signature(cn: Self.distribution)
        let slice = try MachOReader.read(ArrayBytes(storage: Self.binary(cms: cms)), maxBlob: 1 << 20).slices[0]
        XCTAssertEqual(slice.cmsSignature, cms)
        XCTAssertNotNil(slice.xmlEntitlements)
        XCTAssertNil(try MachOReader.read(ArrayBytes(storage: Self.binary(cms: nil)), maxBlob: 1 << 20).slices[0].cmsSignature)
        XCTAssertEqual(try MachOReader.read(ArrayBytes(storage: Self.binary(cms: [])), maxBlob: 1 << 20).slices[0].cmsSignature, [])
    }

    /// Offset of the slot-0x10000 blob in `bytes` (the last blob the writer adds).
    func signatureBlob(_ bytes: [UInt8]) -> Int {
        let start = Int(bytes.u32(32 + 8, bigEndian: false))
        let count = Int(bytes.u32(start + 8, bigEndian: true))
        return start + Int(bytes.u32(start + 12 + (count - 1) * 8 + 4, bigEndian: true))
    }

    func readError(_ bytes: [UInt8], maxBlob: Int = 1 << 20) -> ArtifactError? {
        do throws(ArtifactError) {
            return try MachOReader.read(ArrayBytes(storage: bytes), maxBlob: maxBlob).slices.compactMap(\.error).first
        } catch { return error }
    }

    func testLyingSignatureBlobs() {
        let good = Self.binary(cms: SignatureWriter.signature(cn: Self.distribution))
        let at = signatureBlob(good)
        var bytes = good
        bytes.replaceSubrange((at + 4)..<(at + 8), with: [0x7f, 0xff, 0xff, 0xff])   // length past the SuperBlob
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
        bytes = good
        bytes.replaceSubrange(at..<(at + 4), with: [0xfa, 0xde, 0x71, 0x71])   // not a blob wrapper
        XCTAssertEqual(readError(bytes)?.code, .malformed)
        XCTAssertEqual(readError(good, maxBlob: 100)?.code, .tooLarge)
        XCTAssertNil(readError(good))
    }

    // MARK: - get-task-allow-in-distribution on built binaries

    func testDistributionSignedDebuggableBinaryIsAReleaseBuildFinding() throws {
        let result = try lintBinary(Self.binary(cms: SignatureWriter.signature(cn: Self.distribution)))
        let unit = try XCTUnwrap(result.units.first)
        XCTAssertEqual(unit.artifact?.signingCertificate?.value.commonName, Self.distribution)
        XCTAssertTrue(unit.artifact?.isSignedForDistribution == true)
        let findings = result.findings.filter { $0.rule == "get-task-allow-in-distribution" }
        XCTAssertEqual(findings.count, 1, "\(result.findings)")
        let message = try XCTUnwrap(findings.first?.message)
        XCTAssertTrue(message.contains("\"\(Self.distribution)\""), message)
        XCTAssertTrue(message.contains("release build"), message)
        XCTAssertTrue(message.contains("development certificate"), message)
        XCTAssertEqual(findings.first?.path, "tool")
        XCTAssertEqual(findings.first?.keyPath, "get-task-allow")
        XCTAssertFalse(result.findings.contains { $0.rule == "parse-error" }, "\(result.findings)")
    }

    func testMacOSDeveloperIDKey() throws {
        let body = "<key>com.apple.security.get-task-allow</key><true/><key>com.apple.security.app-sandbox</key><true/>"
        let result = try lintBinary(Self.binary(body, cms: SignatureWriter.signature(cn: "Developer ID Application: Example Ltd (ABCDE12345)")))
        let findings = result.findings.filter { $0.rule == "get-task-allow-in-distribution" }
        XCTAssertEqual(findings.map(\.keyPath), ["com.apple.security.get-task-allow"], "\(result.findings)")
    }

    func testDevelopmentAdHocAndFalseAreFine() throws {
        for cms: [UInt8]? in [SignatureWriter.signature(cn: Self.development), nil, []] {
            let result = try lintBinary(Self.binary(cms: cms))
            XCTAssertFalse(result.findings.contains { $0.rule == "get-task-allow-in-distribution" }, "\(result.findings)")
            XCTAssertFalse(result.findings.contains { $0.rule == "parse-error" }, "\(result.findings)")
        }
        let noDebug = "<key>application-identifier</key><string>ABCDE12345.com.example.Tool</string><key>get-task-allow</key><false/>"
        let result = try lintBinary(Self.binary(noDebug, cms: SignatureWriter.signature(cn: Self.distribution)))
        XCTAssertEqual(result.findings.filter { $0.rule == "get-task-allow-in-distribution" }.count, 0)
    }

    func testDamagedSignatureIsAParseErrorAndTheUnitIsStillLinted() throws {
        let good = SignatureWriter.signature(cn: Self.distribution)
        let result = try lintBinary(Self.binary(cms: Array(good.prefix(good.count / 2))))
        XCTAssertEqual(result.units.count, 1)
        XCTAssertNotNil(result.units.first?.artifact?.signatureError)
        let errors = result.findings.filter { $0.rule == "parse-error" }
        XCTAssertEqual(errors.count, 1, "\(result.findings)")
        XCTAssertTrue(errors[0].message.contains("CMS signature (slot 0x10000) cannot be read"), errors[0].message)
        XCTAssertFalse(result.findings.contains { $0.rule == "get-task-allow-in-distribution" })
    }

    func testProfileAndCertificateGiveOneFinding() throws {
        let dir = try temporaryFolder()
        let body = "<key>application-identifier</key><string>ABCDE12345.com.example.App</string><key>get-task-allow</key><true/>"
        let profile = Plist.profile(appID: "ABCDE12345.com.example.App", entitlements: "<key>get-task-allow</key><false/>")   // App Store
        let binary = Self.binary(body, cms: SignatureWriter.signature(cn: Self.distribution))
        try ProductWriter.folder(ProductWriter.iOSApp("App.app", name: "App", bundleID: "com.example.App", binary: binary, profile: profile), at: dir)
        // The same in an .ipa, the executable streamed from the zip.
        try ProductWriter.zip(ProductWriter.iOSApp("Payload/App.app", name: "App", bundleID: "com.example.App", binary: binary, profile: profile),
                              at: dir.appendingPathComponent("App.ipa"))
        for product in ["App.app", "App.ipa"] {
            let result = try lint([product], in: dir)
            XCTAssertEqual(result.units.first?.artifact?.signingCertificate?.value.commonName, Self.distribution, product)
            let findings = result.findings.filter { $0.rule == "get-task-allow-in-distribution" }
            XCTAssertEqual(findings.count, 1, "\(product): \(result.findings)")
            let message = findings.first?.message ?? ""
            XCTAssertTrue(message.contains("App Store profile"), message)
            XCTAssertTrue(message.contains(Self.distribution), message)
        }
    }

    // MARK: - inspect

    func testInspectShowsTheSigningCertificate() throws {
        let dir = try temporaryFolder()
        try Data(Self.binary(cms: SignatureWriter.signature(cn: Self.distribution))).write(to: dir.appendingPathComponent("tool"))
        let i = try Inspector.inspect(dir.appendingPathComponent("tool").path, shown: "tool", now: Self.today)
        let unit = try XCTUnwrap(i.units.first)
        XCTAssertEqual(unit.signature, "distribution certificate")
        XCTAssertEqual(unit.signingCertificate?.subject, Self.distribution)
        XCTAssertEqual(unit.signingCertificate?.team, "ABCDE12345")
        XCTAssertEqual(unit.signingCertificate?.notAfter, "2026-12-31T23:59:59Z")
        XCTAssertEqual(unit.signingCertificate?.daysLeft, 213)
        let text = Inspector.text(i)
        XCTAssertTrue(text.contains("signed:        yes, distribution certificate"), text)
        XCTAssertTrue(text.contains("certificate:   \(Self.distribution), team ABCDE12345 - expires 2026-12-31T23:59:59Z (213 days left)"), text)

        let json = String(decoding: try JSONEncoder().encode(i), as: UTF8.self)
        XCTAssertTrue(json.contains("\"signingCertificate\":{"), json)
        XCTAssertTrue(json.contains("\"signature\":\"distribution certificate\""), json)
        var decoded = try JSONDecoder().decode(Inspection.self, from: Data(json.utf8))
        decoded.plist = i.plist
        XCTAssertEqual(decoded, i)

        // Ad hoc and unsigned.
        try Data(Self.binary(cms: [])).write(to: dir.appendingPathComponent("adhoc"))
        let adHoc = try Inspector.inspect(dir.appendingPathComponent("adhoc").path, shown: "adhoc", now: Self.today)
        XCTAssertEqual(adHoc.units.first?.signature, "ad hoc (no certificate)")
        XCTAssertNil(adHoc.units.first?.signingCertificate)
        try Data(MachOWriter(signed: false).bytes()).write(to: dir.appendingPathComponent("plain"))
        let plain = try Inspector.inspect(dir.appendingPathComponent("plain").path, shown: "plain", now: Self.today)
        XCTAssertEqual(plain.units.first?.signature, "unsigned")
        XCTAssertTrue(Inspector.text(plain).contains("signed:        no\n"))
    }
}
