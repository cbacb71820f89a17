import XCTest
import SourceCode

final class SourceLanguageTests: XCTestCase {
    func testLanguageFollowsTheExtension() {
        XCTAssertEqual(SourceLanguage(path: "A/Keychain.swift"), .swift)
        XCTAssertEqual(SourceLanguage(path: "A/Store.M"), .objectiveC)
        XCTAssertEqual(SourceLanguage(path: "A/Store.mm"), .objectiveC)
        XCTAssertEqual(SourceLanguage(path: "A/Store.h"), .objectiveC)
        XCTAssertEqual(SourceLanguage(path: "A/keychain.c"), .objectiveC)
        XCTAssertEqual(SourceLanguage(path: "A/Keychain.cpp"), .objectiveC)
        XCTAssertEqual(SourceLanguage(path: "A/Keychain.hpp"), .objectiveC)
        XCTAssertNil(SourceLanguage(path: "A/Info.plist"))
        XCTAssertNil(SourceLanguage(path: "A/Makefile.cmake"))
        XCTAssertNil(SourceLanguage(path: "A/swift"))
    }
}
