public import PropertyList
public import Provisioning

/// A provisioning profile and the file it came from.
public struct ProfileFile: Sendable, Hashable {
    public var path: String
    public var profile: ProvisioningProfile
    public init(path: String, profile: ProvisioningProfile) {
        self.path = path
        self.profile = profile
    }
    /// `Name` of the profile, or its file name, for messages worded like Xcode's.
    public var displayName: String { profile.name ?? path }
}

public enum Platform: String, Sendable, Hashable, Codable {
    case iOS, macOS, unknown
}

/// One app, extension or configuration: its entitlements and every fact needed to check them,
/// each with where it came from. Every discovery source produces this.
public struct SigningUnit: Sendable, Hashable {
    public var name: String
    public var entitlementsPath: String
    public var document: PlistDocument
    public var bundleID: Fact<String>?
    public var appIDPrefix: Fact<String>?
    public var teamID: Fact<String>?
    public var platform: Platform
    /// Values for custom build variables (config `variables:`).
    public var variables: [String: String]
    /// An entitlements file inside a project's folders that no target of the project signs with:
    /// its bundle ID, team and variables cannot be known, so only the rules that need no facts
    /// check it (`RuleDescription.readsOnlyTheFile`).
    public var isUnused = false
    /// With `isUnused`: a build setting names the file as a choice (a variant picked by another
    /// setting, by a per-developer file, or through a variable), so it is not left over; its facts
    /// are still unknown.
    public var isVariant = false
    /// The profile, the project origin and the built-product facts, kept out of line: most units
    /// have none of them, and inline they made every unit 1.2 KB (the peak memory on 10,000 files).
    private var extras: Extras?

    public var profile: ProfileFile? {
        get { extras?.profile }
        set { setExtras(newValue, origin, artifact, unknownFacts) }
    }
    /// The project target and configuration that define the unit, when a project does (UnitOrigin.swift).
    public var origin: UnitOrigin? {
        get { extras?.origin }
        set { setExtras(profile, newValue, artifact, unknownFacts) }
    }
    /// Set when the unit was read from a built product (Mach-O, `.app`, `.ipa`, `.xcarchive`).
    public var artifact: BuiltArtifactFacts? {
        get { extras?.artifact }
        set { setExtras(profile, origin, newValue, unknownFacts) }
    }
    /// Why a fact the unit lacks is unknown, when a source would state it but cannot be read (a
    /// build setting only a missing per-developer file sets): `FactResolver` fills it in, and
    /// `certainty(of:)` reads it. Empty for most units, so kept out of line too.
    public var unknownFacts: [FactKind: String] {
        get { extras?.unknown ?? [:] }
        set { setExtras(profile, origin, artifact, newValue) }
    }

    private mutating func setExtras(_ profile: ProfileFile?, _ origin: UnitOrigin?, _ artifact: BuiltArtifactFacts?, _ unknown: [FactKind: String]) {
        extras = profile == nil && origin == nil && artifact == nil && unknown.isEmpty
            ? nil : Extras(profile: profile, origin: origin, artifact: artifact, unknown: unknown)
    }

    /// Immutable, so sharing one between copies of a unit is safe; compared by value.
    private final class Extras: Sendable, Hashable {
        let profile: ProfileFile?
        let origin: UnitOrigin?
        let artifact: BuiltArtifactFacts?
        let unknown: [FactKind: String]
        init(profile: ProfileFile?, origin: UnitOrigin?, artifact: BuiltArtifactFacts?, unknown: [FactKind: String]) {
            self.profile = profile
            self.origin = origin
            self.artifact = artifact
            self.unknown = unknown
        }
        static func == (a: Extras, b: Extras) -> Bool {
            a.profile == b.profile && a.origin == b.origin && a.artifact == b.artifact && a.unknown == b.unknown
        }
        func hash(into h: inout Hasher) {
            h.combine(profile)
            h.combine(origin)
            h.combine(artifact)
        }
    }

