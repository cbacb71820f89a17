public import PropertyList

/// The places a fact about a signing unit can come from, named for the precedence table.
public enum FactSlot: String, Sendable, Hashable, CaseIterable {
    /// `--team-id`, `--bundle-id`.
    case flag
    /// The project's build settings (`DEVELOPMENT_TEAM`, `PRODUCT_BUNDLE_IDENTIFIER`, TargetAttributes).
    case buildSetting
    /// The configuration's `apps:` entry for the unit's entitlements file.
    case configApp
    /// The configuration's top-level `team:`.
    case config
    /// What a built product states of itself: its Info.plist's `CFBundleIdentifier`.
    case builtProduct
    /// The entitlements file's own literal `application-identifier` and `com.apple.developer.team-identifier`.
    case entitlements
    /// The provisioning profile paired with the unit.
    case profile
    /// The unit's Team ID, taken to be its App ID prefix: assumed unless the user stated the team.
    case team

    /// The case's position in `allCases`.
    var ordinal: UInt8 {
        switch self {
        case .flag: 0
        case .buildSetting: 1
        case .configApp: 2
        case .config: 3
        case .builtProduct: 4
        case .entitlements: 5
        case .profile: 6
        case .team: 7
        }
    }

    /// Hashes the case, not its raw string (which a raw-valued enum hashes by default): the
    /// resolver looks slots up for every fact of every unit.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
}

/// The one place that decides which source gives each fact of a signing unit: every discovery
/// source (loose files, project units, built products, standard input) offers what it has, and
/// `resolve` takes, per fact, the first slot of `precedence` that offers a value. A slot that
/// would state the fact but cannot be read (`offerUnknown`) never hides a value below it (the
/// configuration states what a missing per-developer file would); when no slot gives a value,
/// the fact is unknown with the first such why.
public struct FactResolver: Sendable {
    /// First match wins. The flags come first; then what the project builds with; then the
    /// configuration, which fills in what a project does not say; then what the files say. The App ID prefix is the profile's (`$(AppIdentifierPrefix)` is
    /// its `ApplicationIdentifierPrefix[0]`), before the prefix a literal `application-identifier`
    /// writes (which may be the very mistake to report), and the Team ID only when nothing states it.
    public static let precedence: [FactKind: [FactSlot]] = [
        .teamID: [.flag, .buildSetting, .configApp, .config, .profile, .entitlements],
        .bundleID: [.flag, .buildSetting, .configApp, .builtProduct, .entitlements, .profile],
        .appIDPrefix: [.profile, .entitlements, .team],
    ]

    /// Why a fact no slot offers, and none says it cannot read, is unknown.
    public static let unstated = "nothing states it"

    /// What each slot offers of each kind, and why a slot cannot say: tables indexed by kind and
    /// slot (`cell`), since the resolver runs for every fact of every unit and hashing the keys
    /// of nested dictionaries cost more than the rest of it.
    private var offered = [Fact<String>?](repeating: nil, count: Self.cells)
    private var unknown = [String?](repeating: nil, count: Self.cells)
    private static let cells = FactKind.allCases.count * FactSlot.allCases.count

    private static func cell(_ kind: FactKind, _ slot: FactSlot) -> Int {
        Int(kind.ordinal) * FactSlot.allCases.count + Int(slot.ordinal)
    }

    /// `precedence[kind]`, without a dictionary look-up.
    private static let teamOrder = precedence[.teamID]!, bundleOrder = precedence[.bundleID]!, prefixOrder = precedence[.appIDPrefix]!
    private static func order(_ kind: FactKind) -> [FactSlot] {
        switch kind {
        case .teamID: teamOrder
        case .bundleID: bundleOrder
        case .appIDPrefix: prefixOrder
        case .profile: []
        }
    }

    public init() {}

    /// `fact` as what `slot` says of `kind` (nil: the slot says nothing).
    public mutating func offer(_ kind: FactKind, from slot: FactSlot, _ fact: Fact<String>?) {
        guard let fact else { return }
        offered[Self.cell(kind, slot)] = fact
    }

    /// `slot` would state `kind`, but its value cannot be known, for the reason `why`.
    public mutating func offerUnknown(_ kind: FactKind, from slot: FactSlot, why: String) {
        unknown[Self.cell(kind, slot)] = why
    }

