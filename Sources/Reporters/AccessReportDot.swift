import Foundation

/// Graphviz: units (boxes) linked to the groups they can reach (keychain groups blue, app groups
/// green); the default group's edge is bold; dashed edges labelled `code` go to the groups each
/// unit's code names (AccessReportCode.dot).
enum AccessReportDot {
    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    static func render(_ report: AccessReport) -> String {
        var s = "digraph access_groups {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [color=\"#7a869a\"];\n"
        for u in report.units {
            let label = [u.name, u.bundleID.value ?? "bundle ID unknown", u.team.value.map { "team " + $0 } ?? "team unknown"].joined(separator: "\n")
            s += "  \(quote("unit:" + u.name)) [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f5f7\", label=\(quote(label))];\n"
        }
        for g in report.keychainGroups {
            s += "  \(quote("keychain:" + g.group)) [shape=ellipse, style=filled, fillcolor=\"#deebff\", label=\(quote(g.group))];\n"
        }
        for g in report.appGroups {
            s += "  \(quote("app-group:" + g.group)) [shape=ellipse, style=filled, fillcolor=\"#e3fcef\", label=\(quote(g.group))];\n"
        }
        for u in report.units {
            var seen = Set<String>()
            for e in u.groups {
                let node = (e.kind == "app-group" ? "app-group:" : "keychain:") + e.group
                guard seen.insert(node).inserted else { continue }
                let attributes = e.isDefault ? " [style=bold, color=\"#0052cc\", label=\"default\"]" : ""
                s += "  \(quote("unit:" + u.name)) -> \(quote(node))\(attributes);\n"
            }
        }
        return s + AccessReportCode.dot(report, quote: quote) + "}\n"
    }
}
