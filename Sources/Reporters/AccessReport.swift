import Foundation
public import EntitlintCore

/// `entitlint report`: the family of apps as the keychain sees it. For every unit,
/// its bundle ID, team, profile (or why none), and its ordered access-group list with the default
/// marked and where each entry came from; then the sharing matrix, groups x units, app groups apart
/// from keychain groups. Built from the units of a run; renderers (text, markdown, json, dot,
/// html) only format it.
public struct AccessReport: Sendable, Codable, Hashable {
    public struct FactValue: Sendable, Codable, Hashable {
        public var value: String?
        /// Where Entitlint got it (`PRODUCT_BUNDLE_IDENTIFIER at Config/App.xcconfig:3`).
        public var source: String?
    }

    public struct Profile: Sendable, Codable, Hashable {
        public var path: String
        public var name: String?
        public var uuid: String?
    }

    public struct Entry: Sendable, Codable, Hashable {
        public var group: String
        /// `keychain`, `app-id`, `associated-app-id` or `app-group`.
        public var kind: String
        public var isDefault: Bool
        /// `keychain-access-groups[1]`, `application-identifier`, or `App ID` when derived.
        public var key: String
        /// `App/App.entitlements:8`, or how a derived entry was formed.
        public var source: String
        /// False when a variable in it could not be expanded (the text keeps it as written).
        public var concrete: Bool
    }

    public struct Unit: Sendable, Codable, Hashable {
        public var name: String
        public var project: String?
        public var target: String?
        public var configuration: String?
        public var kind: String?
        public var host: String?
        public var platform: String
        public var sdk: String?
        public var entitlements: String?
        public var bundleID: FactValue
        public var team: FactValue
        public var appIDPrefix: FactValue
        public var profile: Profile?
        /// Why there is no profile (`automatic signing; no matching profile on disk`).
        public var profileNote: String?
        public var signingStyle: String?
        public var groups: [Entry]
        /// The groups the unit's code passes to the keychain, each place once; nil when what the
        /// unit compiles is not known (AccessReportCode.swift).
        public var code: [CodeUse]?
    }

    /// One column of the matrix: a group and the units (by name) that can reach it, the ones whose
    /// default it is among them.
    public struct Group: Sendable, Codable, Hashable {
        public var group: String
        public var kind: String
        public var members: [String]
        public var defaultFor: [String]
        /// Distinct targets among the members (configurations of a target count once).
        public var targets: Int
        /// The members whose code names the group (writes to it or reads it explicitly); nil when
        /// the code of no unit is known.
        public var namedBy: [String]?
    }

    public var version: Int
    public var units: [Unit]
    public var keychainGroups: [Group]
    public var appGroups: [Group]

    /// `code`: what each unit's code does with access groups, when the run scanned it.
    public init(units signingUnits: [SigningUnit], code: (SigningUnit) -> UnitCode? = { _ in nil }) {
        version = 1
        let sorted = signingUnits.sorted { Self.order($0) < Self.order($1) }
        units = sorted.map { s in
            var u = Self.unit(s)
            u.code = code(s).map { Self.codeUses($0, of: s) }
            return u
        }
        var byGroup: [String: (kind: String, members: [String], defaults: [String], targets: Set<String>)] = [:]
        var firstSeen: [String] = []
        for (u, s) in zip(units, sorted) {
            for e in u.groups {
                let family = e.kind == "app-group" ? "app-group" : "keychain"
                let key = family + "\u{0}" + e.group
                if byGroup[key] == nil { byGroup[key] = (family, [], [], []); firstSeen.append(key) }
                if !byGroup[key]!.members.contains(u.name) { byGroup[key]!.members.append(u.name) }
                if e.isDefault { byGroup[key]!.defaults.append(u.name) }
                byGroup[key]!.targets.insert(s.targetKey)
            }
        }
        let built = units
        let anyCode = units.contains { $0.code != nil }
        let groups = firstSeen.map { key -> Group in
            let g = byGroup[key]!
            let name = String(key.split(separator: "\u{0}", maxSplits: 1).last ?? "")
            return Group(group: name, kind: g.kind, members: g.members, defaultFor: g.defaults, targets: g.targets.count,
                         namedBy: anyCode ? built.filter { u in g.members.contains(u.name) && u.code?.contains { $0.group == name } == true }.map(\.name) : nil)
        }
        // Shared groups first (most targets), then by name.
        let ordered = groups.sorted { a, b in a.targets != b.targets ? a.targets > b.targets : a.group < b.group }
        keychainGroups = ordered.filter { $0.kind == "keychain" }
        appGroups = ordered.filter { $0.kind == "app-group" }
    }

