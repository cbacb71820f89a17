import Foundation
import XCTest
import PropertyList
@testable import Provisioning

/// Every real profile in `shared/corpus/profiles/` (see `shared/corpus/SOURCES.md`) decodes,
/// except the known junk files, which fail with a clear error. Facts asserted below were read
/// with `openssl cms -verify -noverify -inform DER -in FILE`.
final class CorpusProfileTests: XCTestCase {
    /// `<package root>/../shared/corpus/profiles`, found from this file's path.
    static var profilesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // ProvisioningTests
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // package root
            .deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/profiles")
    }

    /// Files that are not profiles at all, and the error each must get.
    static let knownJunk: [String: ProfileError.Code] = [
        "fastlane__fastlane__gym__spec__fixtures__dummy.mobileprovision": .empty,          // 0 bytes
        "apperian__isign__tests__credentials__test.mobileprovision": .notCMS,             // "Dummy file..."
        "bazelbuild__rules_apple__test__starlark_tests__resources__bogus.mobileprovision": .notCMS,   // "BOGUS BOGUS"
    ]

    func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let dir = Self.profilesDirectory
        guard FileManager.default.fileExists(atPath: dir.path) else {
            throw XCTSkip("corpus not found at \(dir.path) (expected ../shared/corpus next to the package)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }

    func profile(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> ProvisioningProfile {
        let data = try Data(contentsOf: Self.profilesDirectory.appendingPathComponent(name))
        do {
            return try ProfileDecoder.decode(Array(data))
        } catch {
            XCTFail("\(name): \(error.code): \(error)", file: file, line: line)
            throw error
        }
    }

    func testEveryCorpusProfileDecodesOrIsKnownJunk() throws {
        let files = try corpus()
        XCTAssertGreaterThanOrEqual(files.count, 77)
        var decoded = 0
        var envelopes: [ProfileEnvelope: Int] = [:]
        for (name, bytes) in files {
            do {
                let p = try ProfileDecoder.decode(bytes)
                XCTAssertNil(Self.knownJunk[name], "\(name) is known junk but decoded")
                XCTAssertNotNil(p.uuid, name)
                XCTAssertFalse(p.teamIdentifiers.isEmpty, name)
                XCTAssertFalse(p.entitlements.isEmpty, name)
                XCTAssertNotNil(p.applicationIdentifier, name)
                if p.envelope != .plainPlist || p.document.format == .xml {
                    XCTAssertTrue(p.entitlementsLocation.isKnown, name)
                }
                decoded += 1
                envelopes[p.envelope, default: 0] += 1
            } catch {
                guard let expected = Self.knownJunk[name] else {
                    XCTFail("\(name): \(error.code): \(error)")
                    continue
                }
                XCTAssertEqual(error.code, expected, "\(name): \(error)")
                XCTAssertFalse(error.reason.isEmpty, name)
            }
        }
        XCTAssertEqual(decoded, files.count - Self.knownJunk.count)
        // SOURCES.md: three self-signed fixtures are BER (`30 80`); Apple's and isign's are DER.
        XCTAssertEqual(envelopes[.ber], 3)
        XCTAssertEqual(envelopes[.der], 54)
        XCTAssertEqual(envelopes[.plainPlist], 17)
        print("corpus: \(decoded) of \(files.count) profiles decoded; envelopes \(envelopes); \(Self.knownJunk.count) junk")
    }

    func testJunkFilesGetClearReasons() throws {
        _ = try corpus()
        let e = try XCTUnwrap(decodeError("apperian__isign__tests__credentials__test.mobileprovision"))
        XCTAssertEqual(e.reason, "not a CMS SignedData profile nor a property list: starts with 'Dummy fi...'")
        XCTAssertEqual(decodeError("fastlane__fastlane__gym__spec__fixtures__dummy.mobileprovision")?.code, .empty)
        let bogus = try XCTUnwrap(decodeError("bazelbuild__rules_apple__test__starlark_tests__resources__bogus.mobileprovision"))
        XCTAssertTrue(bogus.reason.contains("'BOGUS BO...'"), bogus.reason)
    }

    func decodeError(_ name: String) -> ProfileError? {
        guard let data = try? Data(contentsOf: Self.profilesDirectory.appendingPathComponent(name)) else { return nil }
        do {
            _ = try ProfileDecoder.decode(Array(data))
            return nil
        } catch {
            return error
        }
    }

    func testCalabashLJSPrefixDiffersFromTeam() throws {
        _ = try corpus()
        let p = try profile("calabash__iOSDeviceManager__Tests__Resources__profiles__LJS@7dcd8aa.mobileprovision")
        XCTAssertEqual(p.envelope, .der)
        XCTAssertEqual(p.applicationIdentifierPrefixes, ["Y54WEA9F74"])
        XCTAssertEqual(p.teamIdentifiers, ["7S6YLL52WH"])
        XCTAssertEqual(p.name, "LJS Development Profile")
        XCTAssertEqual(p.uuid, "3cb998e3-1742-44be-b6b0-2169362e3192")
        XCTAssertEqual(p.teamName, "Joshua Moody")
        XCTAssertEqual(p.appIDName, "Xcode: Wildcard AppID")
        XCTAssertEqual(p.creationDate, PlistDate(year: 2017, month: 4, day: 5, hour: 15, minute: 52, second: 18))
        XCTAssertEqual(p.expirationDate, PlistDate(year: 2018, month: 4, day: 5, hour: 15, minute: 52, second: 18))
        XCTAssertEqual(p.deviceCount, 16)
        XCTAssertEqual(p.applicationIdentifier, "Y54WEA9F74.*")
        XCTAssertEqual(p.kind, .development)
        XCTAssertEqual(p.entitlementsLocation.line, 22)
        XCTAssertEqual(p.entitlements["keychain-access-groups"]?.stringArray, ["Y54WEA9F74.*"])
    }

    func testVeryLongProfileWithThreeByteLength() throws {
        _ = try corpus()
        let p = try profile("calabash__iOSDeviceManager__Tests__Resources__profiles__very-long-profile.mobileprovision")
        XCTAssertEqual(p.envelope, .der)
        XCTAssertEqual(p.deviceCount, 83)
        XCTAssertEqual(p.applicationIdentifier, "58LM7J37Q8.app.group.xam.app-cal")
    }

    func testSelfSignedBERProfileDecodes() throws {
        _ = try corpus()
        let p = try profile("juri__ProvisionInfo__Tests__ProvisionInfoKitTests__Resources__TestProfile.mobileprovision")
        XCTAssertEqual(p.envelope, .ber)
        XCTAssertEqual(p.teamIdentifiers, ["SELFSIGNED"])
        XCTAssertEqual(p.uuid, "73ECBC99-16D4-4685-961A-2051D6BAEF24")
        XCTAssertEqual(p.name, "DO NOT USE: only for dummy signing")
        XCTAssertEqual(p.deviceCount, 1)
        XCTAssertEqual(p.kind, .adHoc)   // one device, get-task-allow false
        let swiftlane = try profile("swiftlane-code__Swiftlane__Tests__ProvisioningTests__Stubs__match_AppStore_com.fakecompany.app.mobileprovision")
        XCTAssertEqual(swiftlane.envelope, .ber)
        XCTAssertEqual(swiftlane.kind, .appStore)
        XCTAssertEqual(swiftlane.isXcodeManaged, false)
        XCTAssertEqual(swiftlane.applicationIdentifier, "ABCDEFGHKL.com.fakecompany.app")
    }

    func testBazelPlainPlists() throws {
        _ = try corpus()
        let ios = try profile("bazelbuild__rules_apple__test__testdata__provisioning__integration_testing_ios@3b113e2.mobileprovision")
        XCTAssertEqual(ios.envelope, .plainPlist)
        XCTAssertEqual(ios.teamIdentifiers, ["FOOBARBAZ1"])
        XCTAssertEqual(ios.kind, .development)   // empty ProvisionedDevices + get-task-allow true
        let mac = try profile("bazelbuild__rules_apple__test__testdata__provisioning__integration_testing_macos@376548b.provisionprofile")
        XCTAssertEqual(mac.envelope, .plainPlist)
        XCTAssertTrue(mac.isMacOS)
        XCTAssertEqual(mac.platforms, ["macOS"])
        let spaceship = try profile("fastlane__fastlane__spaceship__spec__portal__fixtures__downloaded_provisioning_profile.mobileprovision")
        XCTAssertEqual(spaceship.envelope, .plainPlist)
    }

    func testBazelPlistWithDoubleHyphenInACommentDecodes() throws {
        // "--define=..." inside <!-- -->: not well-formed XML 1.0, but CoreFoundation reads it.
        _ = try corpus()
        let p = try profile("bazelbuild__rules_apple__test__testdata__provisioning__integration_testing@0bfb9bd.mobileprovision")
        XCTAssertEqual(p.envelope, .plainPlist)
        XCTAssertEqual(p.teamIdentifiers, ["FOOBARBAZ1"])
    }

    func testKindsOfAppleSignedProfiles() throws {
        _ = try corpus()
        XCTAssertEqual(try profile("fastlane__fastlane__fastlane__spec__fixtures__profiles__test.mobileprovision").kind, .appStore)
        XCTAssertEqual(try profile("calabash__iOSDeviceManager__Tests__Resources__profiles__CalabashWildcardAdHocDistribution.mobileprovision").kind, .adHoc)
        XCTAssertEqual(try profile("calabash__iOSDeviceManager__Tests__Resources__profiles__PalisadeDevelopment@ef3f5c7.mobileprovision").kind, .development)
        let mac = try profile("fastlane__fastlane__match__spec__fixtures__test.provisionprofile")
        XCTAssertTrue(mac.isMacOS)
        XCTAssertEqual(mac.kind, .appStore)
        XCTAssertEqual(mac.applicationIdentifier, "439BBM9367.tools.fastlane.app")
    }
}

/// A real profile truncated at every byte is refused with a clear error each time.
final class TruncatedRealProfileTests: XCTestCase {
    func testTruncationAtEveryByteOfARealProfile() throws {
        let dir = CorpusProfileTests.profilesDirectory
        guard FileManager.default.fileExists(atPath: dir.path) else {
            throw XCTSkip("corpus not found at \(dir.path) (expected ../shared/corpus next to the package)")
        }
        // The smallest Apple-signed profile of the corpus that decodes.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".mobileprovision") }
        let decodable = names.compactMap { name -> [UInt8]? in
            guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else { return nil }
            let bytes = Array(data)
            guard bytes.first == 0x30, (try? ProfileDecoder.decode(bytes)) != nil else { return nil }
            return bytes
        }
        let bytes = try XCTUnwrap(decodable.min { $0.count < $1.count })
        XCTAssertGreaterThan(bytes.count, 3_000)
        for n in 0..<bytes.count {
            do {
                _ = try ProfileDecoder.decode(Array(bytes.prefix(n)))
                XCTFail("a profile cut after \(n) of \(bytes.count) bytes was accepted")
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "prefix \(n)")
            }
        }
    }
}
