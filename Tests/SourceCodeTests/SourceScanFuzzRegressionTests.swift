import Foundation
import TestSupport
import XCTest
import SourceCode

/// Inputs kept by `Scripts/fuzz.sh source-scan` in `Tests/Fuzz/Regressions/source-scan/`: each is
/// scanned as the harness does (first byte: even Swift, odd Objective-C) and resolved, without a crash.
final class SourceScanFuzzRegressionTests: XCTestCase {
    func testSourceScanRegressionsScan() throws {
        let inputs = try FuzzInputs.files("Regressions/source-scan")
        XCTAssertFalse(inputs.isEmpty)
        for (name, input) in inputs {
            guard let first = input.first else { continue }
            let scanned = SourceScanner.scan(Array(input.dropFirst()), language: first & 1 == 0 ? .swift : .objectiveC)
            let resolver = StringResolver(files: [(path: name, source: scanned)], infoPlist: [:])
            for site in scanned.groups {
                let r = resolver.resolve(site.value, in: name, line: site.line)
                XCTAssertNotEqual(r.value == nil, r.unknown == nil, name)
            }
        }
    }

    /// The input the fuzzer found: two backticks (an empty escaped name) at the end of a file.
    func testAnEmptyEscapedNameAtTheEnd() {
        XCTAssertEqual(scan("let a = ``").definitions.map(\.path), [["a"]])
        XCTAssertEqual(scan("``").groups, [])
    }
}
