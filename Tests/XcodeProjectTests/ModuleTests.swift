import XCTest
@testable import XcodeProject
final class XcodeProjectModuleTests: XCTestCase { func testModuleLinks() { XCTAssertNotNil(XcodeProjectModule.self as Any.Type?) } }
