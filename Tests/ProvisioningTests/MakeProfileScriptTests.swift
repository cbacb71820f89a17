import Foundation
import XCTest
@testable import Provisioning

/// `Scripts/make-profile.sh` output (real `openssl cms -sign`) decodes, with the envelope asked
/// for. Skipped when openssl or bash is not installed.
final class MakeProfileScriptTests: XCTestCase {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func run(_ args: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    func testOpenSSLSignedDERAndBERProfilesDecode() throws {
        guard (try? run(["openssl", "version"])) == 0 else {
            throw XCTSkip("openssl is not installed")
        }
        let script = Self.packageRoot.appendingPathComponent("Scripts/make-profile.sh").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-make-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let fixture = ProfileFixture()
        let plist = dir.appendingPathComponent("profile.plist")
        try Data(fixture.bytes).write(to: plist)
        let expected = try ProfileDecoder.decode(fixture.bytes)

        for (flag, envelope) in [("--der", ProfileEnvelope.der), ("--ber", .ber)] {
            let out = dir.appendingPathComponent("out\(flag).mobileprovision")
            XCTAssertEqual(try run(["bash", script, flag, plist.path, out.path]), 0, flag)
            let bytes = Array(try Data(contentsOf: out))
            XCTAssertEqual(Array(bytes.prefix(2)) == [0x30, 0x80], envelope == .ber, flag)
            var p = try ProfileDecoder.decode(bytes)
            XCTAssertEqual(p.envelope, envelope, flag)
            p.envelope = .plainPlist
            XCTAssertEqual(p, expected, flag)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).count, 3, "the script wrote only its output")
    }
}
