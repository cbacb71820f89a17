#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList

/// Graphviz: units (boxes) linked to the groups they can reach (keychain groups blue, app groups
/// green); the default group's edge is bold; dashed edges labelled `code` go to the groups each
/// unit's code names (AccessReportCode.dot). A unit, group or edge with findings is outlined in
/// its worst severity's colour (a moved default counts as an error), and a legend cluster says so.
enum AccessReportDot {
    /// A DOT string literal (Graphviz's grammar: a quoted string ends at the first `"` not
    /// escaped by a backslash): quotes and backslashes escaped scalar by scalar, so the string
    /// always ends where Entitlint ends it; line breaks as `\n` and `\r` (label line breaks).
    static func quote(_ s: String) -> String { "\"" + s.escapingScalars(quoteEscapes) + "\"" }
    static let quoteEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r"]

    /// ` color="#de350b", penwidth=2` for the worst severity of `marks`, else nothing.
    static func severity(_ marks: [AccessReport.Mark], moved: Bool = false) -> String {
        guard let worst = moved ? .error : marks.worst else { return "" }
        return ", color=\"\(SeverityColour.hex(worst))\", penwidth=2"
    }

    static func render(_ report: AccessReport) -> String {
        var s = "digraph access_groups {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [color=\"#7a869a\"];\n"
        for u in report.units {
            var lines = [u.name, u.bundleID.value ?? "bundle ID unknown", u.team.value.map { "team " + $0 } ?? "team unknown"]
            lines.append(u.appIDPrefix.value.map { "App ID prefix \($0)" + (u.appIDPrefixAssumed ? " (assumed)" : " (known)") } ?? "App ID prefix unknown")
            if let moved = u.defaultMoved { lines.append(moved.text) }
            if !u.findings.isEmpty { lines.append(u.findings.marker) }
            s += "  \(quote("unit:" + u.name)) [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f5f7\"\(severity(u.findings, moved: u.defaultMoved != nil)), label=\(quote(lines.joined(separator: "\n")))];\n"
        }
        for g in report.keychainGroups {
            s += "  \(quote("keychain:" + g.group)) [shape=ellipse, style=filled, fillcolor=\"#deebff\"\(severity(g.findings)), label=\(quote(g.group))];\n"
        }
        for g in report.appGroups {
            s += "  \(quote("app-group:" + g.group)) [shape=ellipse, style=filled, fillcolor=\"#e3fcef\"\(severity(g.findings)), label=\(quote(g.group))];\n"
        }
        for u in report.units {
            var seen = Set<String>()
            for e in u.groups {
                let node = (e.kind == "app-group" ? "app-group:" : "keychain:") + e.group
                guard seen.insert(node).inserted else { continue }
                let marks = u.marks(of: e)
                var attributes: [String] = []
                if e.isDefault { attributes += ["style=bold", "label=\"default\""] }
                if let worst = marks.worst {
                    attributes += ["color=\"\(SeverityColour.hex(worst))\"", "penwidth=2"]
                } else if e.isDefault {
                    attributes.append("color=\"#0052cc\"")
                }
                s += "  \(quote("unit:" + u.name)) -> \(quote(node))\(attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]");\n"
            }
        }
        return s + AccessReportCode.dot(report, quote: quote) + legend(code: report.units.contains { $0.code != nil }) + "}\n"
    }

    /// A legend cluster: what the shapes, edge styles and colours mean. Only the code edges'
    /// entries depend on the report (drawn when some unit's code was scanned); nothing in it
    /// comes from an input.
    static func legend(code: Bool) -> String {
        var s = "  subgraph cluster_legend {\n    label=\"Legend\"; fontname=\"Helvetica\"; fontsize=11; color=\"#dfe1e6\";\n"
        s += "    node [fontsize=10];\n"
        s += "    \"legend:unit\" [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f5f7\", label=\"unit\"];\n"
        s += "    \"legend:keychain\" [shape=ellipse, style=filled, fillcolor=\"#deebff\", label=\"keychain group\"];\n"
        s += "    \"legend:app-group\" [shape=ellipse, style=filled, fillcolor=\"#e3fcef\", label=\"app group\"];\n"
        s += "    \"legend:error\" [shape=box, style=rounded, color=\"\(SeverityColour.hex(.error))\", penwidth=2, label=\"error (or default moved)\"];\n"
        s += "    \"legend:warning\" [shape=box, style=rounded, color=\"\(SeverityColour.hex(.warning))\", penwidth=2, label=\"warning\"];\n"
        s += "    \"legend:note\" [shape=box, style=rounded, color=\"\(SeverityColour.hex(.note))\", penwidth=2, label=\"note\"];\n"
        s += "    \"legend:unit\" -> \"legend:keychain\" [style=bold, color=\"#0052cc\", label=\"default\"];\n"
        s += "    \"legend:unit\" -> \"legend:app-group\" [label=\"in the list\"];\n"
        if code {
            s += "    \"legend:code\" [shape=ellipse, style=dashed, color=\"\(SeverityColour.hex(.error))\", label=\"named only in code\"];\n"
            s += "    \"legend:unit\" -> \"legend:keychain\" [style=dashed, label=\"code\"];\n"
            s += "    \"legend:unit\" -> \"legend:code\" [style=dashed, color=\"\(SeverityColour.hex(.error))\", label=\"code, not granted\"];\n"
        }
        return s + "  }\n"
    }
}
