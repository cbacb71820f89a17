import XCTest
import SourceCode

/// The indexed, memoised resolver gives what the plain rules give: on random units (cycles,
/// shadowing locals, ambiguous names, chains past the depth bound, Info.plist reads), every site
/// resolved through one shared `StringResolution` equals a plain recursion that filters every
/// definition at every lookup and memoises nothing (written below from the rules in
/// `StringResolver`'s documentation), steps included (the first `maxKeptSteps` of them).
final class ResolverEquivalenceTests: XCTestCase {
    /// The rules, resolved the slow way.
    struct PlainResolver {
        let definitions: [(definition: StringDefinition, file: String)]
        let infoPlist: [String: String]
        /// Definitions by last name (only to keep the test quick: every filter below still reads
        /// all the definitions of that name).
        let byLast: [String: [Int]]

        init(definitions: [(definition: StringDefinition, file: String)], infoPlist: [String: String]) {
            self.definitions = definitions
            self.infoPlist = infoPlist
            byLast = Dictionary(grouping: definitions.indices, by: { definitions[$0].definition.path.last ?? "" })
        }

        struct Result {
            var value: String?
            var unknown: String?
            var usesInfoPlist = false
            var steps: [String] = []
        }

        func resolve(_ e: StringExpression, file: String, line: Int) -> (Result, outOfSteps: Bool) {
            var steps = 0
            var visiting = Set<Int>()
            let r = resolve(e, file, line, [], 0, 0, &steps, &visiting)
            return (r, steps > 4096)
        }

        private func resolve(_ e: StringExpression, _ file: String, _ line: Int, _ context: [String], _ depth: Int, _ nesting: Int,
                             _ steps: inout Int, _ visiting: inout Set<Int>) -> Result {
            steps += 1
            if steps > 4096 { return Result(unknown: "too many steps to resolve") }
            if nesting > 64 { return Result(unknown: "an expression nested more than 64 deep") }
            switch e {
            case .literal(let s): return s.utf8.count > 1024 ? Result(unknown: "a value longer than 1024 bytes") : Result(value: s)
            case .unknown(let why), .overLimit(let why): return Result(unknown: why)
            // The expressions generated here hold no value sets (`ValueSetTests` covers them).
            case .alternatives: return Result(unknown: "a value set")
            case .infoPlist(let key):
                guard let v = infoPlist[key] else { return Result(unknown: "Info.plist has no entry \(key)") }
                return Result(value: v, usesInfoPlist: true, steps: ["Info.plist \(key)"])
            case .concatenation(let parts):
                var out = Result(value: "")
                for (n, part) in parts.enumerated() {
                    let r = resolve(part, file, line, context, depth, nesting + 1, &steps, &visiting)
                    guard let piece = r.value else { return Result(unknown: "part \(n + 1) is unknown: \(r.unknown ?? "unknown")") }
                    out.value! += piece
                    out.usesInfoPlist = out.usesInfoPlist || r.usesInfoPlist
                    out.steps += r.steps
                    if out.value!.utf8.count > 1024 { return Result(unknown: "a value longer than 1024 bytes") }
                }
                return out
            case .reference(let names):
                let shown = names.joined(separator: ".")
                guard depth < 16 else { return Result(unknown: "references nested more than 16 deep") }
                let found = candidates(names, file, line, context)
                guard !found.isEmpty else { return Result(unknown: "no definition of \(shown) found") }
                var results: [Result] = []
                for index in found {
                    guard !visiting.contains(index) else { return Result(unknown: "\(shown) is defined in terms of itself") }
                    let d = definitions[index]
                    visiting.insert(index)
                    var r = resolve(d.definition.value, d.file, d.definition.line, Array(d.definition.path.dropLast()), depth + 1, 0, &steps, &visiting)
                    visiting.remove(index)
                    r.steps.insert("\(d.definition.path.joined(separator: ".")) (\(d.file):\(d.definition.line))", at: 0)
                    results.append(r)
                }
                if results.count == 1 { return results[0] }
                guard Set(results.compactMap(\.value)).count == 1, results.allSatisfy({ $0.value != nil }) else {
                    return Result(unknown: "ambiguous: \(results.count) definitions of \(shown)")
                }
                return results[0]
            }
        }

        private func candidates(_ names: [String], _ file: String, _ line: Int, _ context: [String]) -> [Int] {
            let indices = byLast[names.last ?? ""] ?? []
            if names.count == 1 {
                let visible = indices.filter {
                    definitions[$0].file == file && definitions[$0].definition.path == names && definitions[$0].definition.scope?.contains(line) == true
                }
                if let innermost = visible.min(by: { definitions[$0].definition.scope!.count < definitions[$1].definition.scope!.count }) {
                    return [innermost]
                }
            }
            let all = indices.filter { definitions[$0].definition.scope == nil }
            var prefix = context.count
            while prefix > 0 {
                let exact = all.filter { definitions[$0].definition.path == Array(context[0..<prefix]) + names }
                if !exact.isEmpty { return exact }
                prefix -= 1
            }
            return all.filter { definitions[$0].definition.path.count >= names.count && Array(definitions[$0].definition.path.suffix(names.count)) == names }
        }
    }

