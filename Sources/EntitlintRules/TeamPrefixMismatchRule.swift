import EntitlintCore

/// `team-prefix-mismatch` (DOMAIN.md section 2).
struct TeamPrefixMismatchRule: Rule {
    static let description = RuleDescription(
        id: "team-prefix-mismatch", severity: .error,
        summary: "An access group, application-identifier or team-identifier whose prefix is not the unit's App ID prefix / Team ID.",
        rationale: """
        Keychain items cannot move between teams: every keychain group of an app must start with that app's App ID \
        prefix (DOMAIN.md section 2), which is almost always the Team ID but can differ for teams older than 2011. \
        A group under another prefix is rejected at install (0xE8008016) or upload (ITMS-90164). \
        `$(TeamIdentifierPrefix)` expands to the Team ID, so it is wrong for keychain groups when the App ID prefix \
        differs. A prefix listed in `previous-application-identifiers` (an app transferred from another team) is \
        not reported.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "A group of another team."),
            RuleExample("<key>application-identifier</key>\n↓<string>ZYXWV98765.com.example.AppOne</string>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>com.apple.developer.team-identifier</key>\n↓<string>ZYXWV98765</string>", teamID: "ABCDE12345"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        comment: "No team known: nothing to compare with."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>OLDTEAM123.com.example.shared</string>\n</array>\n<key>previous-application-identifiers</key>\n<array>\n\t<string>OLDTEAM123.com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "An app transferred from another team keeps its old prefix."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard let prefix = unit.appIDPrefix else { return [] }
        let previous = Set(context.strings(of: "previous-application-identifiers").map { String($0.value.firstComponent) })
        var out: [Finding] = []

        for item in context.keychainGroups {
            let value = context.expanded(item).text
            let first = String(value.firstComponent)
            guard value.containsASCII("."), first.isTeamIDLike, first != prefix.value, !previous.contains(first) else { continue }
            var why = ""
            if item.value.hasPrefix("$(TeamIdentifierPrefix)") || item.value.hasPrefix("${TeamIdentifierPrefix}") {
                why = " ($(TeamIdentifierPrefix) is the Team ID, not the App ID prefix)"
            }
            out.append(finding("keychain access group \"\(value)\" has prefix \(first), but the App ID prefix is \(prefix.value) (\(prefix.source))\(why); keychain groups must use the App ID prefix: write \"$(AppIdentifierPrefix)\(value.dropFirst(first.count + 1))\"",
                               in: context, at: item.location, keyPath: item.keyPath))
        }
        for key in ["application-identifier", "com.apple.application-identifier"] {
            guard let node = unit.entitlements[key], let raw = node.string else { continue }
            let value = context.expand(raw).text
            let first = String(value.firstComponent)
            guard first.isTeamIDLike, !previous.contains(first) else { continue }
            if case .entitlements(let k) = prefix.source, k == key {
                // The prefix was read from this very key: compare with a Team ID given by the user.
                guard let team = context.unit.teamID, team.value != first else { continue }
                switch team.source {
                case .flag, .config:
                    out.append(finding("\(key) \"\(value)\" has prefix \(first), but the Team ID is \(team.value) (\(team.source)); use \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\" (if the team has a legacy App ID prefix, pass its profile with --profile)",
                                       in: context, at: node.location, keyPath: key))
                default:
                    break
                }
                continue
            }
            guard first != prefix.value else { continue }
            out.append(finding("\(key) \"\(value)\" has prefix \(first), but the App ID prefix is \(prefix.value) (\(prefix.source)); use \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\"",
                               in: context, at: node.location, keyPath: key))
        }
        if let node = unit.entitlements["com.apple.developer.team-identifier"], let raw = node.string, let team = unit.teamID {
            let value = context.expand(raw).text
            if value != team.value, VariableExpander.references(in: value).isEmpty {
                if case .entitlements = team.source {} else {
                    out.append(finding("com.apple.developer.team-identifier is \"\(value)\", but the Team ID is \(team.value) (\(team.source)); use \"$(DEVELOPMENT_TEAM)\"",
                                       in: context, at: node.location, keyPath: "com.apple.developer.team-identifier"))
                }
            }
        }
        return out
    }
}
