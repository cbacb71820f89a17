import PropertyList

/// One self-contained HTML page (inline CSS, no script, no external asset): the sharing matrix as
/// a grid of dots, units down the side (grouped by target), groups across the top (keychain groups
/// in blue, app groups in green, shared ones first), the default group of each unit a filled dot;
/// then one card per unit with its facts and ordered access-group list.
enum AccessReportHTML {
    /// Text and attribute values (always double-quoted): `&`, `<`, `>`, `"` and `'` as references,
    /// scalar by scalar, so no value opens a tag or leaves its attribute whatever follows the
    /// character (a combining mark) or comes before it (U+0600).
    static func escape(_ s: String) -> String { s.escapingScalars(escapes) }
    static let escapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    static let style = """
    :root { --ink:#172b4d; --muted:#5e6c84; --line:#dfe1e6; --kc:#0052cc; --kc-soft:#b3d4ff; --ag:#00875a; --ag-soft:#abf5d1; --bg:#fafbfc; }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 32px 40px 48px; font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
    h1 { font-size: 24px; margin: 0 0 4px; }
    h2 { font-size: 17px; margin: 36px 0 12px; }
    .summary { color: var(--muted); margin: 0 0 20px; }
    .legend { display: flex; gap: 22px; flex-wrap: wrap; color: var(--muted); font-size: 13px; margin: 8px 0 16px; }
    .legend span { display: inline-flex; align-items: center; gap: 6px; }
    table.matrix { border-collapse: separate; border-spacing: 0; }
    .matrix th, .matrix td { padding: 0; }
    .matrix th.group { height: 220px; width: 40px; vertical-align: bottom; text-align: left; }
    .matrix th.group div { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font: 12px/1 ui-monospace, Menlo, Consolas, monospace; padding: 6px 0; margin: 0 auto; }
    .matrix th.group.kc div { color: var(--kc); }
    .matrix th.group.ag div { color: var(--ag); }
    .matrix th.group.lonely div { opacity: .55; }
    .matrix th.sep, .matrix td.sep { width: 18px; }
    .matrix th.corner { text-align: left; vertical-align: bottom; font-weight: 600; color: var(--muted); padding: 0 14px 8px 0; }
    .matrix td.unit { padding: 6px 18px 6px 0; font-size: 15px; white-space: nowrap; }
    .matrix td.unit .kind { color: var(--muted); font-size: 12px; margin-left: 6px; }
    .matrix tr.first td { border-top: 1px solid var(--line); }
    .matrix tr:hover td { background: var(--bg); }
    .matrix td.cell { text-align: center; width: 40px; }
    .dot { display: inline-block; width: 17px; height: 17px; border-radius: 50%; vertical-align: middle; }
    .dot.kc { background: var(--kc-soft); }
    .dot.kc.def { background: var(--kc); box-shadow: 0 0 0 3px var(--kc-soft); }
    .dot.ag { background: var(--ag-soft); }
    .empty { display: inline-block; width: 4px; height: 4px; border-radius: 50%; background: var(--line); vertical-align: middle; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; }
    .card { border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
    .card h3 { margin: 0 0 2px; font-size: 15px; }
    .card .sub { color: var(--muted); font-size: 12px; margin-bottom: 10px; }
    .card dl { display: grid; grid-template-columns: 92px 1fr; gap: 2px 10px; margin: 0 0 10px; font-size: 13px; }
    .card dt { color: var(--muted); }
    .card dd { margin: 0; overflow-wrap: anywhere; }
    .src { color: var(--muted); font-size: 12px; }
    code { font: 12.5px ui-monospace, Menlo, Consolas, monospace; }
    ol.groups { margin: 0; padding-left: 22px; font-size: 13px; }
    ol.groups li { margin: 2px 0; }
    .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 10px; margin-left: 6px; color: #fff; background: var(--kc); }
    .badge.ag { background: var(--ag); }
    .none { color: #bf2600; }
    .named { font-size: 11px; color: #172b4d; margin-left: 1px; }
    ul.code { margin: 6px 0 0; padding-left: 18px; font-size: 12px; }
    .sev { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 10px; color: #fff; margin-right: 4px; }
    .sev.error { background: #de350b; } .sev.warning { background: #ff8b00; } .sev.note { background: #6554c0; }
    .card.error { border-left: 5px solid #de350b; } .card.warning { border-left: 5px solid #ff8b00; } .card.note { border-left: 5px solid #6554c0; }
    ul.findings { margin: 0 0 10px; padding-left: 0; list-style: none; font-size: 13px; }
    ul.findings li { margin: 3px 0; }
    .matrix th.group.error div { color: #de350b; font-weight: 700; } .matrix th.group.warning div { color: #ff8b00; font-weight: 700; }
    .matrix td.cell.error .dot { box-shadow: 0 0 0 3px #de350b; } .matrix td.cell.warning .dot { box-shadow: 0 0 0 3px #ff8b00; }
    .matrix td.cell.note .dot { box-shadow: 0 0 0 3px #6554c0; }
    """

