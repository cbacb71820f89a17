import EntitlintCore

/// `token-group-claimed` (keychain-access-groups.md sections 1 and 6).
struct TokenGroupClaimedRule: Rule {
    static let description = RuleDescription(
        id: "token-group-claimed", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Its only error is com.apple.token on macOS, which no profile can authorise whatever the unit's facts; the platform comes from the project, the profile or a built product, never assumed."),
        summary: "`com.apple.token` in keychain-access-groups: an error on macOS, where no profile can authorise it; a note elsewhere.",
        rationale: """
        `com.apple.token` is the read-only group of smart-card (CryptoTokenKit) items. Wherever it is listed, the \
        system moves it to the end of the access-group list, so it is never the default group and never moves the \
        default (keychain-access-groups.md section 1). On iOS an app that reads token items must list it, and profiles allow it \
        (modern ones list it next to `PREFIX.*`, section 6): that is legitimate, and the rule only notes what the \
        group is, so that nobody writes to it. On macOS the system adds it implicitly and no macOS profile can \
        authorise it: listing it fails signing, so there it is an error. With the platform unknown it is a note. \
        An iOS profile that does not allow it is `group-missing-from-profile`'s finding.
        """,
        triggering: [
            RuleExample("<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.MacApp</string>\n\t↓<string>com.apple.token</string>\n</array>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        profileEntitlements: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "macOS: no profile can authorise it (an error).",
                        profile: "<key>Platform</key>\n<array>\n\t<string>OSX</string>\n</array>", fixed: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.MacApp</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>com.apple.token</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "iOS or unknown platform: a note on what the group is; the default group is still the shared one."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>com.apple.token</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "An iOS profile that does not allow it: `group-missing-from-profile` reports it, once."),
        ]
    ).fixing(
        "Safe, on macOS only: `com.apple.token` is removed from `keychain-access-groups` (the system adds the smart-card group itself there). On iOS the group is a choice (a note), so there is no fix.")

    func check(_ context: UnitContext) -> [Finding] {
        let token = AccessGroupList.tokenGroup
        return context.keychainGroups.compactMap { item in
            guard item.value == token else { return nil }
            if context.isMacOS {
                return finding("\"\(token)\" cannot be claimed on macOS: the system adds the smart-card group itself, and no macOS provisioning profile can authorise it, so signing fails; remove it",
                               in: context, at: item.location, keyPath: item.keyPath)
                    .fixing("remove \"\(token)\" (the system adds it on macOS)", .safe, [.remove(item.key, item.index, item.value)])
            }
            // An iOS profile that does not allow it: group-missing-from-profile reports it.
            if let profile = context.unit.profile?.profile,
               ProfileAllowlist.allows(profile, key: "keychain-access-groups", value: token) == false { return nil }
            var f = finding("\"\(token)\" is the read-only group of smart-card (CryptoTokenKit) items: listing it lets the app read them; the system moves it to the end of the list, so it is never the default group, and items cannot be written to it",
                            in: context, at: item.location, keyPath: item.keyPath)
            f.severity = .note
            return f
        }
    }
}