    static func order(_ u: SigningUnit) -> String {
        guard let o = u.origin else { return "1\u{0}" + u.name }
        return "0\u{0}" + o.projectFile + "\u{0}" + o.target + "\u{0}" + o.configuration
    }

    static func unit(_ s: SigningUnit) -> Unit {
        let list = s.accessGroups
        var entries: [Entry] = []
        for (i, e) in list.entries.enumerated() {
            let kind: String
            switch e.origin {
            case .keychainAccessGroups: kind = "keychain"
            case .associatedApplicationIdentifier: kind = "associated-app-id"
            case .applicationIdentifier: kind = "app-id"
            case .appGroup: kind = "app-group"
            }
            let key = e.key == nil ? "App ID" : e.keyPath
            let source: String
            if e.location.isKnown {
                source = "\(s.entitlementsPath):\(e.location.line)"
            } else if e.key == nil {
                source = "derived: App ID prefix + bundle ID"
            } else {
                source = s.entitlementsPath
            }
            entries.append(Entry(group: e.value, kind: kind, isDefault: i == 0, key: key, source: source, concrete: e.isConcrete))
        }
        let o = s.origin
        return Unit(name: s.name, project: o?.projectFile, target: o?.target, configuration: o?.configuration, kind: o?.kind.rawValue,
                    host: o?.hostTarget, platform: s.platform.rawValue, sdk: o?.sdk,
                    entitlements: o.map { $0.hasEntitlementsFile ? s.entitlementsPath : nil } ?? s.entitlementsPath,
                    bundleID: FactValue(value: s.bundleID?.value, source: s.bundleID.map { "\($0.source)" }),
                    team: FactValue(value: s.teamID?.value, source: s.teamID.map { "\($0.source)" }),
                    appIDPrefix: FactValue(value: s.appIDPrefix?.value, source: s.appIDPrefix.map { "\($0.source)" }),
                    profile: s.profile.map { Profile(path: $0.path, name: $0.profile.name, uuid: $0.profile.uuid) },
                    profileNote: s.profile == nil ? (o?.profileNote ?? "no profile paired") : nil,
                    signingStyle: o?.signingStyle, groups: entries)
    }

    /// Short labels for the matrix columns: `1`..`n`, in unit order.
    var unitNumbers: [String: Int] {
        Dictionary(uniqueKeysWithValues: units.enumerated().map { ($0.element.name, $0.offset + 1) })
    }

    /// The cell of the matrix for a group and a unit: `D` default, `x` in the list, `.` not.
    func cell(_ group: Group, _ unit: String) -> Character {
        group.defaultFor.contains(unit) ? "D" : group.members.contains(unit) ? "x" : "."
    }

    /// Whether the unit's code names the group.
    func named(_ group: Group, _ unit: String) -> Bool { group.namedBy?.contains(unit) == true }
}

/// The formats of `entitlint report`.
public enum AccessReportFormat: String, Sendable, CaseIterable {
    case text, markdown, json, dot, html

    /// The human-readable formats render `report.escapedForDisplay()`: every string in them comes
    /// from inputs, so each is escaped once, before any format's own quoting. JSON keeps the
    /// values as they are (its encoder escapes them).
    public func render(_ report: AccessReport) -> String {
        switch self {
        case .text: return AccessReportText.render(report.escapedForDisplay())
        case .markdown: return AccessReportMarkdown.render(report.escapedForDisplay())
        case .json: return AccessReportJSON.render(report)
        case .dot: return AccessReportDot.render(report.escapedForDisplay())
        case .html: return AccessReportHTML.render(report.escapedForDisplay())
        }
    }
}

