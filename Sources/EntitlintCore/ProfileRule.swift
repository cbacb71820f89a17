public import PropertyList
import Provisioning

/// What a profile rule sees: one provisioning profile in use in the run, checked once however
/// many units are signed with it.
public final class ProfileContext: @unchecked Sendable {
    public let profile: ProfileFile
    public let settings: CheckSettings
    /// Names of the units of the run signed with this profile (sorted), for messages.
    public let unitNames: [String]

    public init(profile: ProfileFile, settings: CheckSettings, unitNames: [String] = []) {
        self.profile = profile
        self.settings = settings
        self.unitNames = unitNames
    }

    /// Where the top-level key `key` is written in the profile's plist, when the profile is a
    /// plain plist file (a line in a CMS profile would point into binary data, so there is none).
    public func location(ofKey key: String) -> SourceLocation {
        guard profile.profile.envelope == .plainPlist else { return .unknown }
        return profile.profile.document.root.dict?.entry(key)?.keyLocation ?? profile.profile.document.root.location
    }
}

/// A rule about a profile itself (expiry, certificates, its DER copy) rather than about a unit's
/// entitlements. The linter runs it once per profile in use (see `Linter.profilesInUse`); its
/// per-unit `check` finds nothing.
public protocol ProfileRule: Rule {
    func check(profile context: ProfileContext) -> [Finding]
}

extension ProfileRule {
    public var asProfileRule: (any ProfileRule)? { self }
    public func check(_ context: UnitContext) -> [Finding] { [] }

    /// A finding of this rule in the profile file (with a line only for a plain-plist profile).
    public func finding(_ message: String, in context: ProfileContext, at location: SourceLocation, keyPath: String? = nil,
                        severity: Severity? = nil) -> Finding {
        Finding(rule: Self.description.id, severity: severity ?? Self.description.severity, message: message,
                path: context.profile.path, line: location.line, column: location.column,
                unit: context.unitNames.count == 1 ? context.unitNames[0] : nil, keyPath: keyPath)
    }
}

extension Linter {
    /// The profiles the profile rules check: those that sign a unit of the run (paired with an
    /// entitlements file, given with `--profile` or a config app's `profile:`, embedded in a built
    /// product), plus those in `named` (profile files named on the command line). A profile found
    /// by walking a folder that signs no unit of the run is only decoded: a folder of old test
    /// fixtures does not fail because its profiles expired years ago.
    public static func profilesInUse(units: [SigningUnit], named: [ProfileFile]) -> [(ProfileFile, [String])] {
        var order: [String] = []
        var byPath: [String: (ProfileFile, [String])] = [:]
        func add(_ p: ProfileFile, unit: String?) {
            if byPath[p.path] == nil {
                order.append(p.path)
                byPath[p.path] = (p, [])
            }
            if let unit { byPath[p.path]!.1.append(unit) }
        }
        for u in units { if let p = u.profile { add(p, unit: u.name) } }
        for p in named { add(p, unit: nil) }
        return order.sorted().map { path in
            let (p, names) = byPath[path]!
            return (p, Array(Set(names)).sorted())
        }
    }

    /// Runs the profile rules of this linter on each profile in use (see `profilesInUse`).
    public func profileFindings(units: [SigningUnit], named: [ProfileFile], settings: CheckSettings) -> [Finding] {
        let profileRules = rules.compactMap { $0.asProfileRule }
        guard !profileRules.isEmpty else { return [] }
        var out: [Finding] = []
        for (profile, names) in Self.profilesInUse(units: units, named: named) {
            let context = ProfileContext(profile: profile, settings: settings, unitNames: names)
            for rule in profileRules { out += rule.check(profile: context) }
        }
        return out
    }

    /// Checks one unit formed by the caller, as `lint` does: the unit rules, then the profile
    /// rules on its profile. Severities and `off` from the configuration apply; sorted.
    public func check(_ unit: SigningUnit, lock: LockFile? = nil, settings: CheckSettings = CheckSettings()) -> [Finding] {
        let context = UnitContext(unit: unit, lock: lock, settings: settings)
        var findings: [Finding] = []
        for rule in rules { findings += FactGate.check(rule, context) }
        findings += profileFindings(units: [unit], named: [], settings: settings)
        return applySeverities(findings).sorted()
    }

    /// The unit of an in-memory entitlements document with the given facts, formed as `lint`
    /// forms units (for rule examples and library users).
    public func unit(document: PlistDocument, path: String, name: String? = nil, bundleID: String? = nil,
                     teamID: String? = nil, profile: ProfileFile? = nil) -> SigningUnit {
        var unit = makeUnit(path: path, shown: path, document: document, facts: StatedFacts(teamID: teamID, bundleID: bundleID),
                            profiles: ProfileIndex(profile.map { [$0] } ?? []),
                            byAbs: [:], cwd: Self.inMemoryFolder, pairedWith: profile)
        if let name { unit.name = name }
        return unit
    }
}
