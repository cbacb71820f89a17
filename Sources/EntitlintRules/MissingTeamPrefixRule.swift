import EntitlintCore

/// `missing-team-prefix` (DOMAIN.md section 2).
struct MissingTeamPrefixRule: Rule {
    static let description = RuleDescription(
        id: "missing-team-prefix", severity: .error,
        summary: "A keychain access group with no prefix at all (no variable, no 10-character ID).",
        rationale: """
        The App ID prefix is what ties a keychain group to a team (DOMAIN.md section 2). A group without it never \
        matches the profile's `PREFIX.*` allowlist: the build fails to sign, or, where some tool expanded a missing \
        `$(AppIdentifierPrefix)` to nothing, items silently land in an unexpected group. Xcode writes every Keychain \
        Sharing group as `$(AppIdentifierPrefix)name`.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>com.example.shared</string>\n</array>",
                        comment: "The `$(AppIdentifierPrefix)` was lost."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t↓<string>group.com.example.shared</string>\n</array>",
                        comment: "An app group name used as a keychain group."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>ABCDE12345.com.example.other</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n</array>",
                        comment: "App groups are never prefixed."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        context.keychainGroups.compactMap { item in
            let v = item.value
            guard !v.isBlank, !v.containsASCII("*"), v != "com.apple.token", !v.startsWithVariable, !v.hasOuterWhitespace else { return nil }
            guard !String(v.firstComponent).isTeamIDLike || !v.containsASCII(".") else { return nil }
            return finding("keychain access group \"\(v)\" has no team prefix, so no profile allows it; write \"$(AppIdentifierPrefix)\(v)\"",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
    }
}
