import EntitlintCore
import Foundation
import PropertyList
import TestSupport
import XCTest
import Artifacts

/// The `macho` and `ipa` fuzz harnesses hand each input to `ArtifactReader` as a file (a
/// standalone binary, or `App.ipa`). Here the inputs they kept (`Tests/Fuzz/Regressions/macho/`,
/// `.../ipa/`) go the same way: units or findings, quickly, never a crash. The seeds
/// (`Tests/Fuzz/Seeds/`, written by `make-binary-seeds.py`) must reach what the harnesses are
/// for: the XML and DER entitlements (the DER through swift-asn1), fat files, the simulator
/// section, bundles inside an `.ipa`.
final class ArtifactFuzzRegressionTests: XCTestCase {
    /// Reads `bytes` as the harness does: written to `fileName` in a fresh folder.
    func read(_ bytes: [UInt8], as fileName: String) throws -> ArtifactReadResult {
        let url = try temporaryFolder().appendingPathComponent(fileName)
        try Data(bytes).write(to: url)
        return ArtifactReader().read(url.path, shown: fileName, limits: .default)
    }

    func replay(_ harness: String, as fileName: String) throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/\(harness)") {
            let result = try read(bytes, as: fileName)
            for f in result.findings { XCTAssertFalse(f.message.isEmpty, "\(name): a finding without a message") }
        }
    }

    func testMachORegressionsReadOrFail() throws { try replay("macho", as: "binary") }

    func testIPARegressionsReadOrFail() throws { try replay("ipa", as: "App.ipa") }

    func testMachOSeedsReachEveryEntitlementsSource() throws {
        var results: [String: ArtifactReadResult] = [:]
        for (name, bytes) in try FuzzInputs.files("Seeds/macho") { results[name] = try read(bytes, as: "binary") }
        XCTAssertGreaterThanOrEqual(results.count, 8)
        for (name, r) in results {
            XCTAssertEqual(r.findings.map(\.message), [], name)
            XCTAssertEqual(r.units.count, 1, name)
        }
        func artifact(_ name: String) throws -> BuiltArtifactFacts { try XCTUnwrap(results[name]?.units.first?.artifact, name) }

        let both = try artifact("thin-arm64-xml-der")
        XCTAssertEqual(both.entitlementsSource, .codeSignatureXML)
        XCTAssertNotNil(both.derEntitlements, "slot 7 decoded")
        XCTAssertNil(both.derEntitlementsError)
        let derOnly = try artifact("thin-arm64-der-only")
        XCTAssertEqual(derOnly.entitlementsSource, .codeSignatureDER)
        XCTAssertEqual(derOnly.architectures, ["arm64e"])
        let nested = try XCTUnwrap(results["thin-arm64-der-only"]?.units.first?.entitlements["nested"]?.dict)
        XCTAssertEqual(nested["list"]?.array?.count, 4)
        XCTAssertEqual(try artifact("thin-x86_64-simulator").entitlementsSource, .simulatorSection)
        XCTAssertEqual(try artifact("thin-ppc-big-endian").architectures, ["ppc"])
        XCTAssertEqual(try artifact("fat-disagreeing-slices").architectures, ["arm64", "x86_64"])
        XCTAssertEqual(try artifact("fat-disagreeing-slices").sliceDisagreements.count, 1)
        XCTAssertEqual(try artifact("fat64-der").architectures, ["arm64e", "arm64"])
        XCTAssertNotNil(try artifact("fat64-der").derEntitlements)
    }

    func testIPASeedsReachTheBundles() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try FuzzInputs.files("Seeds/ipa").map { ($0.name, $0.bytes) })
        let stored = try read(try XCTUnwrap(seeds["stored-app"]), as: "App.ipa")
        XCTAssertEqual(stored.findings.map(\.message), [])
        XCTAssertEqual(stored.units.first?.bundleID?.value, "com.example.App")
        XCTAssertNotNil(stored.units.first?.artifact?.derEntitlements)

        let deflated = try read(try XCTUnwrap(seeds["deflated-app-with-extension"]), as: "App.ipa")
        XCTAssertEqual(deflated.units.map(\.name).sorted(), ["App", "Share"])
        XCTAssertTrue(deflated.findings.contains { $0.message.contains("cannot parse profile") }, "\(deflated.findings.map(\.message))")

        let mac = try read(try XCTUnwrap(seeds["stored-macos-layout-and-unsafe-paths"]), as: "App.ipa")
        XCTAssertEqual(mac.units.first?.platform, .macOS)
        XCTAssertEqual(mac.findings.filter { $0.message.contains("unsafe path") }.count, 2, "\(mac.findings.map(\.message))")
    }
}
