import PropertyList

/// Post-processing: what every run does with the rules' findings before reporting them. Folds
/// configurations (`FindingStage+Folding.swift`), applies the configuration's severities, `off`
/// and per-file ignores and the files' inline directives (`FindingStage+Suppression.swift`),
/// sorts, and cuts at the run's limit.
public struct FindingStage: Sendable {
    public let rules: [any Rule]
    public let severityOverrides: [String: Configuration.RuleSetting]

    public init(_ linter: Linter) {
        rules = linter.rules
        severityOverrides = linter.severityOverrides
    }

    /// The first `limit` of `sorted` (in report order), then, when some are left out, one more
    /// finding that says how many, at the first one left out, with the highest severity of
    /// those left out: the exit status is the same as with all of them.
    /// `earlier`: a notice of an earlier cut, last in `sorted`, whose findings count here too.
    public static func capped(_ sorted: [Finding], at limit: Int, name: String = RunLimits.findingsName,
                              earlier: (notice: Finding, count: Int)? = nil) -> [Finding] {
        let findings = earlier == nil ? sorted[...] : sorted.dropLast()
        guard findings.count > limit else { return sorted }
        let kept = Array(findings.prefix(limit))
        let cut = findings[(findings.startIndex + limit)...]
        let first = cut.first!
        let worst = max(cut.map(\.severity).max() ?? .note, earlier?.notice.severity ?? .note)
        let count = cut.count + (earlier?.count ?? 0)
        let reason = name == RunLimits.findingsName
            ? "the run reports at most \(limit) findings"
            : "the report would pass the limit of its size"
        let notice = Finding(rule: name == RunLimits.findingsName ? ToolFindings.findingsTruncated : ToolFindings.outputTruncated, severity: worst,
                             message: "\(count) more finding\(count == 1 ? " is" : "s are") not shown, from here on: \(reason) (\(RunLimits.howToRaise(name)))",
                             path: first.path, line: first.line, column: first.column)
        return kept + [notice]
    }

    /// Whether the run reports the findings of the rule `d`: not when set to `off`, and an opt-in
    /// rule only when the run gives it a severity (`RuleSelection` gives one to an opt-in rule
    /// the run names).
    public func isEnabled(_ d: RuleDescription) -> Bool { d.isEnabled(by: severityOverrides[d.id]) }

    /// `findings` with the configuration's severities; those of rules not in the run (left out
    /// by `select`/`ignore`, or opt-in and not named) or set to `off` dropped.
    public func applySeverities(_ findings: [Finding]) -> [Finding] {
        let enabled = Set(rules.map { type(of: $0).description }.filter(isEnabled).map(\.id) + ToolFindings.ids)
        return findings.compactMap { f in
            var f = f
            guard enabled.contains(f.rule) else { return nil }
            if let setting = severityOverrides[f.rule] {
                guard let severity = setting.severity else { return nil }
                f.severity = severity
            }
            return f
        }
    }
}
