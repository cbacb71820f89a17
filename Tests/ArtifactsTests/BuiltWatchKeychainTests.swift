import EntitlintCore
import Foundation
import XCTest
@testable import Artifacts

/// A built iPhone app whose `Watch/` app is signed with the iPhone app's keychain groups: reported
/// only when every file of the watch app was read and none mentions synchronizable items.
final class BuiltWatchKeychainTests: XCTestCase, BundleLinting {
    /// An `.ipa` of the iPhone app of `BundleTests.appBody` (groups com.example.App and
    /// com.example.shared) with a watch app signed with `watchGroups`, `extra` added to the watch
    /// app's files (by path inside it).
    func lintWatch(_ watchGroups: [String], extra: FileMap = [:], reader: ArtifactReader = ArtifactReader()) throws -> [Finding] {
        let dir = try temporaryFolder()
        var files = ProductWriter.iOSApp("Payload/App.app", name: "App", bundleID: "com.example.App",
                                         binary: BundleTests.binary(BundleTests.appBody), profile: BundleTests.appProfile())
        let groups = watchGroups.map { "<string>\($0)</string>" }.joined()
        files.merge(ProductWriter.iOSApp("Payload/App.app/Watch/Watch.app", name: "Watch", bundleID: "com.example.App.watchkitapp",
                                         binary: BundleTests.binary("""
                                         <key>application-identifier</key><string>ABCDE12345.com.example.App.watchkitapp</string>
                                         <key>keychain-access-groups</key><array>\(groups)</array>
                                         """), profile: BundleTests.appProfile())) { $1 }
        for (path, bytes) in extra { files["Payload/App.app/Watch/Watch.app/" + path] = bytes }
        try ProductWriter.zip(files, at: dir.appendingPathComponent("App.ipa"))
        return try lint(["App.ipa"], in: dir, reader: reader).findings.filter { $0.rule == "watch-shares-phone-group" }
    }

    func testAWatchAppSignedWithTheIPhoneAppsGroupsIsWarnedOncePerGroup() throws {
        let f = try lintWatch(["ABCDE12345.com.example.App.watchkitapp", "ABCDE12345.com.example.shared", "ABCDE12345.com.example.App"])
            .sorted { ($0.keyPath ?? "") < ($1.keyPath ?? "") }
        XCTAssertEqual(f.map(\.keyPath), ["keychain-access-groups[1]", "keychain-access-groups[2]"], "\(f.map(\.message))")
        XCTAssertEqual(Set(f.map(\.severity)), [.warning])
        XCTAssertEqual(f.first?.path, "App.ipa!Payload/App.app/Watch/Watch.app/Watch")
        XCTAssertEqual(f.first?.line, 0)
        XCTAssertTrue(f[0].message.hasPrefix("keychain access group \"ABCDE12345.com.example.shared\" is a keychain group of the iPhone app App.ipa!Payload/App.app, but since watchOS 2"), f[0].message)
        XCTAssertTrue(f[1].message.contains("\"ABCDE12345.com.example.App\" is a keychain group of the iPhone app"), f[1].message)
        XCTAssertTrue(f[0].message.contains("WatchConnectivity") && f[0].message.contains("kSecAttrSynchronizable"), f[0].message)
    }

    func testAWatchAppWithItsOwnGroupOnlyIsSilent() throws {
        XCTAssertEqual(try lintWatch(["ABCDE12345.com.example.App.watchkitapp"]), [])
    }

    func testAWatchAppWhoseFilesNameSynchronizableItemsIsSilent() throws {
        // A framework of the watch app that imports the symbol (as its string table names it).
        let framework = Array("\u{0}_kSecAttrSynchronizable\u{0}".utf8)
        XCTAssertEqual(try lintWatch(["ABCDE12345.com.example.shared"], extra: ["Frameworks/Keychain.framework/Keychain": framework]), [])
    }

    func testAWatchAppWithAFileTooManyToReadIsSilent() throws {
        var extra: FileMap = [:]
        for i in 0...BundleUnitReader.maxScannedFiles { extra["Assets/\(i).txt"] = [0x61] }
        XCTAssertEqual(try lintWatch(["ABCDE12345.com.example.shared"], extra: extra), [])
    }

    func testTheWordIsFoundAnywhereInAFileAndOnlyWhole() {
        XCTAssertTrue(BundleUnitReader.contains(Array("xxyynchronizable".utf8), Array("ynchronizable".utf8)))
        XCTAssertFalse(BundleUnitReader.contains(Array("ynchronizabl".utf8), Array("ynchronizable".utf8)))
        XCTAssertFalse(BundleUnitReader.contains([], Array("ynchronizable".utf8)))
    }

    func testAnIPhoneExtensionWithTheSameGroupIsNotAWatchApp() throws {
        let dir = try temporaryFolder()
        try ProductWriter.zip(BundleTests.family(prefix: "Payload/App.app"), at: dir.appendingPathComponent("App.ipa"))
        let result = try lint(["App.ipa"], in: dir)
        XCTAssertEqual(result.findings.filter { $0.rule == "watch-shares-phone-group" }, [], "the Share extension lists com.example.shared")
        XCTAssertNil(result.units.first { $0.name == "Share" }?.artifact?.embeddingPhoneApp)
        XCTAssertEqual(result.units.first { $0.name == "Watch" }?.artifact?.embeddingPhoneApp, "App.ipa!Payload/App.app")
        XCTAssertEqual(result.units.first { $0.name == "Watch" }?.artifact?.watchMentionsSynchronizable, false)
    }
}
