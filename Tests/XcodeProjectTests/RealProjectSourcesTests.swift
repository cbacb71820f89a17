import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList
@testable import XcodeProject

/// Facts of the real projects: what their units compile and read from their Info.plist.
final class RealProjectSourcesTests: XCTestCase, UnitSourcesTesting {
    func realSources(_ folder: String, _ unit: String) throws -> UnitSources {
        guard FileManager.default.fileExists(atPath: RealProjectsTests.projects.path) else {
            throw XCTSkip("../shared/projects is absent: real-project test skipped")
        }
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let here = RealProjectsTests.projects.appendingPathComponent(folder).path
        _ = FileManager.default.changeCurrentDirectoryPath(here)
        var s = try sources(try Fixture.lint(["."]), unit)
        // Files are absolute with symbolic links resolved (the shared folder may be reached through one).
        let resolved = URL(fileURLWithPath: here).resolvingSymlinksInPath().path
        s.files = s.files.map { file in
            for root in [resolved, here] where file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
            return file
        }
        return s
    }

    func testProtonVPNiOSAppCompilesItsDependencyContainerAndReadsThePrefixFromItsInfoPlist() throws {
        let s = try realSources("ProtonVPN+ios-mac-app", "ProtonVPN (Release)")
        XCTAssertTrue(s.files.contains("apps/ios/ProtonVPN/Scenes/Common/Supporting Files/DependencyContainer.swift"), "\(s.files)")
        XCTAssertEqual(s.infoPlistPath, "apps/ios/ProtonVPN/Info.plist")
        XCTAssertEqual(s.infoPlist["AppIdentifierPrefix"], "$(AppIdentifierPrefix)")
        // Its local packages (LegacyCommon, ...) are folders of the workspace whose Package.swift
        // the copy does not hold: missing, and KeychainActor.swift (VPNShared, in NEHelper) not listed.
        XCTAssertTrue(s.missing.contains("libraries/LegacyCommon/Package.swift"), "\(s.missing.filter { $0.hasSuffix("Package.swift") })")
        XCTAssertFalse(s.files.contains { $0.contains("KeychainActor.swift") })
        XCTAssertTrue(s.unscanned.contains("remote Swift package Alamofire"), "\(s.unscanned)")
        // Most of what the target compiles is not in the copy.
        XCTAssertGreaterThan(s.missing.count, 100)
    }

    func testElementRiotReadsTheSharedKeychainGroupFromItsInfoPlist() throws {
        let s = try realSources("element-hq+element-ios", "Riot (Release)")
        XCTAssertEqual(s.infoPlistPath, "Riot/SupportingFiles/Info.plist")
        XCTAssertEqual(s.infoPlist["keychainAccessGroup"], "$(AppIdentifierPrefix)im.vector.app.keychain.shared")
        XCTAssertTrue(s.files.contains("Riot/Managers/KeyValueStorage/KeychainStore.swift"), "\(s.files)")
        XCTAssertTrue(s.files.contains("Config/BuildSettings.swift"), "\(s.files)")
    }

    func testMetatextAndThreemaLocalPackagesAreFoundThoughTheirManifestsAreAbsent() throws {
        // Metatext's app links ViewModels (a local package whose manifest brings in Keychain);
        // the copy holds no Package.swift, so what they compile is missing, not guessed.
        let metatext = try realSources("metabolist+metatext", "Metatext (Release)")
        XCTAssertTrue(metatext.missing.contains("ViewModels/Package.swift"), "\(metatext.missing)")
        XCTAssertFalse(metatext.isComplete)
        let threema = try realSources("threema-ch+threema-ios", "Threema (AppStore)")
        XCTAssertTrue(threema.missing.contains("GroupCalls/Package.swift"), "\(threema.missing)")
        XCTAssertTrue(threema.unscanned.contains("remote Swift package CocoaLumberjack"), "\(threema.unscanned)")
    }

    func testThreemaAppAndExtensionsRunTheCodeOfThreemaFramework() throws {
        // KKKeychain.m is compiled by ThreemaFramework only, which the app links and embeds and
        // each extension links: its keychain calls run with their entitlements.
        for unit in ["Threema (AppStore)", "Threema ShareExtension (AppStore)", "Threema NotificationExtension (AppStore)"] {
            let s = try realSources("threema-ch+threema-ios", unit)
            XCTAssertTrue(s.files.contains("ThreemaFramework/Vendor/KKPasscodeLock/KKKeychain.m"), "\(unit): \(s.files)")
            // ThreemaFramework links the local package Keychain, whose manifest the copy lacks.
            XCTAssertTrue(s.missing.contains("Keychain/Package.swift"), "\(unit): \(s.missing.filter { $0.hasSuffix("Package.swift") })")
        }
    }
}
