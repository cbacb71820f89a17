/// Where a fact about a signing unit came from, so messages can say why Entitlint believes it.
public enum FactSource: Sendable, Hashable, CustomStringConvertible {
    case flag(String)                    // e.g. "--team-id"
    case config(String)                  // path of .entitlint.yml
    case profile(String)                 // path of the profile
    case entitlements(key: String)       // a key of the entitlements file itself
    case derived(String)                 // computed from known facts: "maccatalyst. + PRODUCT_BUNDLE_IDENTIFIER at ..."
    case xcode(String)                   // a build setting: "PRODUCT_BUNDLE_IDENTIFIER at App.xcodeproj/project.pbxproj:301"
    /// Taken to be so for want of a source that states it: "App ID prefix taken to be the Team ID
    /// (DEVELOPMENT_TEAM at ...)". The one source whose fact is `FactCertainty.assumed`.
    case assumed(String)

    public var description: String {
        switch self {
        case .flag(let f): return "flag \(f)"
        case .config(let p): return "config \(p)"
        case .profile(let p): return "profile \(p)"
        case .entitlements(let k): return "\(k) in the entitlements file"
        case .derived(let why), .assumed(let why): return why
        case .xcode(let setting): return setting
        }
    }

    /// Whether the user stated the fact (`--team-id`, the configuration): what Entitlint is told
    /// is believed as told.
    public var isStated: Bool {
        switch self {
        case .flag, .config: return true
        default: return false
        }
    }
}

/// The facts of a signing unit that rules reason about, and that the engine checks a rule's
/// findings against (`RuleDescription.facts`).
public enum FactKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case teamID = "Team ID"
    case bundleID = "bundle ID"
    case appIDPrefix = "App ID prefix"
    /// The provisioning profile the unit is signed with.
    case profile

    /// The case's position in `allCases`, without comparing raw strings.
    var ordinal: UInt8 {
        switch self {
        case .teamID: 0
        case .bundleID: 1
        case .appIDPrefix: 2
        case .profile: 3
        }
    }

    public static func < (a: FactKind, b: FactKind) -> Bool { a.ordinal < b.ordinal }

    /// Hashes the case, not its raw string (which a raw-valued enum hashes by default): facts
    /// are looked up by kind for every rule on every unit.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// How a user gives the fact, for the notes of findings that rest on it unknown or assumed.
    public var howToGive: String {
        switch self {
        case .teamID: return "state the team with --team-id or the configuration's team:"
        case .bundleID: return "state the bundle ID with --bundle-id or the configuration app's bundle_id:"
        case .appIDPrefix: return "give the unit's profile with --profile (its ApplicationIdentifierPrefix), or state the team with --team-id or the configuration's team:"
        case .profile: return "give the profile with --profile or the configuration app's profile:"
        }
    }
}

/// How far a fact is known. A fact nobody states is `unknown` with why (a missing per-developer
/// file, an undefined setting, or simply no source), never a bare absence.
public enum FactCertainty: Sendable, Hashable {
    case known
    /// Taken to be so: the words say what was assumed.
    case assumed(String)
    /// Not known: the words say why.
    case unknown(String)

    public var isKnown: Bool { self == .known }
    public var isAssumed: Bool { if case .assumed = self { return true } else { return false } }
    public var isUnknown: Bool { if case .unknown = self { return true } else { return false } }
}

/// A value with its source. Its certainty follows from the source (`FactSource.assumed`), so a
/// fact costs no more than its value and source.
public struct Fact<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var source: FactSource
    public init(_ value: Value, from source: FactSource) {
        self.value = value
        self.source = source
    }

    public var certainty: FactCertainty {
        if case .assumed(let what) = source { return .assumed(what) }
        return .known
    }
}
