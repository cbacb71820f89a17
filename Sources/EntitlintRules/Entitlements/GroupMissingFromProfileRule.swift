import EntitlintCore

/// `group-missing-from-profile` (keychain-access-groups.md section 3.1).
struct GroupMissingFromProfileRule: Rule {
    static let description = RuleDescription(
        id: "group-missing-from-profile", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Compares with the profile's own allowlist; a $(AppIdentifierPrefix) it expands is the profile's ApplicationIdentifierPrefix, which comes first in precedence: the prefix is assumed only with a profile that states none (Apple's profiles always state it)."),
        summary: "A keychain group that no entry of the profile's keychain-access-groups allows.",
        rationale: """
        The profile's `Entitlements` dict is an allowlist (keychain-access-groups.md section 3.1): every keychain group of the app \
        must match one of its `keychain-access-groups` entries, exactly or as an anchored prefix pattern ending in \
        `*`. Otherwise signing fails in Xcode or on CI, the device refuses to install (0xE8008016), or the App Store \
        rejects the upload (ITMS-90164). A value that another rule reports for its cause is not reported again \
        (one problem, one finding): no prefix or a lower-case one (`missing-team-prefix`), another team's prefix \
        (`team-prefix-mismatch`), a wildcard (`wildcard-access-group`), blank or padded values \
        (`empty-access-group`), a double prefix (`double-prefix`), `com.apple.token` on macOS \
        (`token-group-claimed`), and any group of an App Clip (`app-clip-access-groups`: the fix there is to \
        remove the key, not to change the profile).
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.other.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.*</string>\n</array>"),
            .signed("↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                    comment: "The profile has no keychain-access-groups at all."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<string>com.apple.token</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "An iOS profile made before profiles listed com.apple.token."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>com.apple.token</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n\t<string>com.apple.token</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.other.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "No profile: nothing to compare with."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ZYXWV98765.com.example.shared</string>\n\t<string>com.example.other</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "Another team's prefix and no prefix at all: `team-prefix-mismatch` and `missing-team-prefix` report them, once."),
        ]
    )

    /// Whether another rule reports the keychain group `item` (expanded to `value`) for its
    /// cause, so that this one does not report it again.
    static func ownedElsewhere(_ item: StringItem, value: String, in context: UnitContext) -> Bool {
        let raw = item.value
        if value.isBlank || raw.hasOuterWhitespace || raw.containsASCII("*") { return true }
        if raw == AccessGroupList.tokenGroup { return context.isMacOS }
        if MissingTeamPrefixRule.reports(raw) || DoublePrefixRule.problem(raw) != nil { return true }
        return TeamPrefixMismatchRule.foreignPrefix(of: value, own: context.unit.appIDPrefix == nil ? [] : TeamPrefixMismatchRule.ownPrefixes(context.unit)) != nil
    }

    func check(_ context: UnitContext) -> [Finding] {
        guard let profile = context.unit.profile, !context.unit.isAppClip else { return [] }
        let groups = context.keychainGroups
        guard !groups.isEmpty else { return [] }
        let key = "keychain-access-groups"
        let patterns = ProfileAllowlist.patterns(profile.profile, key: key)
        if profile.profile.entitlements[key] == nil {
            // Only groups this rule would report make the missing entitlement this rule's problem.
            guard groups.contains(where: { !Self.ownedElsewhere($0, value: context.expanded($0).text, in: context) }) else { return [] }
            return [finding("Provisioning profile \"\(profile.displayName)\" doesn't include the keychain-access-groups entitlement (profile \(profile.path)); enable Keychain Sharing for the App ID and download the profile again",
                            in: context, at: context.keyLocation(key), keyPath: key)]
        }
        return groups.compactMap { item in
            let e = context.expanded(item)
            guard e.isConcrete, !Self.ownedElsewhere(item, value: e.text, in: context) else { return nil }
            guard ProfileAllowlist.allows(profile.profile, key: key, value: e.text) == false else { return nil }
            return finding("Provisioning profile \"\(profile.displayName)\" doesn't match the entitlements file's value for the keychain-access-groups entitlement: \"\(e.text)\" is not allowed by \(patterns.map { "\"\($0)\"" }.joined(separator: ", ")) (profile \(profile.path))",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
    }
}
