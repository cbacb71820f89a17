import EntitlintCore

/// `missing-team-prefix` (keychain-access-groups.md section 2).
struct MissingTeamPrefixRule: Rule {
    static let description = RuleDescription(
        id: "missing-team-prefix", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "A group with no 10-character prefix matches no profile's allowlist whatever the App ID prefix is; the prefix only words the message of a prefix written in lower case."),
        summary: "A keychain access group with no prefix at all (no variable, no 10-character ID).",
        rationale: """
        The App ID prefix is what ties a keychain group to a team (keychain-access-groups.md section 2). A group without it never \
        matches the profile's `PREFIX.*` allowlist: the build fails to sign, or, where some tool expanded a missing \
        `$(AppIdentifierPrefix)` to nothing, items silently land in an unexpected group. Xcode writes every Keychain \
        Sharing group as `$(AppIdentifierPrefix)name`. A prefix in lower case \
        (`abcde12345.name`) is no prefix either: matching is exact and case-sensitive (section 1), so the fix is \
        `$(AppIdentifierPrefix)name`, never a prefix written in front of the lower-case one. An app group \
        (`group.name`) in `keychain-access-groups` is the exception to "add the prefix": the system appends every \
        app group of `com.apple.security.application-groups` to the access-group list, so an app group already is \
        a keychain access group (section 9). The fix is to remove it from `keychain-access-groups` (and list it \
        under `com.apple.security.application-groups` if it is not there); `$(AppIdentifierPrefix)group.name` \
        would name a different, new keychain group, which holds none of the items the app group shares.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>com.example.shared</string>\n</array>",
                        comment: "The `$(AppIdentifierPrefix)` was lost.", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t↓<string>group.com.example.shared</string>\n</array>",
                        comment: "An app group name used as a keychain group, and no app group listed: the fix lists it under com.apple.security.application-groups instead.", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "The app group listed again as a keychain group: it already is one, so the fix removes it, never prefixes it.", fixed: "<key>keychain-access-groups</key>\n<array>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>abcde12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "The prefix in lower case: matching is case-sensitive, so it is not the team's.", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>ABCDE12345.com.example.other</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.shared</string>\n</array>",
                        comment: "App groups are never prefixed: listed here, the app group is a keychain access group too."),
        ]
    ).fixing(
        "Safe. A reverse-DNS name with no prefix becomes `$(AppIdentifierPrefix)name` (a name that is no reverse-DNS name, such as one word, is left to you: what was meant is not clear); a Team ID written in lower case is replaced by `$(AppIdentifierPrefix)`; an app group is removed from `keychain-access-groups` when `com.apple.security.application-groups` lists it, else moved there (appended to that key's array, or the key added in the shape of `keychain-access-groups` when it has none). An App Clip's groups are left to `app-clip-access-groups`.")

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
                    .fixing("write \"$(AppIdentifierPrefix)\(rest)\"", .safe,
                            [.replace(item.key, item.index, v, with: "$(AppIdentifierPrefix)" + rest)])
            }
            if v.hasPrefix(Self.appGroupPrefix) {
                let f = finding(Self.appGroupMessage(v, in: context), in: context, at: item.location, keyPath: item.keyPath)
                // A clip's keychain groups all go (app-clip-access-groups), so the clip gets no fix here.
                guard !context.unit.isAppClip else { return f }
                if context.appGroups.contains(where: { $0.value == v }) {
                    return f.fixing("remove \"\(v)\" from keychain-access-groups (it is listed under com.apple.security.application-groups)", .safe,
                                    [.remove(item.key, item.index, v)])
                }
                return f.fixing("move \"\(v)\" from keychain-access-groups to com.apple.security.application-groups", .safe,
                                [.move(item.key, item.index, v, to: "com.apple.security.application-groups")])
            }
            let f = finding("keychain access group \"\(v)\" has no team prefix, so no profile allows it; write \"$(AppIdentifierPrefix)\(v)\"",
                            in: context, at: item.location, keyPath: item.keyPath)
            guard Self.intentIsClear(v) else { return f }
            return f.fixing("write \"$(AppIdentifierPrefix)\(v)\"", .safe, [.replace(item.key, item.index, v, with: "$(AppIdentifierPrefix)" + v)])
        }
    }

    /// Whether `$(AppIdentifierPrefix)` in front of `v` is surely what was meant: a reverse-DNS
    /// name of letters, digits, dots, hyphens and underscores, with at least two components, none
    /// empty. Anything else (one word, spaces, other punctuation) may be a mistake of another kind.
    static func intentIsClear(_ v: String) -> Bool {
        let parts = v.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { !$0.isEmpty }
            && v.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "." || $0 == "-" || $0 == "_" }
    }

    /// How every app group name starts (on iOS; the iOS style on macOS).
    static let appGroupPrefix = "group."

    /// The advice for an app group written in `keychain-access-groups`: the system appends the app
    /// groups of `com.apple.security.application-groups` to the access-group list (keychain-access-groups.md
    /// section 9), so the fix moves it there; a prefix would name a different, new keychain group.
    static func appGroupMessage(_ v: String, in context: UnitContext) -> String {
        let head = "keychain access group \"\(v)\" is an app group name: with no team prefix, no profile allows it in keychain-access-groups"
        let notPrefix = "; writing \"$(AppIdentifierPrefix)\(v)\" instead would name a different, new keychain group that shares nothing"
        if context.unit.isAppClip {
            // The system skips a clip's app groups (app-clip-access-groups says why the key must go).
            return head + "; remove it from keychain-access-groups" + notPrefix
        }
        let listed = context.appGroups.contains { $0.value == v }
        let fix = listed
            ? "; remove it from keychain-access-groups: it is listed under com.apple.security.application-groups, and every app group there already is a keychain access group"
            : "; remove it from keychain-access-groups and list it under com.apple.security.application-groups, where an app group already is a keychain access group"
        return head + fix + notPrefix
    }
}
