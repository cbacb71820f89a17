import SourceCode
import XCTest

/// Sets of possible values: a `switch` over an enum's cases, a ternary, `#if` branches (also in
/// an immediately invoked closure), each checked on its own, `#if` only where it is compiled.
final class ValueSetTests: XCTestCase {
    /// The group sites of `files`, resolved with `conditions` as the unit's compilation conditions.
    private func groups(_ files: [(String, String)], conditions: Set<String>?) -> [ResolvedString] {
        let scanned = files.map { (path: $0.0, source: scan($0.1, SourceLanguage(path: $0.0) ?? .swift)) }
        let resolver = StringResolver(files: scanned, infoPlist: [:], conditions: conditions)
        return scanned.flatMap { file in file.source.groups.map { resolver.resolve($0.value, in: file.path, line: $0.line) } }
    }

    private func values(_ r: ResolvedString) -> [String] {
        (r.alternatives.isEmpty ? [r] : r.alternatives).map { $0.value ?? "?" + ($0.unknown ?? "") }
    }

    private let site = """
    func save(_ d: Data, _ g: Env) {
        let q: [String: Any] = [kSecAttrAccessGroup as String: g.group]
        SecItemAdd(q as CFDictionary, nil)
    }
    """

    func testAnEnumsComputedPropertyGivesOneValuePerCase() {
        let env = """
        enum Env {
            case production, beta
            var group: String {
                switch self {
                case .production: return "ABCDE12345.com.example.shared"
                case .beta: return "ABCDE12345.com.example.beta"
                }
            }
        }
        """
        let q = #"let q: [String: Any] = [kSecAttrAccessGroup as String: Env.group]"#
        let r = groups([("Env.swift", env), ("Q.swift", q)], conditions: [])
        XCTAssertEqual(r.count, 1)
        XCTAssertEqual(values(r[0]), ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.beta"])
        XCTAssertEqual(r[0].alternatives[1].steps.first, "Env.group (Env.swift:3)")
        XCTAssertEqual(r[0].alternatives[1].steps.dropFirst().first, "case .beta (Env.swift:6)")
        XCTAssertNil(r[0].alternatives[1].undecided)
    }

    func testASwitchExpressionWithoutReturnGivesOneValuePerCase() {
        let env = """
        enum Keys {
            static var group: String {
                switch Config.current {
                case .a: "G.a"
                case .b: "G.b"
                default: "G.c"
                }
            }
        }
        let q: [String: Any] = [kSecAttrAccessGroup as String: Keys.group]
        """
        XCTAssertEqual(values(groups([("K.swift", env)], conditions: [])[0]), ["G.a", "G.b", "G.c"])
    }

    func testATernaryGivesBothSidesAndAnInterpolationJoinsEach() {
        let text = #"""
        let prefix = "ABCDE12345"
        let q: [String: Any] = [kSecAttrAccessGroup as String: isBeta ? "\(prefix).com.example.beta" : "\(prefix).com.example.app"]
        """#
        let r = groups([("T.swift", text)], conditions: [])
        XCTAssertEqual(values(r[0]), ["ABCDE12345.com.example.beta", "ABCDE12345.com.example.app"])
        XCTAssertEqual(r[0].alternatives[0].steps.first, "isBeta ? (true) (T.swift:2)")
        // An optional chain's `?` is no ternary.
        XCTAssertEqual(scan(#"let g = a?.b"#).definitions.first?.value, .unknown("a?.b"))
    }

    func testIfBranchesInAnImmediatelyInvokedClosureFollowTheConditions() {
        let text = """
        enum Keys {
            static let group: String = {
                #if BETA
                return "ABCDE12345.com.example.beta"
                #else
                return "ABCDE12345.com.example.app"
                #endif
            }()
        }
        let q: [String: Any] = [kSecAttrAccessGroup as String: Keys.group]
        """
        XCTAssertEqual(values(groups([("K.swift", text)], conditions: ["BETA"])[0]), ["ABCDE12345.com.example.beta"])
        XCTAssertEqual(values(groups([("K.swift", text)], conditions: ["DEBUG"])[0]), ["ABCDE12345.com.example.app"])
        // Conditions not known: both possible, each undecided (no rule reports on them).
        let open = groups([("K.swift", text)], conditions: nil)[0]
        XCTAssertEqual(values(open), ["ABCDE12345.com.example.beta", "ABCDE12345.com.example.app"])
        XCTAssertEqual(open.alternatives.map(\.undecided), ["BETA", "!BETA"])
    }

    func testDefinitionsInIfBranchesAreChosenByTheConfiguration() {
        let text = """
        enum Keys {
        #if DEBUG
            static let group = "ABCDE12345.com.example.debug"
        #elseif os(macOS)
            static let group = "ABCDE12345.com.example.mac"
        #else
            static let group = "ABCDE12345.com.example.app"
        #endif
        }
        let q: [String: Any] = [kSecAttrAccessGroup as String: Keys.group]
        """
        let debug = groups([("K.swift", text)], conditions: ["DEBUG"])[0]
        XCTAssertEqual(debug.value, "ABCDE12345.com.example.debug")
        let release = groups([("K.swift", text)], conditions: [])[0]
        XCTAssertEqual(values(release), ["ABCDE12345.com.example.mac", "ABCDE12345.com.example.app"])
        // The platform test is not decided by build settings: both remaining branches are undecided.
        XCTAssertEqual(release.alternatives.map(\.undecided), ["!DEBUG && os(macOS)", "!DEBUG && !os(macOS)"].map { Optional($0) })
    }

    func testConditionsEvaluate() {
        func c(_ text: String) -> StringDefinition? {
            scan("#if \(text)\nlet x = \"a\"\n#endif").definitions.first
        }
        XCTAssertEqual(c("DEBUG && !BETA")?.condition?.holds(["DEBUG"]), true)
        XCTAssertEqual(c("DEBUG && !BETA")?.condition?.holds(["DEBUG", "BETA"]), false)
        XCTAssertEqual(c("(A || B) && C")?.condition?.holds(["B", "C"]), true)
        XCTAssertEqual(c("A || os(iOS)")?.condition?.holds(["A"]), true)
        XCTAssertNil(c("A || os(iOS)")?.condition?.holds([]))
        XCTAssertNil(c("DEBUG")?.condition?.holds(nil))
    }

    func testEmptyAndNilFallbacksAreNoGroupAndSetsAreBounded() {
        let text = """
        enum Keys {
            static var group: String? {
                guard let p = prefix else { return nil }
                if p.isEmpty { return "" }
                return "ABCDE12345.com.example.app"
            }
        }
        let q: [String: Any] = [kSecAttrAccessGroup as String: Keys.group]
        """
        XCTAssertEqual(values(groups([("K.swift", text)], conditions: [])[0]), ["ABCDE12345.com.example.app"])
        // Five ternaries joined: 32 combinations, more than the bound: unknown at that bound.
        let many = #"let q: [String: Any] = [kSecAttrAccessGroup as String: (a ? "1" : "2") + (b ? "1" : "2") + (c ? "1" : "2") + (d ? "1" : "2") + (e ? "1" : "2")]"#
        let r = groups([("M.swift", many)], conditions: [])[0]
        XCTAssertNil(r.value)
        XCTAssertEqual(r.limit, "more than 16 possible values")
    }

    func testObjectiveCTernaryAndStringWithFormat() {
        let text = #"""
        #define kPrefix @"ABCDE12345"
        #define kBase kPrefix
        - (void)save {
            NSString *g = [NSString stringWithFormat:@"%@.com.example.%@", kBase, @"shared"];
            query[(__bridge id)kSecAttrAccessGroup] = g;
            query[(__bridge id)kSecAttrAccessGroup] = flag ? @"A.one" : @"A.two";
            query[(__bridge id)kSecAttrAccessGroup] = [NSString stringWithFormat:@"%d.group", 3];
        }
        """#
        let r = groups([("S.m", text)], conditions: [])
        XCTAssertEqual(r.count, 3)
        XCTAssertEqual(r[0].value, "ABCDE12345.com.example.shared")
        XCTAssertEqual(values(r[1]), ["A.one", "A.two"])
        XCTAssertNil(r[2].value)
        XCTAssertEqual(r[2].unknown, "a format with a placeholder other than %@")
    }
}
