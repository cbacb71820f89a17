#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList

/// Markdown, for a pull-request comment.
enum AccessReportMarkdown {
    /// Text from an input (a name, a message, a source), for a table cell or a line: every
    /// character that would act backslash-escaped (CommonMark 2.4: "Any ASCII punctuation
    /// character may be backslash-escaped"), scalar by scalar: `|` ends a cell; `[` and `]` make
    /// links and images (with them escaped, `(`, `)` and `!` do nothing); `<`, `>`, `&` open
    /// HTML, autolinks and entities; `` ` ``, `*`, `_`, `~` format; `$` starts GitHub's inline
    /// math; `\` itself. Line breaks become spaces. Input never starts a line here, so `#`, `-`
    /// and digits need nothing. The same set as the job summary's (`GitHubReporter.markdownEscape`).
    /// So the text renders as written and no link, image or tag comes from an input.
    static func escape(_ s: String) -> String { s.escapingScalars(textEscapes) }
    static let textEscapes: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = ["\n": " ", "\r": " "]
        for u in "\\`*_[]<>&|~$".unicodeScalars { table[u] = "\\" + String(u) }
        return table
    }()

    /// A code span: backslash escapes do nothing inside one, and a backtick run of the span's
    /// own length closes it, so the input's backticks are written `'` (scalar by scalar: no
    /// backtick of the input is left to close the span or open another), `|` as `\|` (GFM
    /// tables split cells at it even inside a span), line breaks as spaces.
    static func code(_ s: String) -> String { "`" + s.escapingScalars(codeEscapes) + "`" }
    static let codeEscapes: [Unicode.Scalar: String] = ["`": "'", "|": "\\|", "\n": " ", "\r": " "]

    /// `**error**: `rule-a`, `rule-b`; **warning**: ...`, or nothing.
    static func findings(_ marks: [AccessReport.Mark]) -> String {
        marks.bySeverity.map { "**\($0.0.rawValue)**: " + $0.1.map(code).joined(separator: ", ") }.joined(separator: "; ")
    }

    static func prefix(_ u: AccessReport.Unit) -> String {
        guard let p = u.appIDPrefix.value else { return "unknown" }
        return code(p) + (u.appIDPrefixAssumed ? " (assumed: the Team ID)" : " (known)")
    }

    static func render(_ report: AccessReport) -> String {
        // Each target once: a row per set of its configurations that agree (`App (Debug, Release)`).
        let shown = AccessReport.sections(report.units)
        var s = "## Keychain access groups\n\n"
        if shown.count < report.units.count {
            s += "Configurations of a target that agree on every fact, group and finding are one row.\n\n"
        }
        s += "| # | unit | kind | bundle ID | team | App ID prefix | profile | default group | Findings |\n|---|---|---|---|---|---|---|---|---|\n"
        for (i, (u, section)) in shown.enumerated() {
            let kind = [u.kind.map { k in u.host.map { "\(k) of \($0)" } ?? k }, u.sdk ?? u.platform].compactMap { $0 }.joined(separator: ", ")
            let profile = u.profile.map { code($0.name ?? $0.path) } ?? "none (\(escape(u.profileNote ?? "")))"
            var def = u.groups.first.map { code($0.group) } ?? "none"
            if let moved = u.defaultMoved { def += " **(moved from \(code(moved.from)), \(escape(moved.reference)))**" }
            var found = findings(u.findings)
            if u.defaultMoved != nil { found += (found.isEmpty ? "" : "; ") + "**default moved**" }
            s += "| \(i + 1) | \(escape(section.name)) | \(escape(kind)) | \(u.bundleID.value.map(code) ?? "unknown") | \(u.team.value.map(code) ?? "unknown") | \(prefix(u)) | \(profile) | \(def) | \(found.isEmpty ? "none" : found) |\n"
        }
        let header = "| group | " + shown.indices.map { "\($0 + 1)" }.joined(separator: " | ") + " | Findings |\n"
        let rule = "|---|" + shown.map { _ in ":-:|" }.joined() + "---|\n"
        for (title, groups) in [("Keychain groups", report.keychainGroups), ("App groups", report.appGroups)] where !groups.isEmpty {
            let codeLegend = report.units.contains { $0.code != nil } ? " ✎: its code names the group." : ""
            s += "\n### \(title)\n\n" + (title == "App groups" ? "✓: in the unit's list." : "**D**: the unit's default group, ✓: in its list.") + codeLegend + "\n\n" + header + rule
            for g in groups {
                // A section's units agree on their groups: its first unit's cell is each one's.
                let cells = shown.map(\.unit).map { u -> String in
                    let mark = report.named(g, u.name) ? " ✎" : ""
                    switch report.cell(g, u.name) {
                    case "D": return "**D**" + mark
                    case "x": return "✓" + mark
                    default: return " "
                    }
                }
                s += "| \(code(g.group)) | " + cells.joined(separator: " | ") + " | \(g.findings.isEmpty ? "none" : findings(g.findings)) |\n"
            }
        }
        s += "\n<details><summary>Access-group lists, in order, with where each entry comes from</summary>\n\n"
        for (u, section) in shown {
            s += "**\(escape(section.name))**" + (u.entitlements.map { " — \(code($0))" } ?? "") + "\n\n"
            for f in u.findings {
                s += "- **\(f.severity.rawValue)** \(code(f.rule)): \(escape(f.message))\n"
            }
            if let moved = u.defaultMoved { s += "- **\(escape(moved.text))**\n" }
            if !u.findings.isEmpty || u.defaultMoved != nil { s += "\n" }
            for e in u.groups {
                let marks = findings(u.marks(of: e))
                s += "1. \(code(e.group))\(e.isDefault ? " (default)" : "") — \(escape(e.key)), \(escape(e.source))\(marks.isEmpty ? "" : " — " + marks)\n"
            }
            s += "\n" + AccessReportCode.markdown(u)
        }
        s += "</details>\n"
        return s
    }
}

