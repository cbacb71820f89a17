import SourceCode
import XCTest

/// Objective-C and C `#if` branches: the scanner records the condition of each place and each
/// `#define`, and the unit's macros decide them as far as they are known.
final class PreprocessorConditionTests: XCTestCase {
    private func condition(_ directive: String) -> CompilationCondition? {
        let text = directive + "\nNSString *q = @{ (__bridge id)kSecAttrAccessGroup: @\"G\" };\n#endif\n"
        let source = scan(text, .objectiveC)
        XCTAssertEqual(source.groups.count, 1, directive)
        return source.groups.first?.condition
    }

    func testTheConditionsReadAreDefinedMacrosLiteralsAndTheirCombinations() {
        XCTAssertEqual(condition("#ifdef DEBUG"), .defined("DEBUG"))
        XCTAssertEqual(condition("#ifndef DEBUG // release only"), .not(.defined("DEBUG")))
        XCTAssertEqual(condition("#if defined(DEBUG) && !defined BETA"), .and(.defined("DEBUG"), .not(.defined("BETA"))))
        XCTAssertEqual(condition("#if (BETA || STAGING) /* both */"), .or(.macro("BETA"), .macro("STAGING")))
        XCTAssertEqual(condition("#if 0"), .not(.always))
        XCTAssertEqual(condition("#if DEBUG && \\\n    BETA"), .and(.macro("DEBUG"), .macro("BETA")))
        // Comparisons and function-like macros are not read.
        XCTAssertEqual(condition("#if VERSION > 2"), .unknown("VERSION > 2"))
        XCTAssertEqual(condition("#if __has_include(<Foo/Foo.h>) && DEBUG"), .and(.unknown("__has_include(<Foo/Foo.h>)"), .macro("DEBUG")))
    }

    func testElifAndElseTakeTheEarlierBranchesNegatedAndAnIncludeGuardAlwaysHolds() {
        let text = """
        #ifndef STORE_H
        #define STORE_H
        #if BETA
        #define kGroup @"G.beta"
        #elif defined(STAGING)
        #define kGroup @"G.staging"
        #else
        #define kGroup @"G.shared"
        #endif
        static void save(void) { NSDictionary *q = @{ (__bridge id)kSecAttrAccessGroup: kGroup }; }
        #endif
        """
        let source = scan(text, .objectiveC)
        XCTAssertEqual(source.definitions.map(\.condition), [
            .macro("BETA"),
            .and(.not(.macro("BETA")), .defined("STAGING")),
            .and(.not(.macro("BETA")), .not(.defined("STAGING"))),
        ])
        XCTAssertEqual(source.groups.map(\.condition), [nil])
    }

    func testMacrosDecideWhenKnownAndACodeDefinitionOrAnSDKNameLeavesThemUndecided() {
        let known = ConditionFacts(macros: ["DEBUG": "1", "LEVEL": "0", "NAME": "abc"], codeMacros: ["LOCAL"])
        XCTAssertEqual(CompilationCondition.defined("DEBUG").holds(known), true)
        XCTAssertEqual(CompilationCondition.macro("DEBUG").holds(known), true)
        XCTAssertEqual(CompilationCondition.macro("LEVEL").holds(known), false)
        XCTAssertEqual(CompilationCondition.defined("LEVEL").holds(known), true)
        XCTAssertNil(CompilationCondition.macro("NAME").holds(known), "not an integer")
        XCTAssertEqual(CompilationCondition.macro("BETA").holds(known), false, "defined nowhere: 0")
        XCTAssertEqual(CompilationCondition.defined("BETA").holds(known), false)
        XCTAssertNil(CompilationCondition.defined("LOCAL").holds(known), "the code defines it")
        XCTAssertNil(CompilationCondition.macro("TARGET_OS_SIMULATOR").holds(known), "the SDK defines it")
        XCTAssertNil(CompilationCondition.defined("__OBJC__").holds(known), "the compiler defines it")
        XCTAssertEqual(CompilationCondition.and(.macro("BETA"), .unknown("X > 1")).holds(known), false)
        // The code not fully known: a name the settings do not define is undecided, one they define is not.
        let partial = ConditionFacts(macros: ["DEBUG": "1"], codeMacros: nil)
        XCTAssertNil(CompilationCondition.defined("BETA").holds(partial))
        XCTAssertEqual(CompilationCondition.defined("DEBUG").holds(partial), true)
        // The settings not known: only literals decide.
        let unknown = ConditionFacts(macros: nil, codeMacros: [])
        XCTAssertNil(CompilationCondition.defined("DEBUG").holds(unknown))
        XCTAssertEqual(CompilationCondition.not(.always).holds(unknown), false)
        // Swift flags never decide a C macro, nor the reverse.
        XCTAssertNil(CompilationCondition.macro("DEBUG").holds(ConditionFacts(swift: ["DEBUG"])))
        XCTAssertNil(CompilationCondition.flag("DEBUG").holds(known))
    }

