import XCTest
@testable import Artifacts
final class ArtifactsModuleTests: XCTestCase { func testModuleLinks() { XCTAssertNotNil(ArtifactsModule.self as Any.Type?) } }
