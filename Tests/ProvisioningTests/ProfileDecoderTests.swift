import XCTest
import PropertyList
@testable import Provisioning

/// `ProfileDecoder.decode`: envelopes, fields, kinds, and the plist-level failures.
final class ProfileDecoderTests: XCTestCase {
    func decode(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> ProvisioningProfile? {
        do {
            return try ProfileDecoder.decode(bytes)
        } catch {
            XCTFail("unexpected error: \(error.code): \(error)", file: file, line: line)
            return nil
        }
    }

    func assertThrows(_ bytes: [UInt8], _ code: ProfileError.Code, reasonContains: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) -> ProfileError? {
        do {
            _ = try ProfileDecoder.decode(bytes)
            XCTFail("expected \(code)", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.code, code, "reason: \(error.reason)", file: file, line: line)
            if let reasonContains {
                XCTAssertTrue(error.reason.contains(reasonContains), "reason: \(error.reason)", file: file, line: line)
            }
            return error
        }
    }

    // MARK: - Fields

    func testDERProfileFieldsAreRead() throws {
        let fixture = ProfileFixture()
        let p = try XCTUnwrap(decode(CMSBuilder(content: fixture.bytes).der()))
        XCTAssertEqual(p.envelope, .der)
        XCTAssertEqual(p.name, "Entitlint Test Profile")
        XCTAssertEqual(p.uuid, "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        XCTAssertEqual(p.appIDName, "Entitlint Wildcard")
        XCTAssertEqual(p.teamName, "Entitlint Tests")
        XCTAssertEqual(p.teamIdentifiers, ["ABCDE12345"])
        XCTAssertEqual(p.applicationIdentifierPrefixes, ["PFX1234567"])
        XCTAssertEqual(p.platforms, ["iOS"])
        XCTAssertEqual(p.creationDate, PlistDate(year: 2024, month: 3, day: 1, hour: 12, minute: 34, second: 56))
        XCTAssertEqual(p.expirationDate, PlistDate(year: 2025, month: 3, day: 1, hour: 12, minute: 34, second: 56))
        XCTAssertEqual(p.isXcodeManaged, false)
        XCTAssertEqual(p.provisionedDevices, ["00008030-001A2B3C4D5E6F70", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"])
        XCTAssertEqual(p.deviceCount, 2)
        XCTAssertFalse(p.provisionsAllDevices)
        XCTAssertEqual(p.entitlements["keychain-access-groups"]?.stringArray, ["PFX1234567.*", "com.apple.token"])
        XCTAssertEqual(p.entitlements["get-task-allow"]?.bool, true)
        XCTAssertEqual(p.applicationIdentifier, "PFX1234567.com.example.*")
        XCTAssertFalse(p.isMacOS)
        XCTAssertEqual(p.kind, .development)
        XCTAssertEqual(p.document.root.dict?["Version"]?.integer, .signed(1))
        let dictLine = ProfileFixture.line(of: "\t<dict>", after: "<key>Entitlements</key>", in: fixture.xml)
        XCTAssertEqual(p.entitlementsLocation.line, dictLine)
        XCTAssertNotNil(dictLine)
    }

    func testBERIndefiniteChunkedProfileDecodesToTheSameFieldsAsDER() throws {
        let fixture = ProfileFixture()
        var der = try XCTUnwrap(decode(CMSBuilder(content: fixture.bytes).der()))
        for chunk in [1, 13, 256, 100_000] {
            let blob = CMSBuilder(content: fixture.bytes).ber(chunkSize: chunk)
            let ber = try XCTUnwrap(decode(blob))
            XCTAssertEqual(ber.envelope, .ber)
            der.envelope = .ber
            XCTAssertEqual(ber, der, "chunk size \(chunk)")
        }
    }

    func testPlainPlistHasPlainPlistEnvelopeAndTheSameFields() throws {
        let fixture = ProfileFixture()
        let plain = try XCTUnwrap(decode(fixture.bytes))
        var der = try XCTUnwrap(decode(CMSBuilder(content: fixture.bytes).der()))
        XCTAssertEqual(plain.envelope, .plainPlist)
        der.envelope = .plainPlist
        XCTAssertEqual(plain, der)
    }

    func testPlainPlistAfterBOMOrWhitespaceIsAPlist() throws {
        let bytes = ProfileFixture().bytes
        XCTAssertEqual(decode([0xEF, 0xBB, 0xBF] + bytes)?.envelope, .plainPlist)
        XCTAssertEqual(decode(Array("\n  <plist><dict><key>UUID</key><string>u</string></dict></plist>".utf8))?.envelope, .plainPlist)
    }

    func testMissingKeysAreTolerated() throws {
        let xml = "<plist><dict><key>UUID</key><string>abc</string></dict></plist>"
        let p = try XCTUnwrap(decode(Array(xml.utf8)))
        XCTAssertEqual(p.uuid, "abc")
        XCTAssertNil(p.name)
        XCTAssertEqual(p.teamIdentifiers, [])
        XCTAssertEqual(p.platforms, [])
        XCTAssertNil(p.creationDate)
        XCTAssertNil(p.isXcodeManaged)
        XCTAssertTrue(p.entitlements.isEmpty)
        XCTAssertEqual(p.entitlementsLocation, .unknown)
        XCTAssertNil(p.applicationIdentifier)
        XCTAssertEqual(p.kind, .appStore)
    }

    func testWrongTypedKnownKeysAreIgnoredNotFatal() throws {
        let xml = """
        <plist><dict>
        <key>Name</key><integer>7</integer>
        <key>TeamIdentifier</key><string>ABCDE12345</string>
        <key>Platform</key><array><string>iOS</string><integer>1</integer></array>
        <key>CreationDate</key><string>2024-01-01</string>
        <key>ProvisionsAllDevices</key><string>yes</string>
        <key>IsXcodeManaged</key><integer>1</integer>
        <key>Entitlements</key><array/>
        </dict></plist>
        """
        let p = try XCTUnwrap(decode(Array(xml.utf8)))
        XCTAssertNil(p.name)
        XCTAssertEqual(p.teamIdentifiers, [])
        XCTAssertEqual(p.platforms, ["iOS"])
        XCTAssertNil(p.creationDate)
        XCTAssertFalse(p.provisionsAllDevices)
        XCTAssertNil(p.isXcodeManaged)
        XCTAssertTrue(p.entitlements.isEmpty)
        XCTAssertEqual(p.entitlementsLocation, .unknown)
    }

    func testDuplicateKeyLastOneWins() throws {
        let xml = "<plist><dict><key>UUID</key><string>first</string><key>UUID</key><string>second</string></dict></plist>"
        XCTAssertEqual(decode(Array(xml.utf8))?.uuid, "second")
    }

    func testMacOSUsesComAppleApplicationIdentifier() throws {
        var fixture = ProfileFixture()
        fixture.platforms = ["OSX"]
        fixture.applicationIdentifierKey = "com.apple.application-identifier"
        let p = try XCTUnwrap(decode(CMSBuilder(content: fixture.bytes).der()))
        XCTAssertTrue(p.isMacOS)
        XCTAssertEqual(p.applicationIdentifier, "PFX1234567.com.example.*")
        fixture.platforms = ["macOS"]
        XCTAssertEqual(decode(fixture.bytes)?.isMacOS, true)
    }

    // MARK: - Kind (keychain-access-groups.md section 3)

    func testKindHeuristic() throws {
        struct Case { var devices: [String]?; var all: Bool?; var gta: Bool?; var platform: String; var kind: ProfileKind }
        let cases: [Case] = [
            Case(devices: ["d1"], all: nil, gta: true, platform: "iOS", kind: .development),
            Case(devices: [], all: nil, gta: true, platform: "iOS", kind: .development),   // rules_apple fakes
            Case(devices: ["d1"], all: nil, gta: false, platform: "iOS", kind: .adHoc),
            Case(devices: nil, all: nil, gta: false, platform: "iOS", kind: .appStore),
            Case(devices: nil, all: false, gta: false, platform: "OSX", kind: .appStore),
            Case(devices: nil, all: true, gta: false, platform: "iOS", kind: .enterprise),
            Case(devices: nil, all: true, gta: false, platform: "OSX", kind: .developerID),
            Case(devices: ["d1"], all: nil, gta: nil, platform: "iOS", kind: .unknown),
        ]
        for c in cases {
            var f = ProfileFixture()
            f.devices = c.devices
            f.provisionsAllDevices = c.all
            f.getTaskAllow = c.gta
            f.platforms = [c.platform]
            XCTAssertEqual(decode(CMSBuilder(content: f.bytes).der())?.kind, c.kind, "\(c)")
        }
    }

    func testKindRawValuesAreStable() {
        XCTAssertEqual(ProfileKind.allCases.map(\.rawValue),
                       ["development", "ad-hoc", "app-store", "enterprise", "developer-id", "unknown"])
    }

    // MARK: - Failures

    func testEmptyFileIsEmpty() {
        _ = assertThrows([], .empty)
    }

    func testJunkIsNotCMSWithAClearReason() {
        let e = assertThrows(Array("Dummy file for testing".utf8), .notCMS)
        XCTAssertEqual(e?.reason, "not a CMS SignedData profile nor a property list: starts with 'Dummy fi...'")
    }

    func testShortBinaryJunkIsQuotedInHex() {
        let e = assertThrows([0x01, 0xFF, 0x41], .notCMS)
        XCTAssertEqual(e?.reason, "not a CMS SignedData profile nor a property list: starts with '\\x01\\xFFA'")
    }

    func testRootArrayIsNotAProfile() {
        _ = assertThrows(Array("<plist><array><string>x</string></array></plist>".utf8), .notAProfile, reasonContains: "an array")
    }

    func testRootArrayInsideCMSIsNotAProfile() {
        _ = assertThrows(CMSBuilder("<plist><array/></plist>").ber(), .notAProfile)
    }

    func testEntitlementsFileIsNotAProfile() {
        let xml = "<plist><dict><key>keychain-access-groups</key><array><string>A.b</string></array></dict></plist>"
        _ = assertThrows(Array(xml.utf8), .notAProfile, reasonContains: "\"keychain-access-groups\"")
        _ = assertThrows(Array("<plist><dict/></plist>".utf8), .notAProfile, reasonContains: "empty")
    }

    func testInvalidPlistInsideCMSReportsItsLine() {
        let xml = "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>UUID</key>\n<bogus/>\n</dict>\n</plist>\n"
        let e = assertThrows(CMSBuilder(xml).der(), .invalidPlist, reasonContains: "inside the CMS")
        XCTAssertEqual(e?.location.line, 5)
        XCTAssertTrue(e?.description.hasPrefix("line 5: ") ?? false, e?.description ?? "")
    }

    func testBinaryPlistMagicGoesToThePlistReaderNotNotCMS() {
        _ = assertThrows(Array("bplist00 and then nothing sensible".utf8), .invalidPlist)
    }

    func testHTMLErrorPageIsAnInvalidPlist() {
        _ = assertThrows(Array("<html><body>404</body></html>".utf8), .invalidPlist)
    }

    func testFileOverTheSizeLimitIsRejected() {
        let blob = CMSBuilder(content: ProfileFixture().bytes).der()
        XCTAssertThrowsError(try ProfileDecoder.decode(blob, limits: PlistLimits(maxBytes: 1000))) { error in
            XCTAssertEqual((error as? ProfileError)?.code, .malformedCMS)
        }
    }

    func testTruncationAtEveryByteOfAProfileThrows() {
        let bytes = ProfileFixture().bytes
        for blob in [CMSBuilder(content: bytes).der(), CMSBuilder(content: bytes).ber(chunkSize: 200)] {
            for n in 0..<blob.count {
                XCTAssertThrowsError(try ProfileDecoder.decode(Array(blob.prefix(n))), "prefix \(n)")
            }
        }
    }

    func testErrorEqualityIsOnCodeOnly() {
        XCTAssertEqual(ProfileError(.notCMS, "a"), ProfileError(.notCMS, "b", at: SourceLocation(line: 3, column: 1)))
        XCTAssertNotEqual(ProfileError(.notCMS, "a"), ProfileError(.empty, "a"))
    }

    func testMemberwiseInitDerivesKindAndApplicationIdentifier() {
        var ents = PlistDictionary()
        ents.append(.init(key: "com.apple.application-identifier", keyLocation: .unknown, value: PlistNode(.string("T.x"))))
        ents.append(.init(key: "get-task-allow", keyLocation: .unknown, value: PlistNode(.bool(true))))
        let p = ProvisioningProfile(platforms: ["OSX"], provisionedDevices: ["d"], entitlements: ents)
        XCTAssertTrue(p.isMacOS)
        XCTAssertEqual(p.applicationIdentifier, "T.x")
        XCTAssertEqual(p.kind, .development)
    }
}
