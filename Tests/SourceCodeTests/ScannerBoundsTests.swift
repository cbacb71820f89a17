import XCTest
import SourceCode

/// Hostile sources at growing sizes: the work of the scanner (units walked, tokens read) and of the
/// resolver (steps, lookups, memo hits) is counted and must grow linearly; whatever a bound cuts is
/// unknown with that bound named, never a wrong value.
final class ScannerBoundsTests: XCTestCase {
    /// Resolves every group site of one file with one resolution (as a unit's code is resolved).
    private func resolveAll(_ text: String, _ language: SourceLanguage = .swift, allowance: Int = Int.max)
        -> (values: [ResolvedString], work: Int) {
        let path = language == .swift ? "F.swift" : "F.m"
        let source = scan(text, language)
        var resolution = StringResolution(StringResolver(files: [(path, source)], infoPlist: [:]), allowance: allowance)
        let values = source.groups.map { resolution.resolve($0.value, in: path, line: $0.line) }
        return (values, resolution.work + resolution.resolver.buildWork)
    }

    private func assertLinear(_ small: Int, _ large: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        // The large input is four times the small one: linear work is about four times as much.
        XCTAssertLessThanOrEqual(large, small * 5, "\(what): \(small) then \(large)", file: file, line: line)
    }

    // MARK: the resolver

    /// 80,000 functions each with a local `g`: every lookup of `g` read all 80,000 scopes.
    func testManyFunctionsWithALocalOfTheSameNameResolveInLinearWork() {
        func functions(_ n: Int) -> String {
            (0..<n).map { "func f\($0)() {\n    let g = \"ABCDE12345.x\($0)\"\n    _ = [kSecAttrAccessGroup as String: g]\n}\n" }.joined()
        }
        let small = resolveAll(functions(2_000))
        let large = resolveAll(functions(8_000))
        XCTAssertEqual(large.values.map(\.value), (0..<8_000).map { "ABCDE12345.x\($0)" })
        assertLinear(small.work, large.work, "work")
        XCTAssertLessThanOrEqual(large.work, 8_000 * 12)
    }

    /// One name with 5,000 unit-wide definitions, used at 1,000 sites: each site resolved up to
    /// 4,096 candidates.
    func testAnAmbiguousNameWithThousandsOfCandidatesIsResolvedOnce() {
        func unit(_ candidates: Int, sites: Int) -> String {
            (0..<candidates).map { "enum T\($0) { static let g = \"ABCDE12345.x\($0)\" }\n" }.joined()
                + (0..<sites).map { "func f\($0)() { _ = [kSecAttrAccessGroup as String: g] }\n" }.joined()
        }
        let small = resolveAll(unit(5_000, sites: 250))
        let large = resolveAll(unit(20_000, sites: 1_000))
        XCTAssertEqual(Set(large.values.map(\.unknown)), ["ambiguous: 20000 definitions of g"])
        XCTAssertEqual(Set(large.values.map(\.limit)), ["too many steps to resolve"])
        assertLinear(small.work, large.work, "work")
        // Below the step budget the candidates are resolved once and the result is reused.
        let agreeing = resolveAll((0..<3_000).map { "enum T\($0) { static let g = \"ABCDE12345.same\" }\n" }.joined()
            + (0..<1_000).map { "func f\($0)() { _ = [kSecAttrAccessGroup as String: g] }\n" }.joined())
        XCTAssertEqual(Set(agreeing.values.map(\.value)), ["ABCDE12345.same"])
        XCTAssertLessThanOrEqual(agreeing.work, 3_000 * 8 + 1_000 * 8)
    }

    /// A binary tree of definitions resolved from every site: each definition once, however many
    /// sites and paths reach it; the result is the plain recursion's.
    func testSharedDefinitionsAreResolvedOncePerUnit() {
        var text = "let w12 = \"x\"\n"
        for level in stride(from: 11, through: 0, by: -1) { text += "let w\(level) = w\(level + 1) + \"\"\n" }
        text += (0..<2_000).map { "func f\($0)() { _ = [kSecAttrAccessGroup as String: \"ABCDE12345.\" + w0] }\n" }.joined()
        let (values, work) = resolveAll(text)
        XCTAssertEqual(Set(values.map(\.value)), ["ABCDE12345.x"])
        XCTAssertEqual(Set(values.map(\.steps.count)), [13])
        XCTAssertLessThanOrEqual(work, 2_000 * 8 + 13 * 8)
    }

