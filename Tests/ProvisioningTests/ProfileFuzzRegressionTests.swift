import Foundation
import TestSupport
import XCTest
import Provisioning

/// Inputs kept by `Scripts/fuzz.sh cms-profile` in `Tests/Fuzz/Regressions/cms-profile/`: each
/// must decode or throw a `ProfileError`, quickly, never crash.
final class ProfileFuzzRegressionTests: XCTestCase {
    func testCMSProfileRegressionsDecodeOrThrow() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/cms-profile") {
            do {
                _ = try ProfileDecoder.decode(bytes)
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
        }
    }
}
