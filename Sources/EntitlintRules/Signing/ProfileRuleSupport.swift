import EntitlintCore
import PropertyList
import Provisioning

/// Facts about profiles shared by the profile rules (keychain-access-groups.md sections 3 and 3.1).
enum ProfileFacts {
    /// App Store, Ad Hoc, Enterprise and Developer ID profiles distribute; development ones do not.
    static func isDistribution(_ kind: ProfileKind) -> Bool {
        switch kind {
        case .appStore, .adHoc, .enterprise, .developerID: return true
        case .development, .unknown: return false
        }
    }

    /// The kind as people say it.
    static func name(_ kind: ProfileKind) -> String {
        switch kind {
        case .development: return "development"
        case .adHoc: return "Ad Hoc"
        case .appStore: return "App Store"
        case .enterprise: return "Enterprise (In-House)"
        case .developerID: return "Developer ID"
        case .unknown: return "device"
        }
    }

    /// On macOS only restricted entitlements need the profile (keychain-access-groups.md section 3.1: on macOS,
    /// unrestricted keys such as the App Sandbox keys are exempt): the `com.apple.security.*`
    /// keys (App Sandbox, hardened runtime exceptions, `get-task-allow`, app groups in their
    /// `TEAMID.` style) are not checked against the profile.
    static func needsProfile(_ key: String, macOS: Bool) -> Bool {
        !(macOS && key.hasPrefix("com.apple.security."))
    }

    /// Keys whose comparison with the profile belongs to a dedicated rule.
    static let ownedByOtherRules: Set<String> = [
        "keychain-access-groups",               // group-missing-from-profile
        "aps-environment", "com.apple.developer.aps-environment",   // aps-environment-mismatch
        "get-task-allow",                       // get-task-allow-in-distribution
        "application-identifier", "com.apple.application-identifier",   // profile-app-id-mismatch
        "com.apple.developer.team-identifier",  // team-prefix-mismatch
    ]
}

extension UnitContext {
    /// True when the unit is for macOS: its profile says so, or its bundle or file does.
    var isMacOS: Bool { unit.profile.map { $0.profile.isMacOS } ?? (unit.platform == .macOS) }

    /// `" (profile PATH)"`, for messages.
    var profileSuffix: String { unit.profile.map { " (profile \($0.path))" } ?? "" }
}

extension ProfileContext {
    /// `Provisioning profile "NAME"`.
    var named: String { "provisioning profile \"\(profile.displayName)\"" }
}

/// Renders a list of strings for messages: `"a", "b"`.
func quotedList(_ items: [String]) -> String {
    items.map { "\"\($0)\"" }.joined(separator: ", ")
}
