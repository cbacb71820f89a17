public import Provisioning
import PropertyList

/// How an app's entitlement values are checked against a profile's `Entitlements` allowlist
/// (keychain-access-groups.md section 3.1, reconstructed from Xcode's behaviour).
public enum ProfileAllowlist {
    /// A profile string allows a value when equal, or when it ends in `*` and the value starts
    /// with everything before the `*` (anchored at the start; `*` only counts at the end).
    public static func allows(pattern: String, value: String) -> Bool {
        if pattern.hasSuffix("*") {
            return value.hasPrefix(pattern.dropLast())
        }
        return pattern == value
    }

    /// Whether some element of the profile's array (or its scalar `"*"`, or a scalar pattern)
    /// allows `value` for `key`. Nil when the profile does not have the key at all.
    public static func allows(_ profile: ProvisioningProfile, key: String, value: String) -> Bool? {
        guard let node = profile.entitlements[key] else { return nil }
        if let s = node.string { return allows(pattern: s, value: value) }
        if let items = node.array {
            return items.contains { $0.string.map { allows(pattern: $0, value: value) } ?? false }
        }
        return false
    }

    /// The profile's strings for `key`, for messages.
    public static func patterns(_ profile: ProvisioningProfile, key: String) -> [String] {
        guard let node = profile.entitlements[key] else { return [] }
        if let s = node.string { return [s] }
        return node.array?.compactMap(\.string) ?? []
    }
}
