import XCTest
@testable import YAMLReader

/// Collections, marks, anchors and aliases, errors and bounds.
final class YAMLComposeTests: XCTestCase {
    func testNoDocument() throws {
        XCTAssertNil(try YAMLNode.compose(yaml: ""))
        XCTAssertNil(try YAMLNode.compose(yaml: "# only a comment\n"))
    }

    func testMappingsKeepOrderAndDuplicateKeysAndMarksAreOneBased() throws {
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: "b: 1\na: [x, {y: z}]\nb: 2\n"))
        XCTAssertEqual(doc.tag, .map)
        let map = try XCTUnwrap(doc.mapping)
        XCTAssertEqual(map.keys.compactMap(\.string), ["b", "a", "b"])
        XCTAssertEqual(map["b"]?.string, "2", "the last pair with the key")
        XCTAssertEqual(map.pairs[0].key.mark, YAMLMark(line: 1, column: 1))
        XCTAssertEqual(map.pairs[0].value.mark, YAMLMark(line: 1, column: 4))
        let seq = try XCTUnwrap(doc["a"]?.sequence)
        XCTAssertEqual(doc["a"]?.tag, .seq)
        XCTAssertEqual(doc["a"]?.mark, YAMLMark(line: 2, column: 4))
        XCTAssertEqual(seq.count, 2)
        XCTAssertEqual(seq[1]["y"]?.string, "z")
        XCTAssertEqual(seq[1].mark, YAMLMark(line: 2, column: 8))
        XCTAssertNil(doc["a"]?.scalar)
        XCTAssertNil(doc.sequence)
    }

    func testTheStringSubscriptMatchesOnlyStringKeys() throws {
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: "1: int\n\"1\": str\n"))
        XCTAssertEqual(doc["1"]?.string, "str")
        let numbers = try XCTUnwrap(try YAMLNode.compose(yaml: "1: int\n"))
        XCTAssertNil(numbers["1"])
    }

    func testAnAliasIsTheAnchoredNode() throws {
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: """
            base: &b {team: T, list: [1, 2]}
            copy: *b
            name: &n app
            again: *n
            """))
        XCTAssertEqual(doc["copy"]?["team"]?.string, "T")
        XCTAssertEqual(doc["copy"]?["list"]?.sequence?.count, 2)
        XCTAssertEqual(doc["copy"]?.mark, YAMLMark(line: 1, column: 7), "the anchored node, where it was written")
        XCTAssertEqual(doc["again"]?.string, "app")
    }

    func testAliasesShareRatherThanExpand() throws {
        // Nine levels of nine aliases each: 9^9 leaves once expanded, composed in a moment.
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 { text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n" }
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: text))
        XCTAssertEqual(doc["a9"]?.sequence?.count, 9)
        XCTAssertEqual(doc["a9"]?.sequence?.first?.sequence?.first?.sequence?.count, 9)
    }

    func testUndefinedAndSelfReferringAliasesAreComposerErrors() {
        for text in ["a: *nope\n", "a: &x [*x]\n"] {
            XCTAssertThrowsError(try YAMLNode.compose(yaml: text), text) { error in
                guard case .composer(nil, "found undefined alias", let mark) = error as? YAMLError else { return XCTFail("\(error)") }
                XCTAssertEqual(mark.line, 1)
            }
        }
    }

    func testASecondDocumentIsAnError() {
        XCTAssertThrowsError(try YAMLNode.compose(yaml: "a: 1\n---\nb: 2\n")) { error in
            guard case .composer(let context, "but found another document", let mark) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(context?.text, "expected a single document in the stream")
            XCTAssertEqual(mark, YAMLMark(line: 2, column: 1))
        }
        XCTAssertNotNil(try YAMLNode.compose(yaml: "---\na: 1\n...\n"), "one explicit document is fine")
    }

    func testLibyamlErrorsCarryStageProblemContextAndLine() {
        XCTAssertThrowsError(try YAMLNode.compose(yaml: "a: 1\nb: [1, 2\n")) { error in
            guard case .parser(let context, let problem, let mark) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(context?.text, "while parsing a flow sequence")
            XCTAssertEqual(context?.mark.line, 2)
            XCTAssertEqual(problem, "did not find expected ',' or ']'")
            XCTAssertEqual(mark.line, 3)
        }
        XCTAssertThrowsError(try YAMLNode.compose(yaml: "a: 1\nb: \"x\n")) { error in
            guard case .scanner(_, let problem, let mark) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(problem, "found unexpected end of stream")
            XCTAssertEqual(mark.line, 3)
        }
        XCTAssertThrowsError(try YAMLNode.compose(yaml: "a: \u{7}\n")) { error in
            guard case .reader(let problem, let offset, _) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(problem, "control characters are not allowed")
            XCTAssertEqual(offset, 3)
        }
    }

    func testNestingPastTheLimitIsRefusedBeforeItIsBuilt() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        XCTAssertNoThrow(try YAMLNode.compose(yaml: deep, maxDepth: 40))
        XCTAssertThrowsError(try YAMLNode.compose(yaml: deep, maxDepth: 39)) { error in
            guard case .composer(nil, "nested more than 39 levels deep", let mark) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(mark, YAMLMark(line: 1, column: 40))
        }
        // Far deeper than any call stack would take, refused at the default bound.
        let blocks = String(repeating: "- ", count: 100_000) + "x\n"
        XCTAssertThrowsError(try YAMLNode.compose(yaml: blocks)) { error in
            guard case .composer(nil, let problem, _) = error as? YAMLError else { return XCTFail("\(error)") }
            XCTAssertEqual(problem, "nested more than \(YAMLNode.defaultMaxDepth) levels deep")
        }
    }

    func testScalarsMayHoldNULAndNonASCII() throws {
        let doc = try XCTUnwrap(try YAMLNode.compose(yaml: "a: \"x\\0y\"\nb: héllo – ✓\n"))
        XCTAssertEqual(doc["a"]?.string, "x\u{0}y")
        XCTAssertEqual(doc["b"]?.string, "héllo – ✓")
        XCTAssertEqual(doc["b"]?.tag, .str)
    }
}
