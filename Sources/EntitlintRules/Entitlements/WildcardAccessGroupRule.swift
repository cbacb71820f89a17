import EntitlintCore

/// `wildcard-access-group` (keychain-access-groups.md sections 1 and 3.1).
struct WildcardAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "wildcard-access-group", severity: .error,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing, securityScore: "6.5",
        summary: "`*` anywhere in an app's keychain-access-groups or app groups.",
        rationale: """
        Wildcards belong in provisioning profiles, never in an app (keychain-access-groups.md section 3.1). At run time matching is \
        exact (section 1): `"*"` alone means every group, and a third-party process carrying it has its keychain \
        connection rejected. Anything else with a `*` is a literal name: `PREFIX.*` copied from the profile signs \
        (the profile's `PREFIX.*` allows the text), and apps that all list it do share that one odd group, which \
        becomes their default group when it is first; but it is no pattern, so it shares nothing with apps that \
        list real names, and it is easily taken for "all my groups". `" * "` (with spaces) is such a literal too, \
        not `*`. An app group with a `*` is likewise a literal name that the portal never registered.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)*</string>\n</array>",
                        comment: "The profile's pattern copied into the app. Listed first, it is the default group: no fix removes it."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>*</string>\n</array>",
                        comment: "Every group: the keychain refuses the app.",
                        fixed: "<key>keychain-access-groups</key>\n<array>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n\t↓<string>ABCDE12345.com.example.*</string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string> * </string>\n</array>",
                        comment: "A literal name with spaces, not `*`: reported here once, not also as padding."),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.*</string>\n</array>",
                        comment: "An app group is never a pattern."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:*.example.com</string>\n</array>",
                        comment: "Wildcards elsewhere are other rules' business."),
        ]
    ).fixing(
        "Unsafe (`--fix --unsafe-fixes`): the wildcard entry is removed. Items the app saved in that literal group are no longer reachable, so review it: list the real groups instead. A wildcard listed first is the app's default group and is not removed (that would move the default, stranding every item saved without a group), except `*` alone, which the keychain refuses.")

    func check(_ context: UnitContext) -> [Finding] {
        var out: [Finding] = []
        for items in [context.keychainGroups, context.appGroups] {
            for item in items where item.value.containsASCII("*") {
                let v = item.value
                let message: String
                if item.key != "keychain-access-groups" {
                    message = "app group \"\(v)\" contains a wildcard: app groups are never patterns, so this is a literal name no portal registers; list the real groups, e.g. \"group.com.example.shared\""
                } else if v == "*" {
                    message = "keychain access group \"*\" claims every group: the keychain rejects third-party apps that carry it; list the groups the app really uses"
                } else if v.trimmingWhitespace() == "*" {
                    message = "keychain access group \"\(v)\" is a literal name made of a star and spaces, not \"*\": it matches no other app's group; list the groups the app really uses, e.g. \"$(AppIdentifierPrefix)com.example.shared\""
                } else {
                    message = "keychain access group \"\(v)\" contains a wildcard, but only profiles have patterns: in an app it is a literal group name, shared only with apps that list the same text (and their default group when listed first), never with the real groups it seems to cover; list the real groups, e.g. \"$(AppIdentifierPrefix)com.example.shared\", and if the app has shipped with it as its default group, keep it first and add the real groups after it until the items saved there are moved"
                }
                let found = finding(message, in: context, at: item.location, keyPath: item.keyPath)
                // A literal wildcard listed first is the app's default group: every item saved
                // without a group is in it, and removing it moves the default (a drift). Only
                // `*` itself is removed there: the keychain refuses an app carrying it, so nothing
                // was ever saved in it.
                if item.key == "keychain-access-groups", item.index == 0, v != "*" {
                    out.append(found)
                } else {
                    out.append(found.fixing("remove \"\(v)\" (unsafe: items the app saved in this group are no longer reachable, and apps that list the same text no longer share them)",
                                            .unsafe, [.remove(item.key, item.index, v)]))
                }
            }
        }
        return out
    }
}
