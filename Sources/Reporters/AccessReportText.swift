#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Plain text, at most 100 columns wide.
enum AccessReportText {
    static let width = 100

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }

    static func clip(_ s: String, _ n: Int) -> String {
        s.count <= n ? s : String(s.prefix(n - 1)) + "…"
    }

    /// `left` padded to `column`, then `right`; `right` goes on its own line, indented, when the
    /// line would pass the width.
    static func line(_ left: String, _ right: String, column: Int, indent: Int) -> String {
        if right.isEmpty { return left + "\n" }
        if max(left.count + 2, column) + right.count <= width {
            return pad(left, max(left.count + 2, column)) + right + "\n"
        }
        return left + "\n" + String(repeating: " ", count: indent) + clip(right, width - indent) + "\n"
    }

    static func fact(_ f: AccessReport.FactValue, unknown: String) -> (String, String) {
        guard let v = f.value else { return (unknown, "") }
        return (v, f.source ?? "")
    }

    /// `[error: rule-id]`, in the severity's colour when `colour` is on.
    static func marker(_ marks: [AccessReport.Mark], colour: Bool) -> String {
        let text = marks.marker
        guard colour, let worst = marks.worst, !text.isEmpty else { return text }
        return SeverityColour.ansi(worst) + text + SeverityColour.reset
    }

    /// The units to show, each with the name of the configurations it stands for
    /// (`AccessReport.sections`).
    static func sections(_ units: [AccessReport.Unit]) -> [(unit: AccessReport.Unit, name: String)] {
        AccessReport.sections(units).map { ($0.unit, $0.section.name) }
    }

    static func render(_ report: AccessReport, colour: Bool = false) -> String {
        var s = ""
        let n = report.units.count
        let shown = sections(report.units)
        s += "Access groups of \(n) unit\(n == 1 ? "" : "s") (* marks the default group; [severity: rule] the findings)\n"
        if shown.count < n {
            s += "(configurations of a target that agree on every fact, group and finding are shown once;\n"
            s += " the facts' places are the first one's)\n"
        }
        for (u, name) in shown {
            s += "\n"
            var head: [String] = []
            if let k = u.kind { head.append(u.host.map { "\(k) of \($0)" } ?? k) }
            head.append(u.sdk ?? u.platform)
            if let p = u.project { head.append(p) }
            s += line(name, head.joined(separator: ", "), column: 0, indent: 2)
            for f in u.findings {
                // The marker is never clipped; the message is, to keep 100 columns.
                let plain = "  ! " + [f].marker + " "
                s += "  ! " + marker([f], colour: colour) + " " + clip(f.message, max(20, width - plain.count)) + "\n"
            }
            if let moved = u.defaultMoved {
                let text = "  ! " + clip(moved.text, width - 4) + "\n"
                s += colour ? SeverityColour.ansi(.error) + text.dropLast() + SeverityColour.reset + "\n" : text
            }
            let (b, bs) = fact(u.bundleID, unknown: "unknown")
            let (t, ts) = fact(u.team, unknown: "unknown")
            var facts: [(String, String, String)] = [("bundle ID", b, bs), ("team", t, ts)]
            if let prefix = u.appIDPrefix.value {
                // The source of an assumed prefix is the team's, already shown: say only that it is assumed.
                facts.append(("App ID prefix", prefix, u.appIDPrefixAssumed ? "assumed equal to the Team ID" : "known: " + (u.appIDPrefix.source ?? "")))
            } else {
                facts.append(("App ID prefix", "unknown", ""))
            }
            if let p = u.profile {
                facts.append(("profile", p.name ?? p.path, [p.name == nil ? nil : p.path, u.profileSource].compactMap { $0 }.joined(separator: ", ")))
            } else {
                facts.append(("profile", "none" + (u.profileNote.map { " (\($0))" } ?? ""), u.profileSource ?? ""))
            }
            facts.append(("entitlements", u.entitlements ?? "none (the target names no entitlements file)", u.entitlementsSource ?? ""))
            facts += (u.declared?.shown ?? []).map { ($0.label, $0.item.value ?? "unknown", $0.item.source) }
            let factColumn = 16 + (facts.filter { !$0.2.isEmpty }.map(\.1.count).max() ?? 0) + 2
            for (label, value, source) in facts {
                s += line("  " + pad(label, 14) + value, source, column: factColumn, indent: 16)
            }
            let groupColumn = 6 + (u.groups.map { $0.group.count + ($0.concrete ? 0 : 11) }.max() ?? 0) + 2
            for e in u.groups {
                let left = "  " + (e.isDefault ? "* " : "  ") + e.group + (e.concrete ? "" : " (symbolic)")
                s += line(left, "\(e.key), \(e.source)", column: groupColumn, indent: 6)
                let marks = u.marks(of: e)
                if !marks.isEmpty { s += "      ^ " + marker(marks, colour: colour) + "\n" }
            }
            if u.groups.isEmpty { s += "  (no access groups: the keychain entitlement is ignored)\n" }
            s += AccessReportCode.text(u)
        }
        s += matrix(report)
        return s
    }

    static func matrix(_ report: AccessReport) -> String {
        guard !report.units.isEmpty else { return "" }
        let anyCode = report.units.contains { $0.code != nil }
        var s = "\nSharing matrix (D: default group, x: in the list, .: not; columns are the units below)\n"
        if anyCode { s += "(+ after a mark: the unit's code names the group)\n" }
        let numbers = report.units.indices.map { String($0 + 1) }
        let cellWidth = max(anyCode ? 3 : 2, (numbers.last?.count ?? 1) + (anyCode ? 2 : 1))
        let allNames = (report.keychainGroups + report.appGroups).map(\.group.count)
        let nameWidth = min(60, max(16, (allNames.max() ?? 0) + 4))
        let perBlock = max(1, (width - nameWidth) / cellWidth)
        var start = 0
        while start < report.units.count {
            let end = min(report.units.count, start + perBlock)
            let header = (start..<end).map { pad(String(repeating: " ", count: cellWidth - numbers[$0].count) + numbers[$0], cellWidth) }.joined()
            for (title, groups) in [("Keychain groups", report.keychainGroups), ("App groups", report.appGroups)] where !groups.isEmpty {
                s += "\n" + pad(title, nameWidth) + header + "\n"
                for g in groups {
                    let cells = (start..<end).map { i -> String in
                        let c = String(report.cell(g, report.units[i].name)) + (report.named(g, report.units[i].name) ? "+" : anyCode ? " " : "")
                        return String(repeating: " ", count: cellWidth - c.count) + c
                    }.joined()
                    var row = pad("  " + clip(g.group, nameWidth - 3), nameWidth) + cells
                    while row.last == " " { row.removeLast() }
                    s += row + "\n"
                }
            }
            start = end
        }
        let marked = (report.keychainGroups + report.appGroups).filter { !$0.findings.isEmpty }
        if !marked.isEmpty {
            s += "\nGroups with findings:\n"
            for g in marked {
                let mark = g.findings.marker
                s += "  " + clip(g.group, max(20, width - 4 - mark.count)) + "  " + mark + "\n"
            }
        }
        s += "\nUnits:\n"
        for (i, u) in report.units.enumerated() {
            let mark = u.findings.marker + (u.defaultMoved == nil ? "" : (u.findings.isEmpty ? "" : " ") + "[default moved]")
            s += "  \(pad(numbers[i], (numbers.last?.count ?? 1)))  \(u.name)\(mark.isEmpty ? "" : "  " + mark)\n"
        }
        return s
    }
}

