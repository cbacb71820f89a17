import EntitlintCore

/// `team-prefix-mismatch` (keychain-access-groups.md section 2).
struct TeamPrefixMismatchRule: Rule {
    static let description = RuleDescription(
        id: "team-prefix-mismatch", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high,
        facts: FactNeeds(needs: [.appIDPrefix], certainWith: [.appIDPrefix], whenAssumed: .note),
        summary: "An access group, application-identifier or team-identifier whose prefix is not the unit's App ID prefix / Team ID.",
        rationale: """
        Keychain items cannot move between teams: every keychain group of an app must start with that app's App ID \
        prefix (keychain-access-groups.md section 2), which is almost always the Team ID but can differ for teams older than 2011. \
        A group under another prefix is rejected at install (0xE8008016) or upload (ITMS-90164). \
        `$(TeamIdentifierPrefix)` expands to the Team ID, so it is wrong for keychain groups when the App ID prefix \
        differs. A profile may list several teams and prefixes (`TeamIdentifier`, `ApplicationIdentifierPrefix`): \
        any of them is the unit's. A prefix listed in `previous-application-identifiers` (an app transferred from \
        another team) is still reported: that key keeps the App ID's continuity across the transfer, but no \
        keychain code reads it, and the new profile allows only the new prefix (section 6); the items of the old \
        group can be kept only by moving them into an app group before the transfer (section 2). This rule owns \
        such a value: `group-missing-from-profile` and `profile-app-id-mismatch` do not report it again. \
        Without a profile the App ID prefix is only assumed equal to the Team ID read from the project: a group \
        under another 10-character prefix may then be the team's legacy prefix, so the finding is a note whose \
        notes say what was assumed. A Team ID you state (`--team-id`, the configuration's `team:`) is taken as the \
        App ID prefix too. A file's own App ID is the source of the prefix only while nothing contradicts it: \
        when it names another team than the one stated, it is reported, and the keychain groups under its \
        prefix are compared with the stated team, since a value the file gets wrong cannot vouch for the file.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "A group of another team."),
            RuleExample("<key>application-identifier</key>\n↓<string>ZYXWV98765.com.example.AppOne</string>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>com.apple.developer.team-identifier</key>\n↓<string>ZYXWV98765</string>", teamID: "ABCDE12345"),
            RuleExample("<key>com.apple.application-identifier</key>\n↓<string>ZYXWV98765.com.example.MacApp</string>\n<key>com.apple.developer.team-identifier</key>\n↓<string>ZYXWV98765</string>\n<key>keychain-access-groups</key>\n<array>\n\t↓<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        teamID: "ABCDE12345",
                        comment: "A macOS file copied from another team: its App ID does not vouch for the group under the same prefix (the Team ID is stated)."),
            .signed("<key>keychain-access-groups</key>\n<array>\n\t↓<string>OLDTEAM123.com.example.shared</string>\n</array>\n<key>previous-application-identifiers</key>\n<array>\n\t<string>OLDTEAM123.com.example.AppOne</string>\n</array>",
                    allowing: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>\n<key>previous-application-identifiers</key>\n<array>\n\t<string>OLDTEAM123.com.example.AppOne</string>\n</array>",
                    comment: "An app transferred from another team: previous-application-identifiers does not let it keep the old keychain group."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        comment: "No team known: nothing to compare with."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ZYXWV98765.com.example.shared</string>\n</array>\n<key>com.apple.developer.team-identifier</key>\n<string>ZYXWV98765</string>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n\t<string>ZYXWV98765.*</string>\n</array>",
                        comment: "A profile that lists two teams: the second is the unit's too.",
                        profile: "<key>TeamIdentifier</key>\n<array>\n\t<string>ABCDE12345</string>\n\t<string>ZYXWV98765</string>\n</array>\n<key>ApplicationIdentifierPrefix</key>\n<array>\n\t<string>ABCDE12345</string>\n\t<string>ZYXWV98765</string>\n</array>"),
        ]
    )

    /// The App ID prefixes that are the unit's: its own, and every one its profile lists.
    static func ownPrefixes(_ unit: SigningUnit) -> Set<String> {
        var out = Set(unit.profile?.profile.applicationIdentifierPrefixes ?? [])
        if let p = unit.appIDPrefix?.value { out.insert(p) }
        return out
    }

    /// The Team IDs that are the unit's: its own, and every one its profile lists.
    static func ownTeams(_ unit: SigningUnit) -> Set<String> {
        var out = Set(unit.profile?.profile.teamIdentifiers ?? [])
        if let t = unit.teamID?.value { out.insert(t) }
        return out
    }

    /// The foreign prefix of an expanded keychain group, when the group starts with a Team-ID-like
    /// prefix that is none of `own` (nil when `own` is empty: nothing to compare with).
    static func foreignPrefix(of value: String, own: Set<String>) -> String? {
        guard !own.isEmpty, value.containsASCII(".") else { return nil }
        let first = String(value.firstComponent)
        return first.isTeamIDLike && !own.contains(first) ? first : nil
    }

    /// What a prefix listed in `previous-application-identifiers` does not do, for messages.
    static let previousNote = " (it is in previous-application-identifiers, which keeps the App ID's continuity after a transfer but gives no keychain access: the profile allows only the new prefix, and items in the old group can be kept only by moving them into an app group before the transfer)"

    /// The App ID key the unit's App ID prefix was read from, when a Team ID the user states
    /// differs from that prefix and no profile says otherwise: the file's App ID is then
    /// another team's, and facts a file gets wrong do not vouch for the file's other values.
    static func unvouchedAppIDKey(_ unit: SigningUnit) -> String? {
        guard unit.profile == nil, let prefix = unit.appIDPrefix, case .entitlements(let key) = prefix.source,
              let team = unit.teamID, team.source.isStated, team.value != prefix.value else { return nil }
        return key
    }

    /// A finding about `com.apple.developer.team-identifier` compares it with the Team ID, not the
    /// App ID prefix: it is as certain as the team, whatever was assumed of the prefix.
    func facts(behind finding: Finding) -> [FactKind] {
        finding.keyPath == Self.teamKey ? [] : Self.description.facts?.certainWith ?? []
    }
    static let teamKey = "com.apple.developer.team-identifier"

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard let prefix = unit.appIDPrefix else { return [] }
        let own = Self.ownPrefixes(unit)
        // The groups are compared with the stated team when the file's own App ID is another
        // team's (reported below): a value the file gets wrong does not vouch for its groups.
        var groupPrefix = prefix, groupOwn = own, unvouched = ""
        if let key = Self.unvouchedAppIDKey(unit), let team = unit.teamID {
            groupOwn.remove(prefix.value)
            groupOwn.insert(team.value)
            groupPrefix = Fact(team.value, from: team.source)
            unvouched = "; \(key) in this file names that team too, and is wrong itself, so it does not make the prefix the app's"
        }
        let previous = Set(context.strings(of: "previous-application-identifiers").map { String($0.value.firstComponent) })
        var out: [Finding] = []
        for item in context.keychainGroups {
            let value = context.expanded(item).text
            // `$(AppIdentifierPrefix)` is expanded from the profile when signing, not from a wrong App ID in the file.
            if !unvouched.isEmpty, item.value.hasPrefix("$(AppIdentifierPrefix)") || item.value.hasPrefix("${AppIdentifierPrefix}") { continue }
            guard let first = Self.foreignPrefix(of: value, own: groupOwn) else { continue }
            var why = ""
            if item.value.hasPrefix("$(TeamIdentifierPrefix)") || item.value.hasPrefix("${TeamIdentifierPrefix}") {
                why = " ($(TeamIdentifierPrefix) is the Team ID, not the App ID prefix)"
            } else if previous.contains(first) {
                why = Self.previousNote
            }
            let fix = previous.contains(first) ? "remove it, or migrate its items first" : "keychain groups must use the App ID prefix: write \"$(AppIdentifierPrefix)\(value.dropFirst(first.count + 1))\""
            out.append(finding("keychain access group \"\(value)\" has prefix \(first), but the App ID prefix is \(groupPrefix.value) (\(groupPrefix.source))\(why)\(first == prefix.value ? unvouched : ""); \(fix)",
                               in: context, at: item.location, keyPath: item.keyPath))
        }
        for key in ["application-identifier", "com.apple.application-identifier"] {
            guard let node = unit.entitlements[key], let raw = node.string else { continue }
            let value = context.expand(raw).text
            let first = String(value.firstComponent)
            guard first.isTeamIDLike else { continue }
            let note = previous.contains(first) ? Self.previousNote : ""
            if case .entitlements(let k) = prefix.source, k == key {
                // The prefix was read from this very key: compare with a Team ID given by the user.
                guard let team = context.unit.teamID, team.value != first, team.source.isStated else { continue }
                out.append(finding("\(key) \"\(value)\" has prefix \(first), but the Team ID is \(team.value) (\(team.source))\(note); use \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\" (if the team has a legacy App ID prefix, pass its profile with --profile)",
                                   in: context, at: node.location, keyPath: key))
                continue
            }
            guard !own.contains(first) else { continue }
            out.append(finding("\(key) \"\(value)\" has prefix \(first), but the App ID prefix is \(prefix.value) (\(prefix.source))\(note); use \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\"",
                               in: context, at: node.location, keyPath: key))
        }
        if let node = unit.entitlements[Self.teamKey], let raw = node.string, let team = unit.teamID {
            let value = context.expand(raw).text
            if !Self.ownTeams(unit).contains(value), VariableExpander.references(in: value).isEmpty {
                if case .entitlements = team.source {} else {
                    out.append(finding("com.apple.developer.team-identifier is \"\(value)\", but the Team ID is \(team.value) (\(team.source)); use \"$(DEVELOPMENT_TEAM)\"",
                                       in: context, at: node.location, keyPath: Self.teamKey))
                }
            }
        }
        return out
    }
}
