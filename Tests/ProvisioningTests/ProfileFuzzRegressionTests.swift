import Foundation
import XCTest
import Provisioning

/// Inputs kept by `Scripts/fuzz.sh cms-profile` in `Tests/Fuzz/Regressions/cms-profile/`: each
/// must decode or throw a `ProfileError`, quickly, never crash.
final class ProfileFuzzRegressionTests: XCTestCase {
    func testCMSProfileRegressionsDecodeOrThrow() throws {
        let dir = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // ProvisioningTests
            .deletingLastPathComponent()   // Tests
            .appendingPathComponent("Fuzz/Regressions/cms-profile")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(name)))
            let start = Date()
            do {
                _ = try ProfileDecoder.decode(bytes)
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name) took too long")
        }
    }
}
