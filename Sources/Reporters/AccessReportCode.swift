import EntitlintCore

extension AccessReport {
    /// One place where a unit's code passes an access group to the keychain.
    public struct CodeUse: Sendable, Codable, Hashable {
        /// The group, after the unit's variables; nil when the code builds it at run time.
        public var group: String?
        /// `App/Keychain.swift:12`
        public var place: String
        /// `kSecAttrAccessGroup`, `KeychainAccess accessGroup:`, ...
        public var api: String
        /// Why the group is not known (`parameter group`), when it is not.
        public var unknown: String?
        /// The group is in the unit's access-group list (nil when the group is not known).
        public var granted: Bool?
        /// How the value was resolved, one step each, first the name written at the place:
        /// `AppConstants.group (App/Constants.swift:12)`, `case .beta (App/Env.swift:8)`,
        /// `Info.plist AppIdentifierPrefix`; empty for a literal written at the place.
        public var chain: [String] = []
        /// The `#if` condition this value is compiled under that the unit's build settings do
        /// not decide: no rule checks it.
        public var undecided: String?

        func escaped() -> CodeUse {
            CodeUse(group: group.map(OutputText.escape), place: OutputText.escape(place), api: OutputText.escape(api),
                    unknown: unknown.map(OutputText.escape), granted: granted, chain: chain.map(OutputText.escape),
                    undecided: undecided.map(OutputText.escape))
        }

        /// `from A (f:1), B (f:2)` and the undecided condition, for the text formats; empty when neither.
        var how: String {
            var parts: [String] = []
            if !chain.isEmpty { parts.append("from " + chain.joined(separator: " -> ")) }
            if let undecided { parts.append("only when \(undecided), which the build settings do not decide: not checked") }
            return parts.joined(separator: "; ")
        }
    }

    static func codeUses(_ code: UnitCode, of unit: SigningUnit) -> [CodeUse] {
        let list = Set(unit.accessGroups.entries.map(\.value))
        let expander = unit.expander
        var seen = Set<CodeUse>()
        return code.groups.compactMap { use in
            let group = use.resolved.value.map { expander.expand($0).text }
            let entry = CodeUse(group: group, place: "\(use.path):\(use.line)", api: use.api, unknown: use.resolved.unknown,
                                granted: use.resolved.undecided == nil ? group.map(list.contains) : nil, chain: use.resolved.steps,
                                undecided: use.resolved.undecided)
            return seen.insert(entry).inserted ? entry : nil
        }
    }
}

/// The code side of the report: per unit, the groups its code passes, with file and line.
enum AccessReportCode {
    static func label(_ use: AccessReport.CodeUse) -> String {
        if let group = use.group { return group + (use.granted == false ? " (NOT GRANTED)" : "") }
        return "(built at run time: \(use.unknown ?? "not known"))"
    }

    static func text(_ u: AccessReport.Unit) -> String {
        guard let code = u.code else { return "" }
        if code.isEmpty { return "  code: names no access group\n" }
        var s = "  code names:\n"
        let column = 6 + (code.map { label($0).count }.max() ?? 0) + 2
        for use in code {
            s += AccessReportText.line("    " + label(use), "\(use.place) (\(use.api))", column: column, indent: 6)
            // One line per step of the chain, then the undecided condition, each cut to the width.
            for step in use.chain { s += AccessReportText.clip("      <- " + step, AccessReportText.width) + "\n" }
            if let undecided = use.undecided {
                s += AccessReportText.clip("      only when \(undecided) (not decided by the build settings): not checked", AccessReportText.width) + "\n"
            }
        }
        return s
    }

    static func markdown(_ u: AccessReport.Unit) -> String {
        guard let code = u.code, !code.isEmpty else { return "" }
        var s = "Its code names:\n\n"
        for use in code {
            let group = use.group.map { AccessReportMarkdown.code($0) + (use.granted == false ? " **(not granted)**" : "") }
                ?? "built at run time (\(AccessReportMarkdown.escape(use.unknown ?? "not known")))"
            let how = use.how.isEmpty ? "" : " (\(AccessReportMarkdown.escape(use.how)))"
            s += "- \(group) — \(AccessReportMarkdown.code(use.place)), \(AccessReportMarkdown.escape(use.api))\(how)\n"
        }
        return s + "\n"
    }

    static func html(_ u: AccessReport.Unit) -> String {
        guard let code = u.code, !code.isEmpty else { return "" }
        var s = "<ul class=\"code\">"
        for use in code {
            let group = use.group.map { "<code>\(AccessReportHTML.escape($0))</code>" + (use.granted == false ? " <span class=\"none\">not granted</span>" : "") }
                ?? "built at run time <span class=\"src\">\(AccessReportHTML.escape(use.unknown ?? ""))</span>"
            let how = use.how.isEmpty ? "" : " <span class=\"src\">\(AccessReportHTML.escape(use.how))</span>"
            s += "<li>\(group) <span class=\"src\">\(AccessReportHTML.escape(use.place)), \(AccessReportHTML.escape(use.api))</span>\(how)</li>"
        }
        return s + "</ul>"
    }

    /// DOT: a dashed edge, labelled `code`, from each unit to each known group its code names
    /// (red and labelled `code, not granted` when the unit's list lacks it), to the group's node;
    /// a group that no unit's list holds gets a node of its own, dashed. Groups built at run time
    /// are not drawn (the other formats list them). `report` is already escaped for display.
    static func dot(_ report: AccessReport, quote: (String) -> String) -> String {
        let keychain = Set(report.keychainGroups.map(\.group))
        let app = Set(report.appGroups.map(\.group))
        var nodes = ""
        var declared = Set<String>()
        var edges = ""
        for u in report.units {
            var seen = Set<String>()
            for use in u.code ?? [] {
                guard let group = use.group, seen.insert(group).inserted else { continue }
                let node: String
                if keychain.contains(group) {
                    node = "keychain:" + group
                } else if app.contains(group) {
                    node = "app-group:" + group
                } else {
                    node = "code:" + group
                    if declared.insert(node).inserted {
                        nodes += "  \(quote(node)) [shape=ellipse, style=dashed, color=\"#de350b\", label=\(quote(group))];\n"
                    }
                }
                let attributes = use.granted == false ? "style=dashed, color=\"#de350b\", label=\"code, not granted\"" : "style=dashed, label=\"code\""
                edges += "  \(quote("unit:" + u.name)) -> \(quote(node)) [\(attributes)];\n"
            }
        }
        return nodes + edges
    }
}
