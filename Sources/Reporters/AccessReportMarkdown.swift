import Foundation

/// Markdown, for a pull-request comment.
enum AccessReportMarkdown {
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "|": out += "\\|"
            case "\n": out += " "
            default: out.append(c)
            }
        }
        return out
    }

    static func code(_ s: String) -> String { "`" + escape(s).replacingOccurrences(of: "`", with: "'") + "`" }

    static func render(_ report: AccessReport) -> String {
        var s = "## Keychain access groups\n\n"
        s += "| # | unit | kind | bundle ID | team | profile | default group |\n|---|---|---|---|---|---|---|\n"
        for (i, u) in report.units.enumerated() {
            let kind = [u.kind.map { k in u.host.map { "\(k) of \($0)" } ?? k }, u.sdk ?? u.platform].compactMap { $0 }.joined(separator: ", ")
            let profile = u.profile.map { code($0.name ?? $0.path) } ?? "none (\(escape(u.profileNote ?? "")))"
            let def = u.groups.first.map { code($0.group) } ?? "none"
            s += "| \(i + 1) | \(escape(u.name)) | \(escape(kind)) | \(u.bundleID.value.map(code) ?? "unknown") | \(u.team.value.map(code) ?? "unknown") | \(profile) | \(def) |\n"
        }
        let header = "| group | " + report.units.indices.map { "\($0 + 1)" }.joined(separator: " | ") + " |\n"
        let rule = "|---|" + report.units.map { _ in ":-:|" }.joined() + "\n"
        for (title, groups) in [("Keychain groups", report.keychainGroups), ("App groups", report.appGroups)] where !groups.isEmpty {
            let codeLegend = report.units.contains { $0.code != nil } ? " ✎: its code names the group." : ""
            s += "\n### \(title)\n\n" + (title == "App groups" ? "✓: in the unit's list." : "**D**: the unit's default group, ✓: in its list.") + codeLegend + "\n\n" + header + rule
            for g in groups {
                let cells = report.units.map { u -> String in
                    let mark = report.named(g, u.name) ? " ✎" : ""
                    switch report.cell(g, u.name) {
                    case "D": return "**D**" + mark
                    case "x": return "✓" + mark
                    default: return " "
                    }
                }
                s += "| \(code(g.group)) | " + cells.joined(separator: " | ") + " |\n"
            }
        }
        s += "\n<details><summary>Access-group lists, in order, with where each entry comes from</summary>\n\n"
        for u in report.units {
            s += "**\(escape(u.name))**" + (u.entitlements.map { " — \(code($0))" } ?? "") + "\n\n"
            for e in u.groups {
                s += "1. \(code(e.group))\(e.isDefault ? " (default)" : "") — \(escape(e.key)), \(escape(e.source))\n"
            }
            s += "\n" + AccessReportCode.markdown(u)
        }
        s += "</details>\n"
        return s
    }
}