    /// A constant of 2,000 parts, each a constant, used at 2,000 sites: every site kept the
    /// 2,000 steps it went through.
    func testSitesThroughAWideDefinitionKeepAFewSteps() {
        var text = (0..<2_000).map { "let a\($0) = \"\"\n" }.joined()
        text += "let wide = \"ABCDE12345.x\" + " + (0..<2_000).map { "a\($0)" }.joined(separator: " + ") + "\n"
        text += (0..<2_000).map { "func f\($0)() { _ = [kSecAttrAccessGroup as String: \"\" + wide] }\n" }.joined()
        let (values, work) = resolveAll(text)
        XCTAssertEqual(Set(values.map(\.value)), ["ABCDE12345.x"])
        XCTAssertEqual(Set(values.map(\.steps.count)), [StringResolver.maxKeptSteps])
        XCTAssertEqual(values.first?.steps.prefix(2), ["wide (F.swift:2001)", "a0 (F.swift:1)"])
        XCTAssertLessThanOrEqual(work, 2_000 * 12 + 2_000 * 12)
    }

    /// 20,000 types nested in one another: every definition kept a path of up to 20,000 names.
    func testTypesNestedTwentyThousandDeepKeepShortPaths() {
        let n = 20_000
        let text = (0..<n).map { "struct A\($0) { static let g = \"ABCDE12345.x\($0)\"\n" }.joined() + String(repeating: "}", count: n)
            + "\nfunc f() { _ = [kSecAttrAccessGroup as String: A0.g] }\nfunc h() { _ = [kSecAttrAccessGroup as String: A0.A1.A2.g] }\n"
        let source = scan(text)
        XCTAssertEqual(source.definitions.count, n)
        XCTAssertLessThanOrEqual(source.definitions.map(\.path.count).max() ?? 0, 33)
        XCTAssertEqual(source.definitions[31].value, .literal("ABCDE12345.x31"))
        XCTAssertEqual(source.definitions[32].value, .overLimit("a constant of a type nested more than 32 deep"))
        XCTAssertEqual(resolveAll(text).values.map(\.value), ["ABCDE12345.x0", "ABCDE12345.x2"])
    }

    /// References 16 deep and beyond, reached from sites at every depth of a long chain: the
    /// depth bound gives what it gives without a memo.
    func testAChainLongerThanTheDepthBoundIsUnknownFromEverySiteThatReachesTooDeep() {
        var text = "let c0 = \"ABCDE12345.end\"\n"
        for k in 1..<40 { text += "let c\(k) = c\(k - 1)\n" }
        text += (0..<40).map { "func f\($0)() { _ = [kSecAttrAccessGroup as String: c\($0)] }\n" }.joined()
        let values = resolveAll(text).values
        // The site's own reference is the first of 16.
        XCTAssertEqual(values[0..<16].map(\.value), Array(repeating: "ABCDE12345.end", count: 16))
        XCTAssertEqual(Set(values[16...].map(\.value)), [nil])
        XCTAssertEqual(Set(values[16...].map(\.limit)), ["references nested more than 16 deep"])
    }

    /// The run's budget: past it every value is unknown, with the budget as its limit.
    func testPastTheAllowanceEveryValueIsUnknownAtThatBound() {
        let text = (0..<100).map { "let g\($0) = \"ABCDE12345.x\($0)\"\nfunc f\($0)() { _ = [kSecAttrAccessGroup as String: g\($0)] }\n" }.joined()
        let full = resolveAll(text)
        XCTAssertEqual(full.values.compactMap(\.value).count, 100)
        let cut = resolveAll(text, allowance: 200)
        XCTAssertEqual(cut.values.prefix(10).compactMap(\.value).count, 10)
        XCTAssertEqual(cut.values.last?.value, nil)
        XCTAssertEqual(cut.values.last?.limit, StringResolution.exhausted)
        XCTAssertLessThanOrEqual(cut.work, 200 + 100 * 4)
    }

    // MARK: the scanner

