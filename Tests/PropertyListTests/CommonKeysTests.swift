import Foundation
import XCTest
@testable import PropertyList

/// Keys read from files share the storage of `CommonKeys` when they spell one; they must be the
/// same strings as if made from the bytes, and nothing else may match.
final class CommonKeysTests: XCTestCase {
    func testEveryCommonKeyIsFoundAndNothingElse() {
        for key in CommonKeys.all {
            XCTAssertEqual(CommonKeys.lookup(Array(key.utf8)), key)
            var changed = Array(key.utf8)
            changed[changed.count / 2] ^= 0x20
            XCTAssertNil(CommonKeys.lookup(changed), "\(key) with one byte changed")
            XCTAssertNil(CommonKeys.lookup(Array(key.utf8) + [0x20]))
        }
        XCTAssertNil(CommonKeys.lookup([]))
        XCTAssertNil(CommonKeys.lookup(Array(String(repeating: "k", count: 500).utf8)))
        XCTAssertEqual(Set(CommonKeys.all).count, CommonKeys.all.count, "no key listed twice")
    }

    func testDocumentsReadTheSameKeys() throws {
        let xml = "<plist><dict><key>keychain-access-groups</key><array/><key>keychain-access-groupz</key><true/>"
            + "<key>\u{FEFF}Entitlements</key><true/></dict></plist>"
        let keys = try XMLPlistReader.parse(Array(xml.utf8)).root.dict?.keys
        XCTAssertEqual(keys, ["keychain-access-groups", "keychain-access-groupz", "Entitlements"])
    }
}

/// `SourceLocation` keeps 32-bit numbers but reads, writes, compares and encodes as before.
final class SourceLocationTests: XCTestCase {
    func testLocationsKeepTheirValuesAndEncoding() throws {
        let a = SourceLocation(line: 12, column: 7)
        XCTAssertEqual(a.line, 12)
        XCTAssertEqual(a.column, 7)
        XCTAssertLessThan(a, SourceLocation(line: 12, column: 8))
        XCTAssertLessThan(SourceLocation(line: 3, column: 99), a)
        let json = String(decoding: try JSONEncoder().encode(a), as: UTF8.self)
        XCTAssertTrue(json == #"{"line":12,"column":7}"# || json == #"{"column":7,"line":12}"#, json)
        XCTAssertEqual(try JSONDecoder().decode(SourceLocation.self, from: Data(json.utf8)), a)
        XCTAssertEqual(SourceLocation(line: Int.max, column: -5).line, Int(Int32.max), "clamped, not trapped")
        XCTAssertEqual(MemoryLayout<SourceLocation>.size, 8)
    }
}
