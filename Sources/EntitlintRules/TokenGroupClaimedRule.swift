import EntitlintCore

/// `token-group-claimed` (DOMAIN.md sections 1 and 6).
struct TokenGroupClaimedRule: Rule {
    static let description = RuleDescription(
        id: "token-group-claimed", severity: .warning,
        summary: "`com.apple.token` in an app's keychain-access-groups.",
        rationale: """
        `com.apple.token` is the read-only group of smart-card (CryptoTokenKit) items; the system adds it and moves \
        it to the end of the list (DOMAIN.md section 1). Modern profiles list it next to `PREFIX.*` (section 6), \
        which is fine in a profile; copied into an app it only invites writes that fail.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<string>com.apple.token</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        context.keychainGroups.compactMap { item in
            guard item.value == "com.apple.token" else { return nil }
            return finding("\"com.apple.token\" is the system's read-only smart-card group, not one an app should claim; remove it (profiles list it, apps do not need to)",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
    }
}
