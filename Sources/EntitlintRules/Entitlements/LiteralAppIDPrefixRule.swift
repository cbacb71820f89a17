import EntitlintCore

/// `literal-app-id-prefix` (keychain-access-groups.md section 2): opt-in, a matter of style.
struct LiteralAppIDPrefixRule: Rule {
    static let description = RuleDescription(
        id: "literal-app-id-prefix", severity: .note,
        category: .entitlements, readsOnlyTheFile: false, precision: .high,
        facts: .certain(needs: [.appIDPrefix], because: "It reports only when the App ID prefix is known (a profile's, or a Team ID the user states); when the prefix is only assumed it says nothing."),
        summary: "A keychain access group that writes the known App ID prefix literally (`ABCDE12345.name`) instead of `$(AppIdentifierPrefix)name`.",
        rationale: """
        A keychain group must start with the app's App ID prefix (keychain-access-groups.md section 2). Written \
        literally, the group is right today, but only for the team it was written for: a project moved to another \
        team, or a file copied into another team's app, keeps the old prefix, and the group is then rejected at \
        install or upload. `$(AppIdentifierPrefix)` is what Xcode writes for every Keychain Sharing group; it \
        expands to the profile's `ApplicationIdentifierPrefix[0]`, so where the literal equals that prefix the \
        rewrite names exactly the same group. A correct literal prefix is not a problem, so the rule is off \
        unless a run names it. It reports only when the prefix is known: a profile's, or a Team ID you state \
        (`--team-id`, the configuration's `team:`); a prefix only assumed equal to the Team ID (a team created \
        before June 2011 may have another) or read from the file's own `application-identifier` says nothing. \
        It reports only where something expands the variable: a file an Xcode project or XcodeGen spec signs \
        with, or a file that already writes `$(AppIdentifierPrefix)` (Electron and other tools ship the literal \
        text `$(AppIdentifierPrefix)`, section 6), and never when the file is signed by several units that do \
        not all have that prefix. `application-identifier` is left alone: the prefix there is what the unit's \
        other facts are read from, and Xcode writes that key itself.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t↓<string>ABCDE12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "The profile states the App ID prefix ABCDE12345, and the file already uses the variable.",
                        fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>ABCDE12345.com.example.shared</string>\n</array>",
                        teamID: "ABCDE12345", comment: "A target of an Xcode project, with a Team ID you state (taken as the App ID prefix).",
                        settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.AppOne"],
                        fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.developer.team-identifier</key>\n<string>ABCDE12345</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        comment: "The App ID prefix is only assumed equal to the Team ID (here the file's; a project's DEVELOPMENT_TEAM alike): a legacy prefix would make the literal the right one."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        teamID: "ABCDE12345",
                        comment: "A file no project signs with, and no variable in it: whatever builds it may not expand `$(AppIdentifierPrefix)`."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>ZYXWV98765.com.example.shared</string>\n</array>",
                        teamID: "ABCDE12345", comment: "Another team's prefix: not this rule's (team-prefix-mismatch)."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.group</string>\n</array>",
                        teamID: "ABCDE12345", comment: "A macOS app group under the Team ID: only keychain groups are rewritten."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        comment: "No team known: nothing to compare with."),
        ]
    ).fixing(
        "Safe: the literal `ABCDE12345.` at the start of the group is replaced by `$(AppIdentifierPrefix)`, which expands to the same prefix. Only in `keychain-access-groups`.")
        .optingIn().onlyForEveryUnitOfFile()

    static let variables = ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}"]

    /// The unit's App ID prefix when it is known: a profile's, one taken from a Team ID the user
    /// states, or the file's own App ID when a stated Team ID agrees with it. Nil when it is only
    /// assumed, unknown, or read from the file alone (the file may be the mistake).
    static func knownPrefix(_ unit: SigningUnit) -> Fact<String>? {
        guard let prefix = unit.appIDPrefix, prefix.certainty.isKnown else { return nil }
        if case .entitlements = prefix.source {
            guard let team = unit.teamID, team.source.isStated, team.value == prefix.value else { return nil }
        }
        return prefix
    }

    /// Whether whatever signs the unit expands `$(AppIdentifierPrefix)` in its file: a project
    /// target (an Xcode project, an XcodeGen or Tuist spec, all built by Xcode), or a file that
    /// already writes the variable in a keychain group. A Bazel target is not taken on trust.
    static func expandsVariables(_ context: UnitContext) -> Bool {
        if let origin = context.unit.origin {
            let file = origin.projectFile.split(separator: "/").last.map(String.init) ?? origin.projectFile
            if file != "BUILD", file != "BUILD.bazel" { return true }
        }
        return context.keychainGroups.contains { item in variables.contains { item.value.hasPrefix($0) } }
    }

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard unit.artifact == nil, !unit.isAppClip, let prefix = Self.knownPrefix(unit), Self.expandsVariables(context) else { return [] }
        let head = prefix.value + "."
        var out: [Finding] = []
        for item in context.keychainGroups {
            let v = item.value
            guard v.hasPrefix(head), !v.hasOuterWhitespace, DoublePrefixRule.problem(v) == nil else { continue }
            let rest = String(v.dropFirst(head.count))
            guard !rest.isEmpty else { continue }
            let write = "$(AppIdentifierPrefix)" + rest
            var f = finding("keychain access group \"\(v)\" writes the App ID prefix \(prefix.value) literally; write \"\(write)\", which expands to the same group and follows the profile if the team changes",
                            in: context, at: item.location, keyPath: item.keyPath)
                .fixing("write \"\(write)\"", .safe, [.replace(item.key, item.index, v, with: write)])
            f.notes.append("The App ID prefix \(prefix.value) is known from \(prefix.source).")
            out.append(f)
        }
        return out
    }
}