    public init(name: String, entitlementsPath: String, document: PlistDocument, bundleID: Fact<String>? = nil,
                appIDPrefix: Fact<String>? = nil, teamID: Fact<String>? = nil, profile: ProfileFile? = nil,
                platform: Platform = .unknown, variables: [String: String] = [:]) {
        self.name = name
        self.entitlementsPath = entitlementsPath
        self.document = document
        self.bundleID = bundleID
        self.appIDPrefix = appIDPrefix
        self.teamID = teamID
        self.platform = platform
        self.variables = variables
        if let profile { extras = Extras(profile: profile, origin: nil, artifact: nil, unknown: [:]) }
    }

    /// The entitlements dictionary (empty when the root is not a dict).
    public var entitlements: PlistDictionary { document.root.dict ?? PlistDictionary() }

    public var expander: VariableExpander {
        VariableExpander(appIDPrefix: appIDPrefix?.value, teamID: teamID?.value, bundleID: bundleID?.value, extra: variables)
    }

    /// The App ID (`PREFIX.bundle.id`) when both parts are known.
    public var appID: String? {
        guard let p = appIDPrefix?.value, let b = bundleID?.value else { return nil }
        return p + "." + b
    }

    /// Whether the unit is an App Clip (keychain-access-groups.md section 1): its target's product type
    /// (`com.apple.product-type.application.on-demand-install-capable`, or XcodeGen's type), its
    /// place in a built app (`AppClips/`), or `com.apple.developer.on-demand-install-capable` true
    /// in its entitlements (Xcode adds that key when signing, so a source file rarely has it).
    public var isAppClip: Bool {
        origin?.kind == .appClip || artifact?.bundleKind == .appClip
            || entitlements["com.apple.developer.on-demand-install-capable"]?.bool == true
    }

    /// The ordered access-group list the system builds (keychain-access-groups.md section 1).
    public var accessGroups: AccessGroupList { AccessGroupList(unit: self, expander: expander) }
}

/// One entry of a unit's access-group list.
public struct AccessGroupEntry: Sendable, Hashable {
    public enum Origin: String, Sendable, Hashable, Codable {
        case keychainAccessGroups = "keychain-access-groups"
        case associatedApplicationIdentifier = "com.apple.developer.associated-application-identifier"
        case applicationIdentifier = "application-identifier"
        case appGroup = "com.apple.security.application-groups"
    }

    /// The value after variable expansion (unknown variables left as written).
    public var value: String
    /// The value as written in the file.
    public var raw: String
    public var origin: Origin
    /// The entitlement key it was read from (for `application-identifier` it may be the macOS key,
    /// or nothing when the App ID was derived from the bundle ID and prefix).
    public var key: String?
    public var index: Int
    public var location: SourceLocation
    public var expansion: VariableExpander.Result

    public var isConcrete: Bool { expansion.isConcrete }
    /// `keychain-access-groups[2]`
    public var keyPath: String { key.map { "\($0)[\(index)]" } ?? origin.rawValue }
}

/// The "virtual array" of keychain-access-groups.md section 1, as the system builds it, in order:
/// 1. `keychain-access-groups`; 2. (Mac Catalyst) `com.apple.developer.associated-application-identifier`;
/// 3. the App ID (`application-identifier`, else `com.apple.application-identifier`, else derived
///    from prefix and bundle ID); 4. `com.apple.security.application-groups`, unless an App Clip;
/// then every `com.apple.token` moved to the end (it is never the default).
/// The default group is element 0. The list is not de-duplicated, as the system's is not: a
/// keychain group that is also the App ID appears twice (which is what breaks an App Clip).
public struct AccessGroupList: Sendable, Hashable {
    public var entries: [AccessGroupEntry]
    /// False when some element of `keychain-access-groups` is not a string: the system then
    /// ignores the whole entitlement, and it contributes nothing here.
    public var keychainEntitlementHonoured: Bool

    public var defaultGroup: AccessGroupEntry? { entries.first }

