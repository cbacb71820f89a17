/// Resolves group expressions over the files one unit compiles.
///
/// A name is looked up first among the local constants of the same file whose scope holds the
/// line (innermost first), then among the members of the enclosing types of the definition being
/// resolved (`static let a = "\(b).x"` finds its own type's `b` first), then among all of the
/// unit's file-level and member definitions whose path ends with the name's components. Several
/// candidates with different values, or any unknown, make the result unknown. Bounded: 16 levels
/// of references, cycles are unknown, values longer than 1,024 bytes are unknown, and one call
/// does at most `stepBudget` lookups.
public struct StringResolver: Sendable {
    struct Entry: Sendable {
        var definition: StringDefinition
        var file: String
    }

    static let maxDepth = 16
    /// Parts inside parts, counted apart from references (a scanned expression has at most
    /// `ExpressionParser.maxDepth` levels; this bounds hand-made ones).
    static let maxNesting = 64
    static let maxValueBytes = 1024
    static let stepBudget = 4096

    let entries: [Entry]
    /// Unit-wide definitions by their last path component.
    let byName: [String: [Int]]
    /// Local definitions by file, then by name.
    let locals: [String: [String: [Int]]]
    let infoPlist: [String: String]

    /// `files`: each scanned file of the unit with its path as shown in messages;
    /// `infoPlist`: the unit's Info.plist string entries, already evaluated with its build settings.
    public init(files: [(path: String, source: ScannedSource)], infoPlist: [String: String]) {
        var entries: [Entry] = []
        var byName: [String: [Int]] = [:]
        var locals: [String: [String: [Int]]] = [:]
        for (path, source) in files {
            for definition in source.definitions {
                guard let name = definition.path.last else { continue }
                entries.append(Entry(definition: definition, file: path))
                if definition.scope == nil {
                    byName[name, default: []].append(entries.count - 1)
                } else {
                    locals[path, default: [:]][name, default: []].append(entries.count - 1)
                }
            }
        }
        self.entries = entries
        self.byName = byName
        self.locals = locals
        self.infoPlist = infoPlist
    }

    /// Resolves `expression`, written at `line` of the file `path`. Bounded: a fixed depth of
    /// references, cycles are unknown, and a value longer than a fixed size is unknown.
    public func resolve(_ expression: StringExpression, in path: String, line: Int) -> ResolvedString {
        var state = State()
        let outcome = resolve(expression, file: path, line: line, context: [], depth: 0, state: &state)
        var isLiteral = false
        if case .literal = expression { isLiteral = true }
        return ResolvedString(value: outcome.value, unknown: outcome.value == nil ? (outcome.unknown ?? "unknown") : nil,
                              usesInfoPlist: outcome.usesInfoPlist, isLiteralAtSite: isLiteral && outcome.value != nil,
                              steps: outcome.steps)
    }

    struct State {
        var steps = 0
        var visiting = Set<Int>()
    }

    struct Outcome {
        var value: String?
        var unknown: String?
        var usesInfoPlist = false
        var steps: [String] = []

        static func unknown(_ why: String) -> Outcome { Outcome(value: nil, unknown: why) }
    }

    private func resolve(_ expression: StringExpression, file: String, line: Int, context: [String], depth: Int,
                         nesting: Int = 0, state: inout State) -> Outcome {
        state.steps += 1
        guard state.steps <= StringResolver.stepBudget else { return .unknown("too many steps to resolve") }
        guard nesting <= StringResolver.maxNesting else { return .unknown("an expression nested more than \(StringResolver.maxNesting) deep") }
        switch expression {
        case .literal(let text):
            return text.utf8.count > StringResolver.maxValueBytes ? .unknown("a value longer than \(StringResolver.maxValueBytes) bytes") : Outcome(value: text)
        case .unknown(let why):
            return .unknown(why)
        case .infoPlist(let key):
            guard let value = infoPlist[key] else { return .unknown("Info.plist has no entry \(key)") }
            guard value.utf8.count <= StringResolver.maxValueBytes else { return .unknown("a value longer than \(StringResolver.maxValueBytes) bytes") }
            return Outcome(value: value, unknown: nil, usesInfoPlist: true, steps: ["Info.plist \(key)"])
        case .concatenation(let parts):
            var out = Outcome(value: "")
            for (n, part) in parts.enumerated() {
                let r = resolve(part, file: file, line: line, context: context, depth: depth, nesting: nesting + 1, state: &state)
                guard let piece = r.value else { return .unknown("part \(n + 1) is unknown: \(r.unknown ?? "unknown")") }
                out.value! += piece
                out.usesInfoPlist = out.usesInfoPlist || r.usesInfoPlist
                out.steps += r.steps
                if out.value!.utf8.count > StringResolver.maxValueBytes { return .unknown("a value longer than \(StringResolver.maxValueBytes) bytes") }
            }
            return out
        case .reference(let names):
            return reference(names, file: file, line: line, context: context, depth: depth, state: &state)
        }
    }

    private func candidates(_ names: [String], file: String, line: Int, context: [String]) -> [Int] {
        guard let last = names.last else { return [] }
        if names.count == 1, let list = locals[file]?[last] {
            let visible = list.filter { entries[$0].definition.scope?.contains(line) == true }
            if let innermost = visible.min(by: { entries[$0].definition.scope!.count < entries[$1].definition.scope!.count }) {
                return [innermost]
            }
        }
        let all = byName[last] ?? []
        var prefix = context.count
        while prefix > 0 {
            let full = Array(context[0..<prefix]) + names
            let exact = all.filter { entries[$0].definition.path == full }
            if !exact.isEmpty { return exact }
            prefix -= 1
        }
        return all.filter { entries[$0].definition.path.count >= names.count && Array(entries[$0].definition.path.suffix(names.count)) == names }
    }

    private func reference(_ names: [String], file: String, line: Int, context: [String], depth: Int, state: inout State) -> Outcome {
        let shown = names.joined(separator: ".")
        guard depth < StringResolver.maxDepth else { return .unknown("references nested more than \(StringResolver.maxDepth) deep") }
        let found = candidates(names, file: file, line: line, context: context)
        guard !found.isEmpty else { return .unknown("no definition of \(shown) found") }
        var results: [Outcome] = []
        for index in found {
            guard !state.visiting.contains(index) else { return .unknown("\(shown) is defined in terms of itself") }
            let entry = entries[index]
            state.visiting.insert(index)
            var r = resolve(entry.definition.value, file: entry.file, line: entry.definition.line,
                            context: Array(entry.definition.path.dropLast()), depth: depth + 1, state: &state)
            state.visiting.remove(index)
            r.steps.insert("\(entry.definition.path.joined(separator: ".")) (\(entry.file):\(entry.definition.line))", at: 0)
            results.append(r)
        }
        if results.count == 1 { return results[0] }
        let values = Set(results.compactMap(\.value))
        guard values.count == 1, results.allSatisfy({ $0.value != nil }) else {
            return .unknown("ambiguous: \(results.count) definitions of \(shown)")
        }
        return results[0]
    }
}