    /// `let a1 = a0 + "x" let a2 = a1 + "x" ...` on one line: each binding was walked and read
    /// for 4,096 units, and kept.
    func testBindingsWithoutSeparatorsAreWalkedAndReadOnce() {
        func chain(_ n: Int) -> String {
            "let a0 = \"ABCDE12345.\" " + (1..<n).map { "let a\($0) = a\($0 - 1) + \"x\"" }.joined(separator: " ")
                + "\nfunc f() { _ = [kSecAttrAccessGroup as String: a\(n - 1)] }\n"
        }
        let small = SourceScanner.scanCountingWork(Array(chain(5_000).utf8), language: .swift)
        let large = SourceScanner.scanCountingWork(Array(chain(20_000).utf8), language: .swift)
        XCTAssertLessThanOrEqual(large.work.walkedUnits, large.work.tokens)
        XCTAssertLessThanOrEqual(large.work.parsedTokens, large.work.tokens)
        assertLinear(small.work.parsedTokens, large.work.parsedTokens, "tokens read")
        // The first binding runs past the size bound; the others start inside it.
        XCTAssertEqual(large.source.definitions[0].value, .overLimit("an expression longer than 4096 tokens"))
        XCTAssertEqual(large.source.definitions[1].value, .overLimit("a statement that starts inside another one (no separator between them)"))
        let r = resolveAll(chain(20_000)).values
        XCTAssertEqual(r.map(\.value), [nil])
        XCTAssertNotNil(r.first?.limit)
    }

    /// The same chain with separators, and on lines of its own: every binding is read, each once.
    func testBindingsOnTheirOwnLinesAreEachReadOnce() {
        for separator in [";", "\n"] {
            let n = 20_000
            let text = "let a0 = \"ABCDE12345.\"" + separator + (1..<n).map { "let a\($0) = a\($0 - 1) + \"x\"" }.joined(separator: separator)
                + "\nfunc f() { _ = [kSecAttrAccessGroup as String: a10] }\n"
            let (source, work) = SourceScanner.scanCountingWork(Array(text.utf8), language: .swift)
            XCTAssertEqual(source.definitions.count, n)
            XCTAssertLessThanOrEqual(work.parsedTokens, n * 4 + 8)
            XCTAssertEqual(source.definitions[5].value, .concatenation([.reference(["a4"]), .literal("x")]))
            XCTAssertEqual(resolveAll(text).values.map(\.value), ["ABCDE12345." + String(repeating: "x", count: 10)])
        }
    }

    /// One `+` expression of 300,000 terms: walked for 4,096 units, then not read (its first
    /// part alone would be a wrong value: the group without what follows).
    func testAVeryLongConcatenationIsUnknownNotCut() {
        let text = "let g = \"ABCDE12345.good\"" + String(repeating: " + \"\"", count: 300_000) + " + \".evil\"\n"
            + "func f() { _ = [kSecAttrAccessGroup as String: g] }\n"
        let (source, work) = SourceScanner.scanCountingWork(Array(text.utf8), language: .swift)
        XCTAssertLessThanOrEqual(work.walkedUnits, 4_096 + 8)
        XCTAssertEqual(source.definitions.first?.value, .overLimit("an expression longer than 4096 tokens"))
        let r = resolveAll(text).values
        XCTAssertEqual(r.map(\.value), [nil])
        XCTAssertEqual(r.map(\.limit), ["an expression longer than 4096 tokens"])
        // Just within the bound, the whole expression is read.
        let within = "let g = \"ABCDE12345.good\"" + String(repeating: " + \"\"", count: 2_000) + " + \".evil\"\n"
            + "func f() { _ = [kSecAttrAccessGroup as String: g] }\n"
        XCTAssertEqual(resolveAll(within).values.map(\.value), ["ABCDE12345.good.evil"])
    }

    /// Assignments chained without separators (`q.accessGroup = a + q.accessGroup = ...`): each
    /// site read everything after it.
    func testChainedGroupAssignmentsAreReadOnce() {
        func chain(_ n: Int) -> String {
            "func f() {\n" + String(repeating: "q.accessGroup = a + ", count: n) + "a\n}\n"
        }
        let small = SourceScanner.scanCountingWork(Array(chain(2_000).utf8), language: .swift)
        let large = SourceScanner.scanCountingWork(Array(chain(8_000).utf8), language: .swift)
        XCTAssertEqual(large.source.groups.count, 8_000)
        assertLinear(small.work.parsedTokens + small.work.walkedUnits, large.work.parsedTokens + large.work.walkedUnits, "work")
        XCTAssertEqual(large.source.groups.first?.value, .overLimit("an expression longer than 4096 tokens"))
        XCTAssertEqual(large.source.groups[1].value, .overLimit("a statement that starts inside another one (no separator between them)"))
        XCTAssertEqual(Set(resolveAll(chain(2_000)).values.map(\.value)), [nil])
    }

