/// Which rules a run applies: `--select`/`--ignore` on the command line and `select:`/`ignore:`
/// in `.entitlint.yml`, resolved as ruff resolves them (its "rule selection" documentation):
///
/// - the basis is the command line's `--select` when given, else the configuration's `select:`,
///   else every rule;
/// - then `ignore` removes rules: the configuration's `ignore:` (and `rules: {id: off}`) only when
///   the command line gives no `--select` (a `--select` starts the resolution afresh, so
///   `--select X` runs X even where the configuration turns it off), then the command line's
///   `--ignore`, always;
/// - a rule both selected and ignored at the same level is ignored.
///
/// The tool findings (`ToolFindings`: `parse-error`, `unreadable-path`, ...) are reported
/// whatever `select` says (a file that cannot be read is never a silent pass); only `ignore`
/// (or `off`) removes one.
///
/// An opt-in rule (`RuleDescription.optIn`) runs only when named: in the basis (`--select`, or
/// the configuration's `select:`), or with a severity in the configuration's `rules:`. Naming it
/// in the basis gives it its default severity here (an opt-in rule without a setting is off:
/// `FindingStage.isEnabled`). There is no selector that stands for every rule (`--select` takes
/// rule ids only), so nothing switches an opt-in rule on without naming it.
public struct RuleSelection: Sendable, Hashable {
    /// `--select`: nil when not given.
    public var select: [String]?
    /// `--ignore`.
    public var ignore: [String] = []

    public init(select: [String]? = nil, ignore: [String] = []) {
        self.select = select
        self.ignore = ignore
    }

    /// The severity overrides of a run (`Linter.severityOverrides`): the configuration's
    /// `rules:`, with every rule the selection leaves out set to `off`, and every opt-in rule it
    /// names given its default severity. `all`: every rule's description, evaluated only when a
    /// selection needs it.
    public func overrides(configuration: Configuration?, all: @autoclosure () -> [RuleDescription]) -> [String: Configuration.RuleSetting] {
        resolved(configuration) { all().map { ($0.id, $0.optIn ? $0.severity : nil) } }
    }

    /// The same for rules given by id alone, none of them opt-in.
    public func overrides(configuration: Configuration?, all: @autoclosure () -> [String]) -> [String: Configuration.RuleSetting] {
        resolved(configuration) { all().map { ($0, nil) } }
    }

    /// `rules`: every rule id, with its default severity when the rule is opt-in.
    private func resolved(_ configuration: Configuration?, rules: () -> [(id: String, optIn: Severity?)]) -> [String: Configuration.RuleSetting] {
        var settings = configuration?.rules ?? [:]
        var ignored = Set(ignore)
        if let select {
            for id in select where settings[id] == .off { settings[id] = nil }
        } else {
            ignored.formUnion(configuration?.ignore ?? [])
        }
        if let basis = (select ?? configuration?.select).map(Set.init) {
            for (id, optIn) in rules() where !ToolFindings.contains(id) {
                if !basis.contains(id) {
                    settings[id] = .off
                } else if let severity = optIn, settings[id] == nil {
                    settings[id] = Configuration.RuleSetting(rawValue: severity.rawValue)
                }
            }
        }
        for id in ignored { settings[id] = .off }
        return settings
    }

    /// The rule ids of a `--select`/`--ignore` value: comma-separated (white space around each
    /// is dropped). Throws a message naming an unknown id, with the nearest known one. `known`
    /// is evaluated only when there are values (building it costs start-up time on every run).
    public static func parse(_ values: [String], option: String, known: @autoclosure () -> Set<String>) throws(UsageError) -> [String] {
        guard !values.isEmpty else { return [] }
        let known = known()
        var ids: [String] = []
        for value in values {
            let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { String($0.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
            for id in parts {
                guard !id.isEmpty else { throw UsageError("\(option) \(OutputText.excerpt(value)): an empty rule id (give ids separated by commas)") }
                guard known.contains(id) else {
                    throw UsageError("\(option): unknown rule '\(OutputText.excerpt(id))'\(Suggestion.hint(for: id, in: known.sorted())) (see `entitlint rules`)")
                }
                if !ids.contains(id) { ids.append(id) }
            }
        }
        return ids
    }
}

extension Configuration {
    /// One entry of `per-file-ignores`: a glob (as in `exclude`) and the rules not reported in
    /// the files it matches.
    public struct PerFileIgnore: Sendable, Hashable {
        public var glob: Glob
        public var rules: [String]
        public init(glob: Glob, rules: [String]) {
            self.glob = glob
            self.rules = rules
        }
    }

    /// Globs `per-file-ignores` may hold: each is matched against each file with findings.
    public static let maxPerFileIgnores = 1_000

    /// The rules `per-file-ignores` turns off for `path` (as shown in findings), matched against
    /// the path relative to the configuration's folder, as `exclude` is.
    public func ignoredRules(at path: String, cwd: String) -> Set<String> {
        guard !perFileIgnores.isEmpty else { return [] }
        let relative = relativePath(path, cwd: cwd)
        var out = Set<String>()
        for entry in perFileIgnores where entry.glob.matches(relative) { out.formUnion(entry.rules) }
        return out
    }


}