    /// The class of the worst severity among `marks` (`error`, `warning`, `note`), else empty.
    static func severityClass(_ marks: [AccessReport.Mark], moved: Bool = false) -> String {
        (moved ? .error : marks.worst)?.rawValue ?? ""
    }

    /// One badge per severity present, with its rule ids.
    static func badges(_ marks: [AccessReport.Mark]) -> String {
        marks.bySeverity.map { "<span class=\"sev \($0.0.rawValue)\">\($0.0.rawValue)</span><code>\(escape($0.1.joined(separator: ", ")))</code>" }
            .joined(separator: " ")
    }

    static func render(_ report: AccessReport) -> String {
        let groups: [(AccessReport.Group, String)] = report.keychainGroups.map { ($0, "kc") } + report.appGroups.map { ($0, "ag") }
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Keychain access groups</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n"
        let targets = Set(report.units.map { ($0.project ?? "") + "#" + ($0.target ?? $0.name) }).count
        s += "<h1>Keychain access groups</h1>\n"
        s += "<p class=\"summary\">\(report.units.count) unit\(report.units.count == 1 ? "" : "s") of \(targets) target\(targets == 1 ? "" : "s"), "
        s += "\(report.keychainGroups.count) keychain group\(report.keychainGroups.count == 1 ? "" : "s"), \(report.appGroups.count) app group\(report.appGroups.count == 1 ? "" : "s"). Generated by entitlint.</p>\n"
        s += "<h2>Who can reach which group</h2>\n<div class=\"legend\">"
        s += "<span><i class=\"dot kc def\"></i> default keychain group</span><span><i class=\"dot kc\"></i> keychain group in the list</span>"
        s += "<span><i class=\"dot ag\"></i> app group</span><span><i class=\"empty\"></i> not in the list</span><span><b class=\"named\">+</b> named in the unit's code</span><span>faded header: only one target claims it</span>"
        s += "<span><i class=\"sev error\">error</i><i class=\"sev warning\">warning</i><i class=\"sev note\">note</i> findings (a ring: about that entry)</span></div>\n"
        s += "<table class=\"matrix\">\n<tr><th class=\"corner\">unit</th>"
        var separated = false
        for (g, cls) in groups {
            if cls == "ag" && !separated && !report.keychainGroups.isEmpty { s += "<th class=\"sep\"></th>"; separated = true }
            let lonely = g.targets < 2 ? " lonely" : ""
            let sev = severityClass(g.findings)
            let found = g.findings.isEmpty ? "" : " — " + g.findings.marker
            s += "<th class=\"group \(cls)\(lonely)\(sev.isEmpty ? "" : " " + sev)\" title=\"\(escape(g.group)) — \(g.targets) target\(g.targets == 1 ? "" : "s")\(escape(found))\"><div>\(escape(g.group))</div></th>"
        }
        s += "</tr>\n"
        // Each target once: a row (and a card) per set of its configurations that agree on every
        // fact, group and finding; a section's units agree on their groups, so its first unit's
        // cells are each one's.
        let shown = AccessReport.sections(report.units)
        var previousTarget: String?
        for (u, section) in shown {
            let target = (u.project ?? "") + "#" + (u.target ?? u.name)
            let first = target != previousTarget
            previousTarget = target
            let configurations = section.configurations.isEmpty ? nil : section.configurations.joined(separator: ", ")
            let kind = [u.kind, configurations].compactMap { $0 }.joined(separator: " · ")
            s += "<tr\(first ? " class=\"first\"" : "")><td class=\"unit\">\(escape(u.target ?? u.name))<span class=\"kind\">\(escape(kind))</span>"
            let sev = severityClass(u.findings, moved: u.defaultMoved != nil)
            if !sev.isEmpty { s += " <i class=\"sev \(sev)\" title=\"\(escape(u.findings.marker + (u.defaultMoved == nil ? "" : " [default moved]")))\">\(sev)</i>" }
            s += "</td>"
            separated = false
            for (g, cls) in groups {
                if cls == "ag" && !separated && !report.keychainGroups.isEmpty { s += "<td class=\"sep\"></td>"; separated = true }
                let title = escape("\(u.name): \(g.group)")
                let named = report.named(g, u.name) ? "<b class=\"named\">+</b>" : ""
                let namedTitle = report.named(g, u.name) ? ", named in its code" : ""
                let marks = report.marks(g, u.name)
                let cell = marks.isEmpty ? "cell" : "cell " + severityClass(marks)
                let found = marks.isEmpty ? "" : " " + escape(marks.marker)
                switch report.cell(g, u.name) {
                case "D": s += "<td class=\"\(cell)\" title=\"\(title) (default\(namedTitle))\(found)\"><i class=\"dot \(cls) def\"></i>\(named)</td>"
                case "x": s += "<td class=\"\(cell)\" title=\"\(title)\(namedTitle.isEmpty ? "" : " (" + namedTitle.dropFirst(2) + ")")\(found)\"><i class=\"dot \(cls)\"></i>\(named)</td>"
                default: s += "<td class=\"cell\"><i class=\"empty\"></i></td>"
                }
            }
            s += "</tr>\n"
        }
        s += "</table>\n<h2>Units</h2>\n<div class=\"cards\">\n"
        for (u, section) in shown {
            let sev = severityClass(u.findings, moved: u.defaultMoved != nil)
            s += "<div class=\"card\(sev.isEmpty ? "" : " " + sev)\"><h3>\(escape(section.name))</h3>"
            var sub: [String] = []
            if let k = u.kind { sub.append(u.host.map { "\(k) of \($0)" } ?? k) }
            sub.append(u.sdk ?? u.platform)
            if let p = u.project { sub.append(p) }
            s += "<div class=\"sub\">\(escape(sub.joined(separator: " · ")))</div>"
            if !u.findings.isEmpty || u.defaultMoved != nil {
                s += "<ul class=\"findings\">"
                if let moved = u.defaultMoved {
                    s += "<li><span class=\"sev error\">default moved</span><code>\(escape(moved.from))</code> → <code>\(escape(moved.to))</code> <span class=\"src\">\(escape(moved.reference))</span></li>"
                }
                for f in u.findings {
                    s += "<li><span class=\"sev \(f.severity.rawValue)\">\(f.severity.rawValue)</span><code>\(escape(f.rule))</code> \(escape(f.message))</li>"
                }
                s += "</ul>"
            }
            s += "<dl>"
            func fact(_ label: String, _ f: AccessReport.FactValue) {
                s += "<dt>\(label)</dt><dd>" + (f.value.map { "<code>\(escape($0))</code>" } ?? "<span class=\"none\">unknown</span>")
                if let src = f.source { s += " <span class=\"src\">\(escape(src))</span>" }
                s += "</dd>"
            }
            fact("bundle ID", u.bundleID)
            fact("team", u.team)
            // An assumed prefix's source repeats the team's: say only that it is assumed.
            var prefix = u.appIDPrefix
            if u.appIDPrefixAssumed { prefix.source = "assumed: the Team ID (no profile, entitlement or setting states it)" }
            else if let src = prefix.source { prefix.source = "known: " + src }
            fact("App ID prefix", prefix)
            let profileSource = u.profileSource.map { " <span class=\"src\">\(escape($0))</span>" } ?? ""
            if let p = u.profile {
                s += "<dt>profile</dt><dd>\(escape(p.name ?? p.path)) <span class=\"src\">\(escape(p.path))</span>\(profileSource)</dd>"
            } else {
                s += "<dt>profile</dt><dd>none <span class=\"src\">\(escape(u.profileNote ?? ""))</span>\(profileSource)</dd>"
            }
            s += "<dt>entitlements</dt><dd>" + (u.entitlements.map { "<code>\(escape($0))</code>" } ?? "none")
                + (u.entitlementsSource.map { " <span class=\"src\">\(escape($0))</span>" } ?? "") + "</dd>"
            for (label, item) in u.declared?.shown ?? [] {
                s += "<dt>\(label)</dt><dd>" + (item.value.map { "<code>\(escape($0))</code>" } ?? "<span class=\"none\">unknown</span>")
                    + " <span class=\"src\">\(escape(item.source))</span></dd>"
            }
            s += "</dl>"
            s += "<ol class=\"groups\">"
            for e in u.groups {
                let badge = e.isDefault ? "<span class=\"badge\">default</span>" : e.kind == "app-group" ? "<span class=\"badge ag\">app group</span>" : ""
                let marks = u.marks(of: e)
                s += "<li><code>\(escape(e.group))</code>\(badge) <span class=\"src\">\(escape(e.key)), \(escape(e.source))</span>\(marks.isEmpty ? "" : " " + badges(marks))</li>"
            }
            s += "</ol>" + AccessReportCode.html(u) + "</div>\n"
        }
        s += "</div>\n</body>\n</html>\n"
        return s
    }
}