extension AccessReport {
    /// A copy with every string passed through `OutputText.escape` (no control character, line
    /// or paragraph separator or bidi control left), and unit names, which the text format
    /// prints at the start of lines, through `OutputText.lineStart` (never `::` first).
    /// Unit names are changed the same way wherever they appear, so the matrix still matches
    /// groups to units.
    public func escapedForDisplay() -> AccessReport {
        func e(_ s: String) -> String { OutputText.escape(s) }
        func e(_ s: String?) -> String? { s.map(OutputText.escape) }
        func name(_ s: String) -> String { OutputText.lineStart(s) }
        func fact(_ f: FactValue) -> FactValue { FactValue(value: e(f.value), source: e(f.source)) }
        func group(_ g: Group) -> Group {
            Group(group: e(g.group), kind: e(g.kind), members: g.members.map(name), defaultFor: g.defaultFor.map(name), targets: g.targets,
                  namedBy: g.namedBy?.map(name))
        }
        var out = self
        out.units = units.map { u in
            var u = u
            u.name = name(u.name)
            u.project = e(u.project)
            u.target = e(u.target)
            u.configuration = e(u.configuration)
            u.kind = e(u.kind)
            u.host = e(u.host)
            u.platform = e(u.platform)
            u.sdk = e(u.sdk)
            u.entitlements = e(u.entitlements)
            u.bundleID = fact(u.bundleID)
            u.team = fact(u.team)
            u.appIDPrefix = fact(u.appIDPrefix)
            u.profile = u.profile.map { Profile(path: e($0.path), name: e($0.name), uuid: e($0.uuid)) }
            u.profileNote = e(u.profileNote)
            u.signingStyle = e(u.signingStyle)
            u.code = u.code?.map { $0.escaped() }
            u.groups = u.groups.map { x in
                var x = x
                x.group = e(x.group)
                x.kind = e(x.kind)
                x.key = e(x.key)
                x.source = e(x.source)
                return x
            }
            return u
        }
        out.keychainGroups = keychainGroups.map(group)
        out.appGroups = appGroups.map(group)
        return out
    }
}

enum AccessReportJSON {
    static func render(_ report: AccessReport) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? enc.encode(report) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

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

    static func render(_ report: AccessReport) -> String {
        var s = ""
        let n = report.units.count
        s += "Access groups of \(n) unit\(n == 1 ? "" : "s") (* marks the default group)\n"
        for u in report.units {
            s += "\n"
            var head: [String] = []
            if let k = u.kind { head.append(u.host.map { "\(k) of \($0)" } ?? k) }
            head.append(u.sdk ?? u.platform)
            if let p = u.project { head.append(p) }
            s += line(u.name, head.joined(separator: ", "), column: 0, indent: 2)
            let (b, bs) = fact(u.bundleID, unknown: "unknown")
            let (t, ts) = fact(u.team, unknown: "unknown")
            var facts: [(String, String, String)] = [("bundle ID", b, bs), ("team", t, ts)]
            if let prefix = u.appIDPrefix.value, prefix != u.team.value {
                facts.append(("App ID prefix", prefix, u.appIDPrefix.source ?? ""))
            }
            if let p = u.profile {
                facts.append(("profile", p.name ?? p.path, p.name == nil ? "" : p.path))
            } else {
                facts.append(("profile", "none" + (u.profileNote.map { " (\($0))" } ?? ""), ""))
            }
            facts.append(("entitlements", u.entitlements ?? "none (the target names no entitlements file)", ""))
            let factColumn = 16 + (facts.filter { !$0.2.isEmpty }.map(\.1.count).max() ?? 0) + 2
            for (label, value, source) in facts {
                s += line("  " + pad(label, 14) + value, source, column: factColumn, indent: 16)
            }
            let groupColumn = 6 + (u.groups.map { $0.group.count + ($0.concrete ? 0 : 11) }.max() ?? 0) + 2
            for e in u.groups {
                let left = "  " + (e.isDefault ? "* " : "  ") + e.group + (e.concrete ? "" : " (symbolic)")
                s += line(left, "\(e.key), \(e.source)", column: groupColumn, indent: 6)
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
        s += "\nUnits:\n"
        for (i, u) in report.units.enumerated() {
            s += "  \(pad(numbers[i], (numbers.last?.count ?? 1)))  \(u.name)\n"
        }
        return s
    }
}

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
