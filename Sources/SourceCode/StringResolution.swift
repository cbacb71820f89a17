/// What one resolution gives: the value or why it is unknown, and what it cost as the unresolved
/// recursion counts it (`cost` steps, references down to `reach` levels below), so that a memoised
/// result is used only where computing it again would give the same.
struct Outcome {
    var value: String?
    var unknown: String?
    var usesInfoPlist = false
    var steps: [String] = []
    /// The bound that made it unknown (a step budget, the depth, a size cap), for the run's notice.
    var limit: String?
    /// Set on a list of candidates that disagree: rendered with the name as written where used.
    var ambiguous: Int?
    /// A string literal of the code, part of the value, that holds a build-setting reference.
    var variableInCode: String?
    /// Several possible values (`ValueSets.swift`), each one flat outcome; `value` is then nil.
    var alternatives: [Outcome] = []
    /// The `#if` condition this value is compiled under that the unit's settings do not decide.
    var undecided: String?

    static func unknown(_ why: String) -> Outcome { Outcome(value: nil, unknown: why) }
    static func limited(_ why: String) -> Outcome { Outcome(value: nil, unknown: why, limit: why) }
}

/// Resolves the sites of one unit with one memo: each definition and each list of candidates is
/// resolved once and reused wherever reusing it gives what resolving again would (same bounds
/// met, no cycle through what is being resolved). Its work (steps, memo hits, lookups) is counted
/// in `work` and bounded by `allowance`: past it every value is unknown, with that as its limit.
public struct StringResolution {
    public let resolver: StringResolver
    /// The work this resolution may do: its share of the run's budget.
    public let allowance: Int
    /// The work done so far.
    public private(set) var work = 0
    /// True once `allowance` was used up: the values resolved after are unknown.
    public private(set) var isExhausted = false
    /// Lists resolved to an outcome that does not depend on where they were reached from, with
    /// the steps and levels of references that took.
    private var memo: [ListKey: Memo] = [:]
    /// Lists that ran out of steps when reached with this many steps already taken (so reaching
    /// them with as many or more runs out again), with what that gave.
    private var outOfSteps: [ListKey: (from: Int, outcome: Outcome)] = [:]
    /// The tables made for the names looked up (each numbered), and for each file and name with
    /// local definitions their scopes.
    private var tables: [String: (id: Int, table: NameTable)] = [:]
    private var scopes: [ScopeKey: ScopeTable] = [:]

    /// Where a list of candidates comes from: the memo is keyed by it.
    enum ListKey: Hashable {
        case entry(Int)
        case exact(table: Int, node: Int)
        case suffix(table: Int, node: Int)
    }

    struct ScopeKey: Hashable {
        var file: String
        var name: String
    }

    struct Memo {
        var outcome: Outcome
        var cost: Int
        var reach: Int
    }

    /// The state of resolving one value.
    struct State {
        var steps = 0
        var visiting = Set<Int>()
        /// The deepest reference level entered.
        var deepest = 0
        /// Incremented whenever a result came from where it was reached (a depth or step bound,
        /// a cycle through a definition being resolved), so that it is not memoised.
        var contextual = 0
        /// As `contextual`, for the step budget alone.
        var outOfSteps = 0
    }

    public init(_ resolver: StringResolver, allowance: Int = Int.max) {
        self.resolver = resolver
        self.allowance = allowance
    }

    public static let exhausted = "the run's budget for resolving code is used up"
    static let tooLong = "a value longer than \(StringResolver.maxValueBytes) bytes"

    /// Resolves `expression`, written at `line` of the file `path`.
    public mutating func resolve(_ expression: StringExpression, in path: String, line: Int) -> ResolvedString {
        var state = State()
        let outcome = resolve(expression, file: path, line: line, context: [], depth: 0, state: &state)
        if !outcome.alternatives.isEmpty {
            var resolved = ResolvedString(value: nil, unknown: "one of \(outcome.alternatives.count) possible values", usesInfoPlist: false,
                                          isLiteralAtSite: false, steps: [])
            resolved.alternatives = outcome.alternatives.map { one in
                var r = ResolvedString(value: one.value, unknown: one.value == nil ? (one.unknown ?? "unknown") : nil, usesInfoPlist: one.usesInfoPlist,
                                       isLiteralAtSite: false, steps: one.steps, limit: one.value == nil ? one.limit : nil)
                if one.value != nil { r.variableInCode = one.variableInCode }
                r.undecided = one.undecided
                return r
            }
            return resolved
        }
        var isLiteral = false
        if case .literal = expression { isLiteral = true }
        var resolved = ResolvedString(value: outcome.value, unknown: outcome.value == nil ? (outcome.unknown ?? "unknown") : nil,
                                      usesInfoPlist: outcome.usesInfoPlist, isLiteralAtSite: isLiteral && outcome.value != nil,
                                      steps: outcome.steps, limit: outcome.value == nil ? outcome.limit : nil)
        if outcome.value != nil { resolved.variableInCode = outcome.variableInCode }
        return resolved
    }

