import EntitlintCore

/// `lint --statistics`: how many findings each rule has, instead of the findings (as ruff's
/// `--statistics`), for a first look at a project or at what a baseline would hold.
public enum Statistics {
    /// One line per rule with findings: the count, the rule id, the most severe level among its
    /// findings, and the rule's summary; the most frequent first, then by id. Then the usual
    /// summary line, when the report shows it.
    public static func render(_ report: Report, summaries: [String: String]) -> String {
        var counts: [String: (count: Int, worst: Severity)] = [:]
        for f in report.findings {
            let entry = counts[f.rule] ?? (0, f.severity)
            counts[f.rule] = (entry.count + 1, max(entry.worst, f.severity))
        }
        let rows = counts.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        let width = rows.map { String($0.value.count).count }.max() ?? 1
        let idWidth = rows.map(\.key.count).max() ?? 0
        let levelWidth = rows.map(\.value.worst.rawValue.count).max() ?? 0
        var out = ""
        for (rule, entry) in rows {
            let count = String(entry.count)
            out += String(repeating: " ", count: width - count.count) + count + "  "
            out += OutputText.escape(rule) + String(repeating: " ", count: idWidth - rule.count) + "  "
            out += entry.worst.rawValue
            if let summary = summaries[rule] {
                out += String(repeating: " ", count: levelWidth - entry.worst.rawValue.count) + "  " + OutputText.escape(summary)
            }
            out += "\n"
        }
        if report.showSummary { out += TextReporter().summary(report) + "\n" }
        return out
    }
}
