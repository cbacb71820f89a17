import EntitlintCore
import PropertyList

/// What project rules read of a unit's access-group list.
extension UnitContext {
    /// The unit's own App ID as the list spells it: `application-identifier` (or the macOS key)
    /// expanded, else `$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)` expanded (a keychain group
    /// equal to it is the unit's own group, not a claim for sharing).
    var ownAppID: String {
        let ent = unit.entitlements
        if let s = (ent["application-identifier"] ?? ent["com.apple.application-identifier"])?.string { return expand(s).text }
        return expand("$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)").text
    }

    /// Groups the unit claims for sharing: keychain access groups other than its own App ID, and
    /// app groups. Empty, blank and wildcard values are left to the per-unit rules.
    var sharingClaims: [AccessGroupEntry] {
        let own = ownAppID
        return accessGroups.entries.filter { e in
            guard e.origin == .keychainAccessGroups || e.origin == .appGroup else { return false }
            guard !e.value.isBlank, !e.value.containsASCII("*") else { return false }
            return !(e.origin == .keychainAccessGroups && e.value == own)
        }
    }

    /// Where a finding about `entry` points: its element, else the key it was read from, else the root.
    func location(of entry: AccessGroupEntry) -> SourceLocation {
        if entry.location.isKnown { return entry.location }
        return located(keyLocation(entry.key ?? "keychain-access-groups"))
    }

    /// `AppOne (Release)`, or the file name for a loose unit.
    var displayName: String { unit.name }

    /// "keychain access group" / "app group"
    static func kindName(_ entry: AccessGroupEntry) -> String {
        entry.origin == .appGroup ? "app group" : "keychain access group"
    }
}

extension Array where Element == String {
    /// `a`, `a and b`, `a, b and c`
    var listed: String {
        switch count {
        case 0: return ""
        case 1: return self[0]
        default: return dropLast().joined(separator: ", ") + " and " + last!
        }
    }
}
