#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        /// True when the App ID prefix is the Team ID taken for it (no profile, entitlement or
        /// setting states it); false when one does, or when it is unknown.
        public var appIDPrefixAssumed = false
        /// The run's findings about this unit (AccessReportFindings.swift).
        public var findings: [Mark] = []
        /// Set when the default group moved since the lock file or the `--against` revision.
        public var defaultMoved: DefaultMove?
        /// Where the entitlements file and the profile are named (AccessReportProvenance.swift).
        public var entitlementsSource: String?
        public var profileSource: String?
        /// Device families, minimum OS and workspace as the project declares them (AccessReportProvenance.swift).
        public var declared: AccessReportDeclared?
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
        /// The findings about an entry holding this group, in any member's list.
        public var findings: [Mark] = []
    }

    public var version: Int
    /// Every unit (each configuration of each target), with all its facts.
    public var units: [Unit]
    /// Each target once, with a section per set of configurations that agree on every fact,
    /// group and finding; a section names the units it stands for.
    public var targets: [Target]
    public var keychainGroups: [Group]
    public var appGroups: [Group]

    /// `code`: what each unit's code does with access groups, when the run scanned it.
    /// `findings`: the lint run's findings on these units; `moves`: the units (by name) whose
    /// default group moved since the reference.
    public init(units signingUnits: [SigningUnit], findings: [Finding] = [], moves: [String: DefaultMove] = [:],
                code: (SigningUnit) -> UnitCode? = { _ in nil }) {
        version = 2
        let sorted = signingUnits.sorted { Self.order($0) < Self.order($1) }
        units = sorted.map { s in
            var u = Self.unit(s)
            u.code = code(s).map { Self.codeUses($0, of: s) }
            u.defaultMoved = moves[s.name]
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
        targets = []
        attach(findings, units: sorted)
        // After the findings: units that differ in them are not folded.
        targets = Self.targets(units)
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
        var assumed = false
        switch s.appIDPrefix?.source {
        case .derived?, .assumed?: assumed = true
        default: break
        }
        var unit = Unit(name: s.name, project: o?.projectFile, target: o?.target, configuration: o?.configuration, kind: o?.kind.rawValue,
                    host: o?.hostTarget, platform: s.platform.rawValue, sdk: o?.sdk,
                    entitlements: o.map { $0.hasEntitlementsFile ? s.entitlementsPath : nil } ?? s.entitlementsPath,
                    bundleID: FactValue(value: s.bundleID?.value, source: s.bundleID.map { "\($0.source)" }),
                    team: FactValue(value: s.teamID?.value, source: s.teamID.map { "\($0.source)" }),
                    appIDPrefix: FactValue(value: s.appIDPrefix?.value, source: s.appIDPrefix.map { "\($0.source)" }),
                    profile: s.profile.map { Profile(path: $0.path, name: $0.profile.name, uuid: $0.profile.uuid) },
                    profileNote: s.profile == nil ? (o?.profileNote ?? "no profile paired") : nil,
                    signingStyle: o?.signingStyle, groups: entries)
        unit.appIDPrefixAssumed = assumed
        (unit.entitlementsSource, unit.profileSource) = UnitProvenance.of(o)
        unit.declared = UnitProvenance.declared(o)
        return unit
    }

    /// Short labels for the matrix columns: `1`..`n`, in unit order.
    var unitNumbers: [String: Int] {
        Dictionary(uniqueKeysWithValues: units.enumerated().map { ($0.element.name, $0.offset + 1) })
    }

    /// The cell of the matrix for a group and a unit: `D` default, `x` in the list, `.` not.
    func cell(_ group: Group, _ unit: String) -> Character {
        group.defaultFor.contains(unit) ? "D" : group.members.contains(unit) ? "x" : "."
    }

    /// The findings about the group in one unit's list.
    func marks(_ group: Group, _ unit: String) -> [Mark] { group.findings.filter { $0.unit == unit } }

    /// Whether the unit's code names the group.
    func named(_ group: Group, _ unit: String) -> Bool { group.namedBy?.contains(unit) == true }
}

/// The formats of `entitlint report`.
public enum AccessReportFormat: String, Sendable, CaseIterable {
    case text, markdown, json, dot, html

    /// How the output boundary writes what it changes so that no line is a CI workflow command
    /// (`OutputText.guardCommandLines`): references in HTML and Graphviz (which decodes them in
    /// labels), JSON escapes in JSON, visible escapes in text and Markdown.
    public var commandGuard: CommandGuardStyle {
        switch self {
        case .text, .markdown: return .text
        case .json: return .json
        case .dot, .html: return .markup
        }
    }

    /// The human-readable formats render `report.escapedForDisplay()`: every string in them comes
    /// from inputs, so each is escaped once, before any format's own quoting. JSON keeps the
    /// values as they are (its encoder escapes them).
    /// `colour`: ANSI colours in the text format (the other formats ignore it).
    public func render(_ report: AccessReport, colour: Bool = false) -> String {
        switch self {
        case .text: return AccessReportText.render(report.escapedForDisplay(), colour: colour)
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
                  namedBy: g.namedBy?.map(name), findings: g.findings.map { $0.escaped() })
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
            (u.entitlements, u.entitlementsSource, u.profileSource) = (e(u.entitlements), e(u.entitlementsSource), e(u.profileSource))
            u.declared = u.declared?.escaped()
            u.bundleID = fact(u.bundleID)
            u.team = fact(u.team)
            u.appIDPrefix = fact(u.appIDPrefix)
            u.profile = u.profile.map { Profile(path: e($0.path), name: e($0.name), uuid: e($0.uuid)) }
            u.profileNote = e(u.profileNote)
            u.signingStyle = e(u.signingStyle)
            u.code = u.code?.map { $0.escaped() }
            u.findings = u.findings.map { $0.escaped() }
            u.defaultMoved = u.defaultMoved?.escaped()
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
        out.targets = Self.targets(out.units)
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

