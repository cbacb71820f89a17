import XCTest
@testable import YAMLReader

/// Each scalar form and the tag YAML 1.1 gives it (yaml.org/type), as a caller sees it.
final class YAMLScalarTagTests: XCTestCase {
    func tag(_ plain: String, file: StaticString = #filePath, line: UInt = #line) throws -> YAMLTag {
        let node = try XCTUnwrap(try YAMLNode.compose(yaml: "k: " + plain), file: file, line: line)
        return try XCTUnwrap(node["k"], file: file, line: line).tag
    }

    func assertTags(_ tag: YAMLTag, _ texts: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for t in texts { XCTAssertEqual(try self.tag(t), tag, "\(t)", file: file, line: line) }
    }

    func testNull() throws {
        try assertTags(.null, ["~", "null", "Null", "NULL", ""])
        try assertTags(.str, ["nULL", "nil", "None"])
    }

    func testBoolInItsThreeCasings() throws {
        try assertTags(.bool, ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                               "on", "On", "ON", "off", "Off", "OFF"])
        try assertTags(.str, ["yEs", "tRUE", "y", "n", "Y", "oN"])
        XCTAssertEqual(try YAMLNode.compose(yaml: "k: Off")?["k"]?.bool, false)
        XCTAssertEqual(try YAMLNode.compose(yaml: "k: YES")?["k"]?.bool, true)
        XCTAssertNil(try YAMLNode.compose(yaml: "k: maybe")?["k"]?.bool)
    }

    func testInt() throws {
        try assertTags(.int, ["0", "12", "-12", "+12", "1_000", "0b1010", "-0b1_0", "0x1F", "0xff_ff", "0o17", "017", "0_7",
                              "1:30", "-1:30:59", "190:20:30"])
        // 08 is no octal: YAML 1.1 reads it as a float; 0:30 (base 60 starts at 1) as a string.
        try assertTags(.float, ["08", "09"])
        try assertTags(.str, ["0b", "0x", "0o", "0b2", "0xg", "1:60", "1:3:x", "0:30", "1__:a", "+-1", "1,000"])
    }

    func testFloat() throws {
        try assertTags(.float, ["1.5", "-1.5", "+1.", "1e5", "1.5E-3", "6.8523015e+5", "685.230_15e+03", ".5", "._5", ".5e+3",
                                "190:20:30.15", "1:30.", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN"])
        try assertTags(.str, [".5e3", ".", "-.5", "1.5.5", "1e", "1e+", ".iNF", "-.nan", "1:30.5e3", "e5"])
    }

    func testTimestamp() throws {
        try assertTags(.timestamp, ["2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
                                    "2001-12-15T02:59:43.1Z", "2001-12-15 2:59:43.10", "2002-1-1T1:00:00"])
        try assertTags(.str, ["2001-12-1", "2001-12-14T", "2001-12-14 21:59", "2001-12-14T21:59:43 Y", "201-12-14"])
    }

    func testMergeValueAndStrings() throws {
        try assertTags(.merge, ["<<"])
        try assertTags(.value, ["="])
        try assertTags(.str, ["hello", "com.example.app", "a b", "==", "<", "1.2.3", "ABCDE12345"])
    }

    func testQuotedBlockAndNonSpecificScalarsAreStringsAndAnExplicitTagWins() throws {
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: """
            a: "123"
            b: 'yes'
            c: ! 12
            d: |
              true
            e: !!int "7"
            f: !!str 7
            g: !custom x
            h: !!binary aGk=
            """))
        XCTAssertEqual(doc["a"]?.tag, .str)
        XCTAssertEqual(doc["a"]?.scalar?.style, .doubleQuoted)
        XCTAssertEqual(doc["b"]?.tag, .str)
        XCTAssertEqual(doc["b"]?.scalar?.style, .singleQuoted)
        XCTAssertEqual(doc["c"]?.tag, .str)
        XCTAssertEqual(doc["d"]?.tag, .str)
        XCTAssertEqual(doc["d"]?.string, "true\n")
        XCTAssertEqual(doc["d"]?.scalar?.style, .literal)
        XCTAssertEqual(doc["e"]?.tag, .int)
        XCTAssertEqual(doc["f"]?.tag, .str)
        XCTAssertEqual(doc["g"]?.tag.rawValue, "!custom")
        XCTAssertEqual(doc["h"]?.tag, .binary)
    }
}