    /// Counts `n` units of work; false once the allowance is used up.
    mutating func charge(_ n: Int = 1) -> Bool {
        work += n
        if work > allowance { isExhausted = true }
        return !isExhausted
    }

    mutating func resolve(_ expression: StringExpression, file: String, line: Int, context: ArraySlice<String>, depth: Int,
                                  nesting: Int = 0, state: inout State) -> Outcome {
        state.steps += 1
        guard charge() else {
            state.contextual += 1
            return .limited(Self.exhausted)
        }
        guard state.steps <= StringResolver.stepBudget else {
            state.contextual += 1
            state.outOfSteps += 1
            return .limited("too many steps to resolve")
        }
        guard nesting <= StringResolver.maxNesting else {
            return .limited("an expression nested more than \(StringResolver.maxNesting) deep")
        }
        let tooLong = Self.tooLong
        switch expression {
        case .literal(let text):
            guard text.utf8.count <= StringResolver.maxValueBytes else { return .limited(tooLong) }
            var out = Outcome(value: text)
            if text.contains("$(") || text.contains("${") { out.variableInCode = text }
            return out
        case .unknown(let why):
            return .unknown(why)
        case .overLimit(let why):
            return .limited(why)
        case .infoPlist(let key):
            guard let value = resolver.infoPlist[key] else { return .unknown("Info.plist has no entry \(key)") }
            guard value.utf8.count <= StringResolver.maxValueBytes else { return .limited(tooLong) }
            return Outcome(value: value, unknown: nil, usesInfoPlist: true, steps: ["Info.plist \(key)"])
        case .alternatives(let list):
            return alternatives(list, file: file, line: line, context: context, depth: depth, nesting: nesting, state: &state)
        case .concatenation(let parts):
            var out = Outcome(value: "")
            var bytes = 0
            for (n, part) in parts.enumerated() {
                let r = resolve(part, file: file, line: line, context: context, depth: depth, nesting: nesting + 1, state: &state)
                if !r.alternatives.isEmpty {
                    return joined(parts, file: file, line: line, context: context, depth: depth, nesting: nesting, state: &state)
                }
                guard let piece = r.value else {
                    var unknown = Outcome.unknown("part \(n + 1) is unknown: \(r.unknown ?? "unknown")")
                    unknown.limit = r.limit
                    return unknown
                }
                bytes += piece.utf8.count
                if bytes > StringResolver.maxValueBytes { return .limited(tooLong) }
                out.value! += piece
                out.usesInfoPlist = out.usesInfoPlist || r.usesInfoPlist
                out.variableInCode = out.variableInCode ?? r.variableInCode
                out.steps += r.steps.prefix(StringResolver.maxKeptSteps - out.steps.count)
            }
            return out
        case .reference(let names):
            return reference(names, file: file, line: line, context: context, depth: depth, state: &state)
        }
    }

