import EntitlintCore

/// `missing-team-prefix` (keychain-access-groups.md section 2).
struct MissingTeamPrefixRule: Rule {
    static let description = RuleDescription(
        id: "missing-team-prefix", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .nothing,
        summary: "A keychain access group with no prefix at all (no variable, no 10-character ID).",
        rationale: """
        The App ID prefix is what ties a keychain group to a team (keychain-access-groups.md section 2). A group without it never \
        matches the profile's `PREFIX.*` allowlist: the build fails to sign, or, where some tool expanded a missing \
        `$(AppIdentifierPrefix)` to nothing, items silently land in an unexpected group. Xcode writes every Keychain \
        Sharing group as `$(AppIdentifierPrefix)name`. A prefix in lower case \
        (`abcde12345.name`) is no prefix either: matching is exact and case-sensitive (section 1), so the fix is \
        `$(AppIdentifierPrefix)name`, never a prefix written in front of the lower-case one.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>com.example.shared</string>\n</array>",
                        comment: "The `$(AppIdentifierPrefix)` was lost."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t↓<string>group.com.example.shared</string>\n</array>",
                        comment: "An app group name used as a keychain group."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>abcde12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "The prefix in lower case: matching is case-sensitive, so it is not the team's."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>ABCDE12345.com.example.other</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n</array>",
                        comment: "App groups are never prefixed."),
        ]
    )

    /// Whether this rule reports the keychain group `v` (as written): no variable, no wildcard,
    /// not blank or padded, not `com.apple.token`, and no Team-ID-like first component.
    static func reports(_ v: String) -> Bool {
        guard !v.isBlank, !v.containsASCII("*"), v != AccessGroupList.tokenGroup, !v.startsWithVariable, !v.hasOuterWhitespace else { return false }
        return !String(v.firstComponent).isTeamIDLike || !v.containsASCII(".")
    }

    func check(_ context: UnitContext) -> [Finding] {
        context.keychainGroups.compactMap { item in
            let v = item.value
            guard Self.reports(v) else { return nil }
            let first = String(v.firstComponent)
            if v.containsASCII("."), first.uppercased().isTeamIDLike {
                // A Team ID in lower case: name the difference, and never suggest a second prefix.
                let rest = v.dropFirst(first.count + 1)
                let prefix = context.unit.appIDPrefix?.value
                let why = prefix == first.uppercased()
                    ? "differs from the App ID prefix \(prefix!) only by case, and matching is case-sensitive, so no profile allows it"
                    : "looks like a Team ID in lower case; matching is case-sensitive, so no profile allows it"
                return finding("keychain access group \"\(v)\": its prefix \(first) \(why); write \"$(AppIdentifierPrefix)\(rest)\"",
                               in: context, at: item.location, keyPath: item.keyPath)
            }
            return finding("keychain access group \"\(v)\" has no team prefix, so no profile allows it; write \"$(AppIdentifierPrefix)\(v)\"",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
    }
}
