/// Resolves group expressions over the files one unit compiles.
///
/// A name is looked up first among the local constants of the same file whose scope holds the
/// line (innermost first), then among the members of the enclosing types of the definition being
/// resolved (`static let a = "\(b).x"` finds its own type's `b` first), then among all of the
/// unit's file-level and member definitions whose path ends with the name's components. Several
/// candidates with different values, or any unknown, make the result unknown. Bounded: 16 levels
/// of references, cycles are unknown, values longer than 1,024 bytes are unknown, and one value
/// takes at most `stepBudget` lookups (counted as if nothing were memoised, so the bound and the
/// result do not depend on what was resolved before).
///
/// The definitions are indexed by name and scope once (`DefinitionIndex`); a `StringResolution`
/// resolves each definition and each list of candidates once and keeps the result.
public struct StringResolver: Sendable {
    struct Entry: Sendable {
        var definition: StringDefinition
        var file: String
    }

    public static let maxDepth = 16
    /// Parts inside parts, counted apart from references (a scanned expression has at most
    /// `ExpressionParser.maxDepth` levels; this bounds hand-made ones).
    static let maxNesting = 64
    static let maxValueBytes = 1024
    static let stepBudget = 4096
    /// How many steps of a resolution are kept (messages show the first three): a site's result
    /// stays small however many definitions it went through.
    public static let maxKeptSteps = 16
    /// The work one run may spend resolving the code of all its units (index building, lookups,
    /// resolution steps, memo hits): about a second on this machine. Real projects use a tiny
    /// fraction of it; past it every value is unknown and the run says so.
    public static let runBudget = 8_000_000

    let entries: [Entry]
    let index: DefinitionIndex
    let infoPlist: [String: String]
    /// What decides the unit's `#if` branches (Swift flags, C macros).
    let conditions: ConditionFacts
    /// `conditions` for the files whose C++ or header macros differ (`ConditionFacts.forFile`),
    /// by path; a file not here reads `conditions`.
    private let fileConditions: [String: ConditionFacts]
    /// The unit's type aliases by name: what each names and where; nil for a name that several
    /// aliases give different targets (not followed).
    let aliases: [String: (target: [String], file: String, line: Int)?]

    /// `files`: each scanned file of the unit with its path as shown in messages;
    /// `infoPlist`: the unit's Info.plist string entries, already evaluated with its build settings;
    /// `conditions`: its Swift active compilation conditions (nil: not known, every Swift `#if`
    /// undecided); `facts`, when given, what decides every `#if` (Swift and C), in their place.
    public init(files: [(path: String, source: ScannedSource)], infoPlist: [String: String], conditions: Set<String>? = nil,
                facts: ConditionFacts? = nil) {
        let unitFacts = facts ?? ConditionFacts(swift: conditions)
        self.conditions = unitFacts
        var byFile: [String: ConditionFacts] = [:]
        if unitFacts.cplusplusMacros != unitFacts.macros {
            for (path, _) in files where SourceLanguage(path: path) == .objectiveC {
                let own = unitFacts.forFile(path)
                if own != unitFacts { byFile[path] = own }
            }
        }
        fileConditions = byFile
        var entries: [Entry] = []
        for (path, source) in files {
            for definition in source.definitions where !definition.path.isEmpty {
                entries.append(Entry(definition: definition, file: path))
            }
        }
        self.entries = entries
        index = DefinitionIndex(entries)
        self.infoPlist = infoPlist
        var aliases: [String: (target: [String], file: String, line: Int)?] = [:]
        for (path, source) in files {
            for alias in source.aliases {
                guard let name = alias.path.last else { continue }
                if let known = aliases[name] {
                    if known?.target != alias.target { aliases[name] = .some(nil) }
                } else {
                    aliases[name] = (alias.target, path, alias.line)
                }
            }
        }
        self.aliases = aliases
    }

    /// `names` with its first component that is a type alias (not the last) replaced by the
    /// type it names, and that alias; nil when none is, or the result would have more than 32
    /// components (as many as a written name may have).
    func expandingAlias(_ names: [String]) -> (names: [String], step: String)? {
        for (k, name) in names.dropLast().enumerated() {
            guard let found = aliases[name], let alias = found else { continue }
            let expanded = Array(names[..<k]) + alias.target + Array(names[(k + 1)...])
            guard expanded.count <= 32 else { return nil }
            return (expanded, "typealias \(name) = \(alias.target.joined(separator: ".")) (\(alias.file):\(alias.line))")
        }
        return nil
    }

    /// What decides the `#if`s of the file at `path` (C++ files and headers may differ from the rest).
    public func conditions(in path: String) -> ConditionFacts {
        fileConditions[path] ?? conditions
    }

    /// The work building the index took (entries and names indexed).
    public var buildWork: Int { index.buildWork + entries.count }

    /// Resolves `expression`, written at `line` of the file `path`, on its own (nothing memoised
    /// across calls: use a `StringResolution` for the sites of a unit).
    public func resolve(_ expression: StringExpression, in path: String, line: Int) -> ResolvedString {
        var resolution = StringResolution(self)
        return resolution.resolve(expression, in: path, line: line)
    }
}
