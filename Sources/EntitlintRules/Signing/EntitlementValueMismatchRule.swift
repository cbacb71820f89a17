import EntitlintCore
import PropertyList
import Provisioning

/// `entitlement-value-mismatch` (keychain-access-groups.md section 3.1).
struct EntitlementValueMismatchRule: Rule {
    static let description = RuleDescription(
        id: "entitlement-value-mismatch", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Compares with the profile's own values; a $(AppIdentifierPrefix) it expands is the profile's ApplicationIdentifierPrefix, which comes first in precedence: the prefix is assumed only with a profile that states none (Apple's profiles always state it)."),
        summary: "An entitlement value that the profile's allowlist does not permit.",
        rationale: """
        For a key the profile does include, the app's value must be allowed by the profile's (keychain-access-groups.md section \
        3.1): a string equal to the profile's or matching its pattern ending in `*` (anchored at the start); every \
        element of an array allowed by some element of the profile's array, or by its scalar pattern (a profile \
        `"*"` allows any array, as 2023+ profiles do for associated domains); booleans and integers equal. \
        Otherwise Xcode stops with "doesn't match the entitlements file's value for the K entitlement", and the \
        device (0xE8008016) or the App Store (ITMS-90164) rejects the build. Values with unknown variables are not \
        compared. Keys with their own rule are left to it: `keychain-access-groups`, `aps-environment`, \
        `get-task-allow`, `application-identifier`, `com.apple.developer.team-identifier`; on macOS the \
        unrestricted `com.apple.security.*` keys are not compared.
        """,
        triggering: [
            .signed("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n\t↓<string>group.com.other.shared</string>\n</array>",
                    allowing: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n</array>"),
            .signed("<key>com.apple.developer.ubiquity-kvstore-identifier</key>\n↓<string>ZYXWV98765.com.example.AppOne</string>",
                    allowing: "<key>com.apple.developer.ubiquity-kvstore-identifier</key>\n<string>ABCDE12345.*</string>"),
        ],
        nonTriggering: [
            .signed("<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:example.com</string>\n</array>\n<key>com.apple.developer.ubiquity-kvstore-identifier</key>\n<string>$(TeamIdentifierPrefix)$(CFBundleIdentifier)</string>",
                    allowing: "<key>com.apple.developer.associated-domains</key>\n<string>*</string>\n<key>com.apple.developer.ubiquity-kvstore-identifier</key>\n<string>ABCDE12345.*</string>",
                    comment: "A profile scalar `*` allows any array; a pattern allows the expanded value."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let profileFile = context.unit.profile else { return [] }
        let profile = profileFile.profile
        let macOS = context.isMacOS
        var out: [Finding] = []
        let entitlements = context.unit.entitlements
        for key in entitlements.keys {
            guard let entry = entitlements.entry(key) else { continue }
            guard !ProfileFacts.ownedByOtherRules.contains(key), ProfileFacts.needsProfile(key, macOS: macOS),
                  let allowed = profile.entitlements[key] else { continue }
            func report(_ shown: String, at location: SourceLocation, keyPath: String) {
                let patterns = ProfileAllowlist.patterns(profile, key: key)
                let by = patterns.isEmpty ? PlistComparison.render(allowed.value) : quotedList(patterns)
                out.append(finding("Provisioning profile \"\(profileFile.displayName)\" doesn't match the entitlements file's value for the \(key) entitlement: \(shown) is not allowed by \(by) (profile \(profileFile.path))",
                                   in: context, at: context.located(location), keyPath: keyPath))
            }
            switch entry.value.value {
            case .string(let s):
                let e = context.expand(s)
                guard e.isConcrete, let ok = Self.allows(allowed, e.text) else { continue }
                if !ok { report("\"\(e.text)\"", at: entry.value.location, keyPath: key) }
            case .array(let items):
                for (i, item) in items.enumerated() {
                    guard let s = item.string else { continue }
                    let e = context.expand(s)
                    guard e.isConcrete, let ok = Self.allows(allowed, e.text) else { continue }
                    if !ok { report("\"\(e.text)\"", at: item.location, keyPath: "\(key)[\(i)]") }
                }
            case .bool(let b):
                if case .bool(let p) = allowed.value, p != b { report(b ? "true" : "false", at: entry.value.location, keyPath: key) }
            case .integer(let n):
                if case .integer(let p) = allowed.value, p.description != n.description { report(n.description, at: entry.value.location, keyPath: key) }
            default:
                continue
            }
        }
        return out
    }

    /// Whether the profile's value allows the string `value`: a scalar pattern, or some string
    /// element of an array. Nil when the profile's value cannot be compared with a string.
    static func allows(_ profileValue: PlistNode, _ value: String) -> Bool? {
        if let p = profileValue.string { return ProfileAllowlist.allows(pattern: p, value: value) }
        if let items = profileValue.array {
            return items.contains { $0.string.map { ProfileAllowlist.allows(pattern: $0, value: value) } ?? false }
        }
        return nil
    }
}
