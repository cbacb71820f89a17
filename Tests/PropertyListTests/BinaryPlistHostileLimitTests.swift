import XCTest
@testable import PropertyList

private typealias W = BinaryPlistTestWriter

/// Hostile binary plists that try to exhaust the reader: reference cycles, deep nesting, blow-up
/// through shared objects, oversized files.
final class BinaryPlistHostileLimitTests: XCTestCase, BinaryPlistReaderChecks {
    // MARK: - Hostile inputs: cycles, depth, blow-up

    func testSelfReferencingArrayCycle() {
        var w = W()
        w.addArray([0])
        assertRejects(w.build(), .invalidBinary, "reference cycle")
    }

    func testIndirectReferenceCycle() {
        var w = W()
        let a = w.addArray()
        let b = w.addArray()
        let c = w.addArray()
        w.setArray(a, [b])
        w.setArray(b, [c])
        w.setArray(c, [w.add(.string("ok")), a])
        assertRejects(w.build(top: a), .invalidBinary, "refers to object 0, which contains it (reference cycle)")
    }

    func testDictValueReferencingItsOwnDictIsACycle() {
        var w = W()
        let d = w.addArray()
        let k = w.add(.string("self"))
        w.objects[d] = .dict(keys: [k], values: [d])
        assertRejects(w.build(top: d), .invalidBinary, "reference cycle")
    }

    func testDictUsingItselfAsKeyIsRejectedNotEntered() {
        var w = W()
        let d = w.addArray()
        let v = w.add(.bool(true))
        w.objects[d] = .dict(keys: [d], values: [v])
        assertRejects(w.build(top: d), .invalidBinary, "dict keys must be strings")
    }

    private func nestedArrays(_ depth: Int) -> [UInt8] {
        // Object i is an array holding object i + 1; the last one is an empty array.
        var w = W()
        for i in 0..<depth { w.addArray(i + 1 < depth ? [i + 1] : []) }
        return w.build()
    }

    func testDeepNestingBeyondLimit() {
        let maxDepth = PlistLimits.default.maxDepth
        assertRejects(nestedArrays(maxDepth + 1), .tooDeep, "nested \(maxDepth + 1) deep, more than the limit of \(maxDepth)")
        assertRejects(nestedArrays(maxDepth + 100), .tooDeep)
        XCTAssertNoThrow(try parse(nestedArrays(maxDepth)))
        var limits = PlistLimits.default
        limits.maxDepth = 10
        XCTAssertNoThrow(try parse(nestedArrays(10), limits: limits))
        assertRejects(nestedArrays(11), .tooDeep, "nested 11 deep", limits: limits)
    }

    /// `--max-depth 100000` is honoured up to the readers' own bound (`readerMaxDepth`): past it
    /// the file is refused, without suggesting a flag that would not help, and never walked by
    /// the recursive code after the reader (rules, reporters, Swift's deinit).
    func testVeryDeepNestingWithRaisedLimitStopsAtTheReadersBound() throws {
        let limits = PlistLimits(maxDepth: 100_000)
        XCTAssertThrowsError(try parse(nestedArrays(100_000), limits: limits)) { error in
            let e = error as! PlistError
            XCTAssertEqual(e.code, .tooDeep)
            XCTAssertNil(e.limit)
            XCTAssertTrue(e.reason.contains("more than the limit of \(PlistLimits.readerMaxDepth) (the most Entitlint reads, whatever --max-depth says)"), e.reason)
        }
        assertRejects(nestedArrays(PlistLimits.readerMaxDepth + 1), .tooDeep, "nested \(PlistLimits.readerMaxDepth + 1) deep", limits: limits)
        var node = try parse(nestedArrays(PlistLimits.readerMaxDepth), limits: limits).root
        var seen = 1
        while let next = node.array?.first {
            node = next
            seen += 1
        }
        XCTAssertEqual(seen, PlistLimits.readerMaxDepth)
        // The other readers have the same bound.
        let openStep = Array((String(repeating: "(", count: 5_000) + String(repeating: ")", count: 5_000)).utf8)
        XCTAssertThrowsError(try OpenStepPlistReader.parse(openStep, limits: limits)) { error in
            XCTAssertTrue((error as! PlistError).reason.contains("deeper than \(PlistLimits.readerMaxDepth) levels"), "\(error)")
        }
    }

    func testDAGBlowUpBeyondMaxElements() {
        // 10^12 nodes from a file of a few hundred bytes.
        let bomb = billionLaughs(levels: 12, width: 10)
        XCTAssertLessThan(bomb.count, 300)
        assertRejects(bomb, .tooLarge, "\(PlistLimits.default.maxElements) values")
        // Wide fan-out is refused before the children are allocated.
        assertRejects(billionLaughs(levels: 2, width: 2000), .tooLarge, "would exceed the limit", limits: PlistLimits(maxElements: 3000))
    }

    func testSharedObjectsCountAtEveryReference() throws {
        // 1 + 3 + 9 + 27 = 40 nodes although the file has only 4 objects.
        let file = billionLaughs(levels: 3, width: 3)
        XCTAssertNoThrow(try parse(file, limits: PlistLimits(maxElements: 40)))
        assertRejects(file, .tooLarge, limits: PlistLimits(maxElements: 39))
        let top = try parse(file).root
        XCTAssertEqual(top.array?[2].array?[1].array?[0].string, "lol")
    }

    func testDictKeysCountTowardsMaxElements() {
        // dict of 2 entries: the dict, 2 keys and 2 values.
        let file = W.file(.dict([("a", .bool(true)), ("b", .bool(false))]))
        XCTAssertNoThrow(try parse(file, limits: PlistLimits(maxElements: 5)))
        assertRejects(file, .tooLarge, limits: PlistLimits(maxElements: 4))
    }

    func testOversizedInputIsRejected() {
        let file = W.file(.data(Array(repeating: 0, count: 200)))
        assertRejects(file, .tooLarge, "more than the limit of 100 bytes", limits: PlistLimits(maxBytes: 100))
    }
}