    /// Objective-C messages and calls with thousands of keys or labels: each looked for the
    /// message's parts from its start, and each read the same value again.
    func testObjectiveCCallsWithThousandsOfKeysAreReadOnce() {
        func message(_ n: Int) -> String {
            "void f(void) {\n[q setObject:g " + String(repeating: "forKey:kSecAttrAccessGroup ", count: n) + "];\n"
                + "[k x:1 " + String(repeating: "accessGroup:g ", count: n) + "];\n"
                + "CFDictionarySetValue(q, " + String(repeating: "kSecAttrAccessGroup ", count: n) + ", g);\n}\n"
        }
        let small = SourceScanner.scanCountingWork(Array(message(2_000).utf8), language: .objectiveC)
        let large = SourceScanner.scanCountingWork(Array(message(8_000).utf8), language: .objectiveC)
        // One key per call; every label of the message.
        XCTAssertEqual(large.source.groups.filter { $0.api == "kSecAttrAccessGroup" }.count, 2)
        XCTAssertEqual(large.source.groups.filter { $0.api.hasPrefix("accessGroup: argument") }.count, 8_000)
        XCTAssertLessThanOrEqual(large.work.parsedTokens, 8_000 * 4)
        assertLinear(small.work.parsedTokens, large.work.parsedTokens, "tokens read")
        // A well-formed call still gives its key.
        XCTAssertEqual(scan("void f(void) { [q setObject:@\"ABCDE12345.a\" forKey:(__bridge id)kSecAttrAccessGroup]; }", .objectiveC).groups.map(\.value),
                       [.literal("ABCDE12345.a")])
    }

    /// A parameter 300 blocks out, behind blocks that each look a name up: it was looked up
    /// through at most 256 blocks (each lookup walking them all), and past that the name was taken
    /// for the file's constant of the same name: a wrong value.
    func testAParameterFarOutIsStillAParameter() {
        func text(_ depth: Int) -> String {
            var text = "let p = \"ABCDE12345.constant\"\nfunc f(p: String) {\n"
            text += String(repeating: "if c {\n", count: depth)
            text += "let local = \"ABCDE12345.local\"\nvar v = \"x\"\n"
            text += "_ = [kSecAttrAccessGroup as String: local]\n_ = [kSecAttrAccessGroup as String: v]\n_ = [kSecAttrAccessGroup as String: p]\n"
            text += "let wide = " + (0..<2_000).map { "n\($0)" }.joined(separator: " + ") + "\n"
            return text + String(repeating: "}\n", count: depth) + "}\n"
        }
        let source = scan(text(300))
        XCTAssertEqual(source.groups.map(\.value), [.reference(["local"]), .unknown("variable v"), .unknown("parameter p")])
        XCTAssertEqual(resolveAll(text(300)).values.map(\.value), ["ABCDE12345.local", nil, nil])
    }

    /// A parameter behind a long signature (a Swift generic clause of more than 64 tokens, an
    /// Objective-C method of more than 256): the parameters were not read, and the name was taken
    /// for the file's constant of the same name.
    func testAParameterBehindALongSignatureIsStillAParameter() {
        let generics = (0..<40).map { "T\($0): P" }.joined(separator: ", ")
        let swift = "let group = \"ABCDE12345.constant\"\nfunc f<\(generics)>(group: String) {\n    _ = [kSecAttrAccessGroup as String: group]\n}\n"
        XCTAssertEqual(scan(swift).groups.map(\.value), [.unknown("parameter group")])
        let parts = (0..<60).map { "p\($0):(NSInteger)p\($0)" }.joined(separator: " ")
        let objc = "NSString * const group = @\"ABCDE12345.constant\";\n- (void)save:(NSString *)group \(parts) {\n"
            + "    [q setObject:group forKey:(__bridge id)kSecAttrAccessGroup];\n}\n"
        XCTAssertEqual(scan(objc, .objectiveC).groups.map(\.value), [.unknown("parameter group")])
        // Many keywords before one clause share one scan.
        let keywords = String(repeating: "func ", count: 20_000) + "f<\(generics)>(group: String) {}\n"
        XCTAssertLessThanOrEqual(SourceScanner.scanCountingWork(Array(keywords.utf8), language: .swift).work.clauseTokens, 20_000 + 200)
    }
}