    func testADefineInEachBranchGivesTheValueTheMacrosCompile() {
        let store = """
        #ifdef DEBUG
        #define kGroup @"ABCDE12345.com.example.debug"
        #else
        #define kGroup @"ABCDE12345.com.example.shared"
        #endif
        static void save(void) { NSDictionary *q = @{ (__bridge id)kSecAttrAccessGroup: kGroup }; }
        """
        let scanned = [(path: "Store.m", source: scan(store, .objectiveC))]
        func values(_ facts: ConditionFacts) -> [String] {
            let r = StringResolver(files: scanned, infoPlist: [:], facts: facts).resolve(scanned[0].source.groups[0].value, in: "Store.m", line: 6)
            return (r.alternatives.isEmpty ? [r] : r.alternatives).map { ($0.value ?? "?") + ($0.undecided.map { " if " + $0 } ?? "") }
        }
        XCTAssertEqual(values(ConditionFacts(macros: ["DEBUG": "1"], codeMacros: [])), ["ABCDE12345.com.example.debug"])
        XCTAssertEqual(values(ConditionFacts(macros: [:], codeMacros: [])), ["ABCDE12345.com.example.shared"])
        XCTAssertEqual(values(ConditionFacts()), ["ABCDE12345.com.example.debug if defined(DEBUG)",
                                                  "ABCDE12345.com.example.shared if !defined(DEBUG)"])
    }

    func testMacroNamesAndQuotedIncludesAreFoundOnRawBytesDirectivesOnly() {
        let text = "#define A 1\n  #  undef B\nint x; // #define C\n#import <D.h>\n#define E(x) x\n#import \"Sub/F.h\"\n# include \"G.h\"\n"
        let found = SourceFilter.preprocessorNames(Array(text.utf8))
        XCTAssertEqual(found.defined, ["A", "B", "E"])
        XCTAssertEqual(found.included, ["F.h", "G.h"])
    }

    func testHostileConditionsAreBoundedAndUnknown() {
        let deep = String(repeating: "(", count: 200) + "A" + String(repeating: ")", count: 200)
        XCTAssertEqual(condition("#if " + deep).map { $0.holds(ConditionFacts(macros: ["A": "1"], codeMacros: [])) }, .some(nil))
        let long = "#if " + Array(repeating: "A", count: 400).joined(separator: " && ")
        XCTAssertEqual(condition(long), .unknown("a long condition"))
        let chain = "#if " + Array(repeating: "A", count: 40).joined(separator: " || ")
        XCTAssertEqual(condition(chain).map { $0.holds(ConditionFacts(macros: [:], codeMacros: [])) }, .some(nil),
                       "past 16 terms the rest is not read: unknown")
        // `#if`s nested past the stack's bound: the inner ones are unknown, the place undecided.
        var nested = ""
        for _ in 0..<40 { nested += "#if 1\n" }
        nested += "NSString *q = @{ (__bridge id)kSecAttrAccessGroup: @\"G\" };\n"
        for _ in 0..<40 { nested += "#endif\n" }
        let site = scan(nested, .objectiveC).groups.first
        XCTAssertNotNil(site?.condition)
        XCTAssertNil(site?.condition?.holds(ConditionFacts(macros: [:], codeMacros: [])))
    }
}
