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
/// entitlements. The linter runs it once per profile in use (see `RuleStage.profilesInUse`); its
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