    private mutating func reference(_ names: [String], file: String, line: Int, context: ArraySlice<String>, depth: Int,
                                    state: inout State) -> Outcome {
        let shown = names.joined(separator: ".")
        guard depth < StringResolver.maxDepth else {
            state.contextual += 1
            return .limited("references nested more than \(StringResolver.maxDepth) deep")
        }
        state.deepest = max(state.deepest, depth)
        var lookups = 0
        let found = candidates(names, file: file, line: line, context: context, work: &lookups)
        guard charge(lookups) else {
            state.contextual += 1
            return .limited(Self.exhausted)
        }
        guard let (key, list) = found else {
            // A type alias in the name: the name it stands for, one level of references deeper
            // (so aliases of aliases stop at the depth bound, and a cycle of aliases too).
            if let (expanded, step) = resolver.expandingAlias(names) {
                var out = reference(expanded, file: file, line: line, context: context, depth: depth + 1, state: &state)
                if out.value != nil {
                    out.steps.insert(step, at: 0)
                    if out.steps.count > StringResolver.maxKeptSteps { out.steps.removeLast() }
                }
                return out
            }
            return .unknown("no definition of \(shown) found")
        }
        if let memo = memo[key], depth + memo.reach < StringResolver.maxDepth, state.steps + memo.cost <= StringResolver.stepBudget {
            state.steps += memo.cost
            state.deepest = max(state.deepest, depth + memo.reach)
            return rendered(memo.outcome, shown)
        }
        if let known = outOfSteps[key], state.steps >= known.from {
            state.steps = StringResolver.stepBudget + 1
            state.contextual += 1
            state.outOfSteps += 1
            return rendered(known.outcome, shown)
        }
        let (startSteps, startDeepest, startContextual, startOutOfSteps) = (state.steps, state.deepest, state.contextual, state.outOfSteps)
        state.deepest = depth
        let outcome = candidates(list, shown: shown, depth: depth, state: &state)
        let reach = state.deepest - depth
        state.deepest = max(startDeepest, state.deepest)
        if state.contextual == startContextual {
            memo[key] = Memo(outcome: outcome, cost: state.steps - startSteps, reach: reach)
        } else if state.outOfSteps - startOutOfSteps == state.contextual - startContextual {
            // Only the step budget was met: from as many steps or more, it is met again.
            if startSteps < outOfSteps[key]?.from ?? Int.max { outOfSteps[key] = (startSteps, outcome) }
        }
        return rendered(outcome, shown)
    }

    /// The candidates of `names` written at `line` of `file` inside the definition whose enclosing
    /// types are `context`: the innermost local constant of that name whose scope holds the line
    /// (a plain name only); else the unit-wide definitions whose path is exactly a prefix of the
    /// context followed by `names` (longest prefix first); else those whose path ends with `names`.
    /// `work` counts the names hashed, and the building of any table made for them.
    private mutating func candidates(_ names: [String], file: String, line: Int, context: ArraySlice<String>,
                                     work: inout Int) -> (key: ListKey, list: [Int])? {
        guard let last = names.last else { return nil }
        work += DefinitionIndex.weight(last)
        if names.count == 1, let scoped = resolver.index.locals[file]?[last] {
            work += DefinitionIndex.weight(file)
            let key = ScopeKey(file: file, name: last)
            if scopes[key] == nil {
                scopes[key] = ScopeTable(scoped)
                work += 2 * scoped.count
            }
            if let local = scopes[key]!.innermost(at: line) { return (.entry(local), [local]) }
        }
        guard let list = resolver.index.byName[last] else { return nil }
        if tables[last] == nil {
            let table = NameTable(list) { resolver.entries[$0].definition.path }
            work += table.buildWork
            tables[last] = (tables.count, table)
        }
        let (id, table) = tables[last]!
        guard let named = table.walk(names.dropLast().reversed(), work: &work) else { return nil }
        var prefix = context.count
        while prefix > 0 {
            if let node = table.walk(context.prefix(prefix).reversed(), from: named, work: &work), !table.exact[node].isEmpty {
                return keyed(.exact(table: id, node: node), table.exact[node])
            }
            prefix -= 1
        }
        return keyed(.suffix(table: id, node: named), table.suffix[named])
    }

    private func keyed(_ key: ListKey, _ list: [Int]) -> (key: ListKey, list: [Int])? {
        if list.isEmpty { return nil }
        return list.count == 1 ? (.entry(list[0]), list) : (key, list)
    }

    /// Resolves a list of candidates: chosen by the unit's conditions when some are defined in
    /// `#if` branches (`conditioned`), else they must agree (`agreeing`).
    private mutating func candidates(_ list: [Int], shown: String, depth: Int, state: inout State) -> Outcome {
        if list.contains(where: { resolver.entries[$0].definition.condition != nil }) {
            return conditioned(list, shown: shown, depth: depth, state: &state)
        }
        return agreeing(list, shown: shown, depth: depth, state: &state)
    }

    private func rendered(_ outcome: Outcome, _ shown: String) -> Outcome {
        guard let count = outcome.ambiguous else { return outcome }
        var out = Outcome.unknown("ambiguous: \(count) definitions of \(shown)")
        out.limit = outcome.limit
        return out
    }
}
