import SourceCode
import XCTest

/// `SourceFilter.mayHaveDirectives`: which files the run reads for inline directives although it
/// found nothing in them.
final class SourceFilterDirectiveTests: XCTestCase {
    func testTheMarkIsFoundAnywhereAndOnlyWhole() {
        let yes = ["// entitlint:disable-next-line x", "entitlint:", "let a = 1\n/* entitlint:disable-file y */"]
        let no = ["", "entitlint", "// entitlint disable-next-line x", "// Entitlint:disable-file", "entitlin:t"]
        for text in yes { XCTAssertTrue(SourceFilter.mayHaveDirectives(Array(text.utf8)), text) }
        for text in no { XCTAssertFalse(SourceFilter.mayHaveDirectives(Array(text.utf8)), text) }
    }
}
