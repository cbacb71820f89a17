extension AccessReport {
    /// What the report shows of one target: a unit standing for the configurations of the target
    /// (and platform) whose facts, groups and findings agree (`App (Debug, Release)`), or a unit
    /// alone (its configuration differs, or its name is not `Target (Configuration...)`).
    public struct Section: Sendable, Codable, Hashable {
        /// `App (Debug, Release)`, or the unit's own name when it stands alone.
        public var name: String
        /// The configurations it stands for, in unit order; empty for a unit with no origin.
        public var configurations: [String]
        /// The names of the units it stands for, in unit order; the first one's facts are shown.
        public var units: [String]
    }

    /// One target of the report (a unit with no origin is a target of its own), shown once: its
    /// sections, one for all its configurations when they agree, else one per set that agrees.
    public struct Target: Sendable, Codable, Hashable {
        public var project: String?
        /// The target's name, or the unit's when it has no origin.
        public var target: String
        public var sections: [Section]
    }

    /// The targets of `units`, in the order of their first unit.
    static func targets(_ units: [Unit]) -> [Target] {
        var out: [Target] = []
        var slot: [String: Int] = [:]
        for (u, section) in sections(units) {
            let name = u.target ?? u.name
            let key = (u.project ?? "") + "\u{0}" + name + "\u{0}" + (u.target == nil ? "unit" : "target")
            if let i = slot[key] {
                out[i].sections.append(section)
            } else {
                slot[key] = out.count
                out.append(Target(project: u.project, target: name, sections: [section]))
            }
        }
        return out
    }

    /// What a section's units must agree on besides where each fact was read, down to what their
    /// code passes to the keychain, place by place.
    struct Essentials: Hashable {
        var project: String?
        var target: String?
        var variant: String
        var kind: String?
        var host: String?
        var sdk: String?
        var bundleID: String?
        var team: String?
        var prefix: String?
        var assumed: Bool
        var profile: String?
        var profileNote: String?
        var entitlements: String?
        var groups: [String]
        /// The findings without the unit each is attached to: one finding folded over several
        /// configurations marks each of them the same.
        var findings: [String]
        var moved: Bool
        var code: [CodeUse]?
        var declared: [String]
    }

    /// The sections of `units`, in the order of their first unit. Linear in the units (one
    /// dictionary look-up each).
    static func sections(_ units: [Unit]) -> [(unit: Unit, section: Section)] {
        var order: [Essentials] = []
        var groups: [Essentials: (unit: Unit, configurations: [String], names: [String], variant: String)] = [:]
        var out: [(Unit, Section)?] = []
        var slot: [Essentials: Int] = [:]
        for u in units {
            guard let target = u.target, let configuration = u.configuration,
                  u.name.hasPrefix(target + " (" + configuration), u.name.hasSuffix(")") else {
                out.append((u, Section(name: u.name, configurations: u.configuration.map { [$0] } ?? [], units: [u.name])))
                continue
            }
            let variant = String(u.name.dropFirst(target.count + 2 + configuration.count).dropLast())
            let key = Essentials(project: u.project, target: target, variant: variant, kind: u.kind, host: u.host, sdk: u.sdk,
                                 bundleID: u.bundleID.value, team: u.team.value, prefix: u.appIDPrefix.value, assumed: u.appIDPrefixAssumed,
                                 profile: u.profile?.path, profileNote: u.profileNote, entitlements: u.entitlements,
                                 groups: u.groups.map { "\($0.isDefault) \($0.concrete) \($0.key) \($0.group)" },
                                 findings: u.findings.map { "\($0.rule) \($0.severity) \($0.path) \($0.line ?? 0) \($0.keyPath ?? "") \($0.message)" },
                                 moved: u.defaultMoved != nil, code: u.code,
                                 declared: (u.declared?.shown ?? []).map { $0.label + " " + ($0.item.value ?? "unknown") })
            if groups[key] == nil {
                order.append(key)
                groups[key] = (u, [configuration], [u.name], variant)
                slot[key] = out.count
                out.append(nil)
            } else {
                groups[key]!.configurations.append(configuration)
                groups[key]!.names.append(u.name)
            }
        }
        for key in order {
            let g = groups[key]!
            let name = g.configurations.count == 1 ? g.unit.name : "\(key.target!) (\(g.configurations.joined(separator: ", "))\(g.variant))"
            out[slot[key]!] = (g.unit, Section(name: name, configurations: g.configurations, units: g.names))
        }
        return out.compactMap { $0 }
    }
}