    /// The read-only smart-card group (CryptoTokenKit): the system moves it to the end of the list.
    public static let tokenGroup = "com.apple.token"

    /// The values of the list, each once, in the order of their first occurrence (what a lookup
    /// over the list can reach).
    public var distinctValues: [String] {
        var seen = Set<String>(minimumCapacity: entries.count)
        return entries.compactMap { seen.insert($0.value).inserted ? $0.value : nil }
    }

    /// Whether the system honours the string-array entitlement `key` in `entitlements`: absent,
    /// or an array of strings only (anything else and it ignores the whole entitlement; the same
    /// helper reads `keychain-access-groups`, the app groups and the associated App IDs).
    public static func stringArrayHonoured(_ key: String, in entitlements: PlistDictionary) -> Bool {
        guard let node = entitlements[key] else { return true }
        guard let items = node.array else { return false }
        return !items.contains { $0.string == nil }
    }

    /// Whether the system honours `keychain-access-groups` in `entitlements`: absent, or an
    /// array of strings only (anything else and it ignores the whole entitlement).
    public static func keychainEntitlementHonoured(in entitlements: PlistDictionary) -> Bool {
        stringArrayHonoured("keychain-access-groups", in: entitlements)
    }

    public init(unit: SigningUnit, expander: VariableExpander) {
        self.init(unit: unit, expander: expander, keychainExpansions: nil)
    }

    /// `keychainExpansions`: the expansions of the string elements of `keychain-access-groups`,
    /// in order, when the caller already has them.
    init(unit: SigningUnit, expander: VariableExpander, keychainExpansions: [VariableExpander.Result]?) {
        let ent = unit.entitlements
        var out: [AccessGroupEntry] = []
        // Room for the usual list at once, instead of growing 1, 2, 4, 8, 16 (each a copy).
        out.reserveCapacity((keychainExpansions?.count ?? 4) + 6)
        let honoured = Self.keychainEntitlementHonoured(in: ent)

        func strings(_ key: String, _ origin: AccessGroupEntry.Origin) {
            guard let node = ent[key], let items = node.array else { return }
            // A non-string element drops the whole entitlement (keychain-access-groups.md section 1).
            guard origin == .keychainAccessGroups ? honoured : Self.stringArrayHonoured(key, in: ent) else { return }
            var k = 0
            for (i, item) in items.enumerated() {
                guard let s = item.string else { continue }
                let e: VariableExpander.Result
                if origin == .keychainAccessGroups, let pre = keychainExpansions, k < pre.count {
                    e = pre[k]
                    k += 1
                } else {
                    e = expander.expand(s)
                }
                out.append(AccessGroupEntry(value: e.text, raw: s, origin: origin, key: key, index: i,
                                            location: item.location, expansion: e))
            }
        }

        strings("keychain-access-groups", .keychainAccessGroups)
        strings("com.apple.developer.associated-application-identifier", .associatedApplicationIdentifier)
        if let node = ent["application-identifier"] ?? ent["com.apple.application-identifier"], let s = node.string {
            let key = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
            let e = expander.expand(s)
            out.append(AccessGroupEntry(value: e.text, raw: s, origin: .applicationIdentifier, key: key, index: 0,
                                        location: node.location, expansion: e))
        } else {
            let raw = VariableExpander.derivedAppID
            let e = expander.expand(raw)
            out.append(AccessGroupEntry(value: e.text, raw: raw, origin: .applicationIdentifier, key: nil, index: 0,
                                        location: .unknown, expansion: e))
        }
        if !unit.isAppClip {
            strings("com.apple.security.application-groups", .appGroup)
        }
        // `com.apple.token` goes to the end, whatever its place in the file (keychain-access-groups.md section 1).
        if out.contains(where: { $0.value == Self.tokenGroup }) {
            out = out.filter { $0.value != Self.tokenGroup } + out.filter { $0.value == Self.tokenGroup }
        }
        entries = out
        keychainEntitlementHonoured = honoured
    }
}
