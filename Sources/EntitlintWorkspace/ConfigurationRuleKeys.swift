import YAMLReader
import EntitlintCore

/// The rule-id keys of `.entitlint.yml` (`select`, `ignore`, `per-file-ignores`), read from YAML.
extension Configuration {
    /// A list of known rule ids (`select`, `ignore`, a `per-file-ignores` entry).
    static func ruleIDs(_ node: YAMLNode, _ key: String, knownRules: Set<String>, fail: (YAMLNode, String) -> ConfigError) throws(ConfigError) -> [String] {
        guard let seq = node.sequence else { throw fail(node, "'\(key)' must be a list of rule ids") }
        var out: [String] = []
        for item in seq {
            guard let id = item.scalar?.string, item.tag == .str else { throw fail(item, "'\(key)' must be a list of rule ids") }
            guard knownRules.contains(id) else {
                throw fail(item, "\(key): unknown rule '\(OutputText.excerpt(id))'\(Suggestion.hint(for: id, in: knownRules.sorted())) (see `entitlint rules`)")
            }
            if !out.contains(id) { out.append(id) }
        }
        return out
    }

    /// `per-file-ignores: {"Tests/**": [rule-a, rule-b]}`.
    static func perFileIgnores(_ node: YAMLNode, knownRules: Set<String>, fail: (YAMLNode, String) -> ConfigError) throws(ConfigError) -> [PerFileIgnore] {
        guard let map = node.mapping else { throw fail(node, "'per-file-ignores' must be a mapping of glob: [rule ids]") }
        guard map.count <= maxPerFileIgnores else {
            throw fail(node, "'per-file-ignores' holds \(map.count) globs, more than the \(maxPerFileIgnores) it may hold")
        }
        var out: [PerFileIgnore] = []
        var seen = Set<String>()
        for (k, v) in map {
            guard let pattern = k.scalar?.string else { throw fail(k, "per-file-ignores: globs must be strings") }
            guard seen.insert(pattern).inserted else { throw fail(k, "per-file-ignores.\(OutputText.excerpt(pattern)) is given twice") }
            out.append(PerFileIgnore(glob: Glob(pattern), rules: try ruleIDs(v, "per-file-ignores.\(OutputText.excerpt(pattern))", knownRules: knownRules, fail: fail)))
        }
        return out
    }
}