    /// The facts an entitlements file states itself: a literal `PREFIX.bundle` application
    /// identifier (no build variable; a bundle part with a wildcard is no bundle ID), and a
    /// Team-ID-like `com.apple.developer.team-identifier`.
    public mutating func offerEntitlements(_ ent: PlistDictionary) {
        let appIDKey = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        if let appID = ent[appIDKey]?.string, !appID.containsASCII(sequence: "$("), !appID.containsASCII(sequence: "${"),
           let dot = appID.firstIndex(of: "."), String(appID[..<dot]).isTeamIDLike {
            let bundle = String(appID[appID.index(after: dot)...])
            if !bundle.isEmpty, !bundle.containsASCII("*") { offer(.bundleID, from: .entitlements, Fact(bundle, from: .entitlements(key: appIDKey))) }
            offer(.appIDPrefix, from: .entitlements, Fact(String(appID[..<dot]), from: .entitlements(key: appIDKey)))
        }
        let teamKey = "com.apple.developer.team-identifier"
        if let t = ent[teamKey]?.string, t.isTeamIDLike { offer(.teamID, from: .entitlements, Fact(t, from: .entitlements(key: teamKey))) }
    }

    /// What `profile` states: its App ID prefix and Team ID (the first of each), and, when
    /// `bundle`, the bundle ID of an explicit App ID (no wildcard).
    public mutating func offerProfile(_ profile: ProfileFile, bundle: Bool = true) {
        let prof = profile.profile
        let source = FactSource.profile(profile.path)
        offer(.appIDPrefix, from: .profile, prof.applicationIdentifierPrefixes.first.map { Fact($0, from: source) })
        offer(.teamID, from: .profile, prof.teamIdentifiers.first.map { Fact($0, from: source) })
        if bundle, let pattern = prof.applicationIdentifier, !pattern.containsASCII("*"), let dot = pattern.firstIndex(of: ".") {
            offer(.bundleID, from: .profile, Fact(String(pattern[pattern.index(after: dot)...]), from: source))
        }
    }

    /// The fact `kind` takes, or why it is unknown; `excluding`: slots not consulted (a profile
    /// is searched for by the App ID the unit states, not by one taken from its team).
    public func resolve(_ kind: FactKind, excluding: Set<FactSlot> = []) -> Result {
        var why: String?
        for slot in Self.order(kind) where excluding.isEmpty || !excluding.contains(slot) {
            if slot == .team {
                switch resolve(.teamID) {
                case .value(let team): return .value(Self.prefix(takenFrom: team))
                case .unknown(let w): why = why ?? w
                }
            } else if let fact = offered[Self.cell(kind, slot)] {
                return .value(fact)
            } else if why == nil, let w = unknown[Self.cell(kind, slot)] {
                why = w
            }
        }
        return .unknown(why ?? Self.unstated)
    }

    public enum Result: Sendable, Hashable {
        case value(Fact<String>)
        case unknown(String)

        public var fact: Fact<String>? {
            if case .value(let f) = self { return f }
            return nil
        }
    }

    /// The Team ID as the App ID prefix: a team the user states is taken as the prefix too
    /// (signing-units.md), so known; any other is only assumed to be (teams older than June 2011
    /// may have a legacy prefix).
    static func prefix(takenFrom team: Fact<String>) -> Fact<String> {
        var from = team.source.description
        if case .entitlements(let key) = team.source { from = key }
        let why = "App ID prefix taken to be the Team ID (\(from))"
        return Fact(team.value, from: team.source.isStated ? .derived(why) : .assumed(why))
    }

    /// Sets the unit's Team ID, bundle ID and App ID prefix as resolved, and records why each
    /// one left unset is unknown, when a slot said why.
    public func apply(to unit: inout SigningUnit, excluding: Set<FactSlot> = []) {
        var reasons: [FactKind: String] = [:]
        for kind in [FactKind.teamID, .bundleID, .appIDPrefix] {
            let result = resolve(kind, excluding: excluding)
            switch kind {
            case .teamID: unit.teamID = result.fact
            case .bundleID: unit.bundleID = result.fact
            default: unit.appIDPrefix = result.fact
            }
            if case .unknown(let why) = result, why != Self.unstated { reasons[kind] = why }
        }
        if unit.unknownFacts != reasons { unit.unknownFacts = reasons }
    }
}

extension SigningUnit {
    /// The fact of `kind` (the profile's path for `.profile`).
    public func fact(_ kind: FactKind) -> Fact<String>? {
        switch kind {
        case .teamID: return teamID
        case .bundleID: return bundleID
        case .appIDPrefix: return appIDPrefix
        case .profile: return profile.map { Fact($0.path, from: .profile($0.path)) }
        }
    }

    /// How far the unit's fact of `kind` is known: assumed with what was assumed, or unknown
    /// with why (the reason a source gave; for the profile, why the project's unit has none; else
    /// that nothing states it).
    public func certainty(of kind: FactKind) -> FactCertainty {
        if let f = fact(kind) { return f.certainty }
        let why = kind == .profile ? origin?.profileNote : unknownFacts[kind]
        return .unknown(why ?? "nothing states the \(kind.rawValue)")
    }
}
