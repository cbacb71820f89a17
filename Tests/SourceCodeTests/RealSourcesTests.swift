import Foundation
import XCTest
import SourceCode

/// Scans every `.swift`, `.m`, `.mm` and `.h` file of the real projects in `../shared/projects`
/// and pins what is found in files that show each idiom.
final class RealSourcesTests: XCTestCase {
    static let projects = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/projects")

    private func scanned(_ path: String) throws -> ScannedSource {
        let url = Self.projects.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: Self.projects.path) else {
            throw XCTSkip("../shared/projects is absent: real-project test skipped")
        }
        let bytes = try [UInt8](Data(contentsOf: url))
        return SourceScanner.scan(bytes, language: try XCTUnwrap(SourceLanguage(path: path)))
    }

    private func resolved(_ paths: [String], infoPlist: [String: String] = [:]) throws -> [String: [ResolvedString]] {
        let files = try paths.map { (path: $0, source: try scanned($0)) }
        let resolver = StringResolver(files: files, infoPlist: infoPlist)
        var out: [String: [ResolvedString]] = [:]
        for file in files { out[file.path] = file.source.groups.map { resolver.resolve($0.value, in: file.path, line: $0.line) } }
        return out
    }

    func testEverySourceFileScans() throws {
        // An enumerator of a missing folder enumerates nothing on Linux instead of failing.
        guard FileManager.default.fileExists(atPath: Self.projects.path) else {
            throw XCTSkip("../shared/projects is absent: real-project test skipped")
        }
        guard let walker = FileManager.default.enumerator(atPath: Self.projects.path) else { throw XCTSkip("no projects") }
        var files = 0, groups = 0, saves = 0
        while let path = walker.nextObject() as? String {
            guard SourceLanguage(path: path) != nil else { continue }
            let result = try scanned(path)
            files += 1
            groups += result.groups.count
            saves += result.saves.count
        }
        // Pinned on the 62 projects of ../shared/projects (SOURCES.md): a change is a scanner change.
        XCTAssertEqual(files, 413)
        XCTAssertEqual(groups, 104)
        XCTAssertEqual(saves, 34)
    }

    func testProtonVPN() throws {
        let actor = try scanned("ProtonVPN+ios-mac-app/libraries/NEHelper/Sources/VPNShared/Authentication/KeychainActor.swift")
        XCTAssertEqual(actor.groups, [KeychainGroupSite(line: 28, column: 59, api: "KeychainAccess Keychain(accessGroup:)", value: .unknown("parameter accessGroup"))])
        XCTAssertEqual(actor.saves.map(\.line), [34])
        let container = "ProtonVPN+ios-mac-app/apps/ios/ProtonVPN/Scenes/Common/Supporting Files/DependencyContainer.swift"
        let result = try resolved([container], infoPlist: ["AppIdentifierPrefix": "2SB5Z68H26."])
        XCTAssertEqual(result[container]?.map(\.value), ["2SB5Z68H26.prt.ProtonVPN"])
        XCTAssertEqual(result[container]?.map(\.usesInfoPlist), [true])
        let keychain = "ProtonVPN+ios-mac-app/libraries/WireguardExtension/WG/Shared/Keychain.swift"
        let wireguard = try scanned(keychain)
        XCTAssertEqual(wireguard.groups.map(\.value), [.reference(["FileManager", "appGroupId"])])
        XCTAssertEqual(wireguard.saves, [], "one query gets a group below its literal, the other comes from a helper")
        // FileManager.appGroupId is a computed property with a return per platform: two possible
        // values, each under an `os(...)` test the build settings do not decide (no rule checks them).
        let unit = try resolved([keychain, "ProtonVPN+ios-mac-app/libraries/WireguardExtension/WG/Shared/FileManager+Extension.swift",
                                 "ProtonVPN+ios-mac-app/libraries/WireguardExtension/WGConstants.swift",
                                 "ProtonVPN+ios-mac-app/apps/ios/ProtonVPN/Scenes/Common/Constants/AppConstants.swift"])
        XCTAssertEqual(unit[keychain]?.map(\.unknown), ["one of 2 possible values"])
        XCTAssertEqual(unit[keychain]?.first?.alternatives.map(\.undecided), ["os(iOS)", "!os(iOS) && os(macOS)"])
        XCTAssertEqual(unit[keychain]?.first?.alternatives.last?.value, "Not used on mac")
    }

    func testMSALTestApp() throws {
        let acquire = try scanned("AzureAD+microsoft-authentication-library-for-objc/MSAL/test/app/ios/MSALTestAppAcquireTokenViewController.m")
        XCTAssertEqual(acquire.groups.map(\.value), [.literal("com.microsoft.ssoseeding"), .literal("com.microsoft.adalcache")])
        XCTAssertEqual(acquire.groups.map(\.api), ["MSAL keychainSharingGroup", "MSAL initWithSharedKeychainAccessGroup:"])
        let settings = try scanned("AzureAD+microsoft-authentication-library-for-objc/MSAL/test/app/ios/MSALTestAppSettingsViewController.m")
        XCTAssertEqual(settings.groups.map(\.api), ["accessGroup: argument of accessGroup"])
    }

    func testElementReadsTheGroupFromInfoPlist() throws {
        let settings = "element-hq+element-ios/Config/BuildSettings.swift"
        let store = "element-hq+element-ios/Riot/Managers/EncryptionKeyManager/EncryptionKeyManager.swift"
        let result = try resolved([settings, store], infoPlist: ["keychainAccessGroup": "7J4U792NQT.im.vector.app.keychain.shared"])
        XCTAssertEqual(result[store]?.map(\.value), ["7J4U792NQT.im.vector.app.keychain.shared"])
        XCTAssertEqual(result[store]?.first?.steps, ["BuildSettings.keychainAccessGroup (\(settings):31)", "Info.plist keychainAccessGroup"])
    }

    func testBlueWalletSavesWithoutAGroupAndSecretiveDoesNot() throws {
        let blue = try scanned("BlueWallet+BlueWallet/ios/Shared/Utilities/KeychainHelper.swift")
        XCTAssertEqual(blue.saves, [KeychainSaveSite(line: 33, column: 22, api: "SecItemAdd", dataProtectionKeychain: false)])
        XCTAssertEqual(blue.groups, [])
        let secretive = try scanned("maxgoedjen+secretive/Sources/Packages/Sources/SecureEnclaveSecretKit/SecureEnclaveStore.swift")
        XCTAssertEqual(secretive.saves, [], "the query is built by KeychainDictionary(...): unknown, so no save")
    }
}
