import EntitlintCore
import XCTest

/// Units of loose entitlements files are named after the file, and stay unique in a run.
final class LinterUnitNameTests: XCTestCase {
    func testFilesOfTheSameNameAreNamedByTheirPath() {
        XCTAssertEqual(UnitFormer.fileUnitNames(["macbox/afproxy.entitlements", "macbox/afproxy/afproxy.entitlements", "App/App.entitlements"]),
                       ["macbox/afproxy", "macbox/afproxy/afproxy", "App"])
        XCTAssertEqual(UnitFormer.fileUnitNames(["One/App.entitlements", "Two/App.xcent"]), ["One/App", "Two/App"])
        XCTAssertEqual(UnitFormer.fileUnitNames(["A.entitlements", "B.entitlements"]), ["A", "B"])
    }
}