    /// A small deterministic generator (a linear congruential sequence).
    struct Random {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    private func expression(_ random: inout Random, depth: Int) -> StringExpression {
        switch random.next(depth > 2 ? 4 : 7) {
        case 0: return .literal(random.pick(["x", "y", "", "ABCDE12345."]))
        case 1: return .reference(random.next(3) == 0 ? [random.pick(["T", "U"]), random.pick(["a", "b", "c"])] : [random.pick(["a", "b", "c", "d"])])
        case 2: return .reference([random.next(2) == 0 ? "c\(random.next(26))" : "w\(random.next(14))"])
        case 3: return random.next(4) == 0 ? .infoPlist(key: random.pick(["K", "Missing"])) : .unknown("u")
        default: return .concatenation((0...random.next(3)).map { _ in expression(&random, depth: depth + 1) })
        }
    }

    func testTheMemoisedResolverGivesWhatThePlainRulesGive() {
        var compared = 0, outOfSteps = 0, known = 0, cycles = 0, ambiguous = 0, tooDeep = 0
        for seed in 1...300 {
            var random = Random(state: UInt64(seed))
            var files: [String: [StringDefinition]] = ["A.swift": [], "B.swift": []]
            for _ in 0..<(4 + random.next(30)) {
                let file = random.pick(["A.swift", "B.swift"])
                let line = 1 + random.next(30)
                if random.next(4) == 0 {
                    let lo = 1 + random.next(25)
                    files[file]!.append(StringDefinition(path: [random.pick(["a", "b", "c"])], line: lo, value: expression(&random, depth: 0),
                                                         scope: lo...(lo + random.next(12))))
                } else {
                    let path = (0..<random.next(3)).map { _ in random.pick(["T", "U"]) } + [random.pick(["a", "b", "c", "d"])]
                    files[file]!.append(StringDefinition(path: path, line: line, value: expression(&random, depth: 0)))
                }
            }
            // A chain of references (past the depth bound from its far end), and a tree whose
            // every level doubles the steps (past the step budget from its root).
            let chain = random.next(27)
            for k in 0..<chain {
                files[random.pick(["A.swift", "B.swift"])]!.append(StringDefinition(path: ["c\(k)"], line: 1, value: k + 1 == chain ? .literal("z") : .reference(["c\(k + 1)"])))
            }
            let tree = random.next(10) == 0 ? 13 : 0
            for k in 0..<tree {
                files["B.swift"]!.append(StringDefinition(path: ["w\(k)"], line: 2, value: k + 1 == tree ? .literal("") : .concatenation([.reference(["w\(k + 1)"]), .reference(["w\(k + 1)"])])))
            }
            let ordered = ["A.swift", "B.swift"].map { (path: $0, source: ScannedSource(definitions: files[$0]!)) }
            let infoPlist = ["K": "ABCDE12345"]
            let plain = PlainResolver(definitions: ordered.flatMap { f in f.source.definitions.map { ($0, f.path) } }, infoPlist: infoPlist)
            var resolution = StringResolution(StringResolver(files: ordered, infoPlist: infoPlist))
            for _ in 0..<40 {
                let file = random.pick(["A.swift", "B.swift"])
                let line = 1 + random.next(30)
                let site = expression(&random, depth: 0)
                let got = resolution.resolve(site, in: file, line: line)
                let (want, tripped) = plain.resolve(site, file: file, line: line)
                if tripped {
                    // Past the step budget both are unknown (the wording may differ).
                    XCTAssertNil(got.value, "seed \(seed)")
                    outOfSteps += 1
                    continue
                }
                XCTAssertEqual(got.value, want.value, "seed \(seed)")
                XCTAssertEqual(got.unknown, want.unknown, "seed \(seed)")
                XCTAssertEqual(got.usesInfoPlist, want.usesInfoPlist, "seed \(seed)")
                XCTAssertEqual(got.steps, Array(want.steps.prefix(StringResolver.maxKeptSteps)), "seed \(seed)")
                compared += 1
                if want.value != nil { known += 1 }
                if want.unknown?.contains("terms of itself") == true { cycles += 1 }
                if want.unknown?.contains("ambiguous") == true { ambiguous += 1 }
                if want.unknown?.contains("nested more than 16 deep") == true { tooDeep += 1 }
            }
        }
        // The random units do exercise every kind of result.
        XCTAssertGreaterThan(compared, 10_000)
        XCTAssertGreaterThan(known, 1_000)
        XCTAssertGreaterThan(cycles, 40)
        XCTAssertGreaterThan(ambiguous, 1_000)
        XCTAssertGreaterThan(tooDeep, 50)
        XCTAssertGreaterThan(outOfSteps, 20)
    }
}
