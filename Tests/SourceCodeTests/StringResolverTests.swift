import XCTest
import SourceCode

final class StringResolverTests: XCTestCase {
    private func definition(_ path: [String], _ value: StringExpression, line: Int = 1) -> StringDefinition {
        StringDefinition(path: path, line: line, value: value)
    }

    func testACycleIsUnknown() {
        let source = ScannedSource(definitions: [definition(["a"], .reference(["b"])), definition(["b"], .concatenation([.literal("x"), .reference(["a"])]))])
        let resolver = StringResolver(files: [("C.swift", source)], infoPlist: [:])
        let result = resolver.resolve(.reference(["a"]), in: "C.swift", line: 1)
        XCTAssertNil(result.value)
        XCTAssertEqual(result.unknown, "part 2 is unknown: a is defined in terms of itself")
    }

    func testReferencesStopAtSixteenLevels() {
        func chain(_ n: Int) -> StringResolver {
            var definitions = (0..<n).map { definition(["c\($0)"], .reference(["c\($0 + 1)"])) }
            definitions.append(definition(["c\(n)"], .literal("end")))
            return StringResolver(files: [("D.swift", ScannedSource(definitions: definitions))], infoPlist: [:])
        }
        // c0 and the 15 references after it: 16 references.
        XCTAssertEqual(chain(15).resolve(.reference(["c0"]), in: "D.swift", line: 1).value, "end")
        XCTAssertEqual(chain(16).resolve(.reference(["c0"]), in: "D.swift", line: 1).unknown, "references nested more than 16 deep")
    }

    func testAmbiguousAndAgreeingDefinitions() {
        let a = ScannedSource(definitions: [definition(["A", "main"], .literal("x"))])
        let b = ScannedSource(definitions: [definition(["B", "main"], .literal("y")), definition(["C", "main"], .literal("x"))])
        let resolver = StringResolver(files: [("A.swift", a), ("B.swift", b)], infoPlist: [:])
        XCTAssertEqual(resolver.resolve(.reference(["main"]), in: "A.swift", line: 1).unknown, "ambiguous: 3 definitions of main")
        XCTAssertEqual(resolver.resolve(.reference(["B", "main"]), in: "A.swift", line: 1).value, "y")
        XCTAssertEqual(resolver.resolve(.reference(["Missing", "main"]), in: "A.swift", line: 1).unknown, "no definition of Missing.main found")
        let same = StringResolver(files: [("A.swift", a), ("C.swift", ScannedSource(definitions: [definition(["C", "main"], .literal("x"))]))], infoPlist: [:])
        XCTAssertEqual(same.resolve(.reference(["main"]), in: "A.swift", line: 1).value, "x")
    }

    func testLocalDefinitionsWinInsideTheirScopeOnly() {
        let source = ScannedSource(definitions: [
            definition(["group"], .literal("global")),
            StringDefinition(path: ["group"], line: 5, value: .literal("outer local"), scope: 4...20),
            StringDefinition(path: ["group"], line: 8, value: .literal("inner local"), scope: 7...9),
        ])
        let resolver = StringResolver(files: [("L.swift", source)], infoPlist: [:])
        XCTAssertEqual(resolver.resolve(.reference(["group"]), in: "L.swift", line: 8).value, "inner local")
        XCTAssertEqual(resolver.resolve(.reference(["group"]), in: "L.swift", line: 12).value, "outer local")
        XCTAssertEqual(resolver.resolve(.reference(["group"]), in: "L.swift", line: 30).value, "global")
        XCTAssertEqual(resolver.resolve(.reference(["group"]), in: "Other.swift", line: 8).value, "global")
    }

    func testValuesLongerThanTheBoundAreUnknown() {
        let big = String(repeating: "a", count: 600)
        let source = ScannedSource(definitions: [definition(["p"], .literal(big))])
        let resolver = StringResolver(files: [("B.swift", source)], infoPlist: [:])
        XCTAssertEqual(resolver.resolve(.reference(["p"]), in: "B.swift", line: 1).value?.count, 600)
        XCTAssertEqual(resolver.resolve(.concatenation([.reference(["p"]), .reference(["p"])]), in: "B.swift", line: 1).unknown,
                       "a value longer than 1024 bytes")
    }

    func testTheStepBudgetBoundsAWideDefinitionTree() {
        // Each level doubles: 2^15 lookups unbounded; the budget stops it.
        var definitions = (0..<15).map { definition(["w\($0)"], .concatenation([.reference(["w\($0 + 1)"]), .reference(["w\($0 + 1)"])])) }
        definitions.append(definition(["w15"], .literal("")))
        let resolver = StringResolver(files: [("W.swift", ScannedSource(definitions: definitions))], infoPlist: [:])
        XCTAssertEqual(resolver.resolve(.reference(["w0"]), in: "W.swift", line: 1).unknown?.contains("too many steps to resolve"), true)
    }

    /// A build-setting reference is kept apart by where it was written: in a code literal nothing
    /// expands it (`variableInCode`); from the Info.plist it is Xcode's to expand (not set).
    func testABuildSettingInACodeLiteralIsMarkedAndOneFromTheInfoPlistIsNot() {
        let source = ScannedSource(definitions: [definition(["Keys", "group"], .literal("$(AppIdentifierPrefix)com.example.shared")),
                                                 definition(["Keys", "braced"], .concatenation([.literal("${TeamIdentifierPrefix}"), .literal("x")]))])
        let resolver = StringResolver(files: [("K.swift", source)], infoPlist: ["AppIdentifierPrefix": "$(AppIdentifierPrefix)"])
        let written = resolver.resolve(.reference(["Keys", "group"]), in: "K.swift", line: 1)
        XCTAssertEqual(written.value, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(written.variableInCode, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertEqual(resolver.resolve(.concatenation([.literal("a."), .reference(["braced"])]), in: "K.swift", line: 1).variableInCode,
                       "${TeamIdentifierPrefix}")
        let read = resolver.resolve(.concatenation([.infoPlist(key: "AppIdentifierPrefix"), .literal("com.example.shared")]), in: "K.swift", line: 1)
        XCTAssertEqual(read.value, "$(AppIdentifierPrefix)com.example.shared")
        XCTAssertNil(read.variableInCode)
        XCTAssertNil(resolver.resolve(.literal("ABCDE12345.com.example.shared"), in: "K.swift", line: 1).variableInCode)
    }
}
