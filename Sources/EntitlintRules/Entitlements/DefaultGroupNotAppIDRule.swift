import EntitlintCore

/// `default-group-not-app-id` (keychain-access-groups.md section 4).
struct DefaultGroupNotAppIDRule: Rule {
    static let description = RuleDescription(
        id: "default-group-not-app-id", severity: .note,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: FactNeeds(needs: [.bundleID]),
        summary: "Keychain sharing is on and the first group is not the app's own App ID: the default group is a shared one.",
        rationale: """
        The default group is the first keychain access group (keychain-access-groups.md section 1). Before sharing is turned on it \
        is the App ID; putting a shared group first moves it, and items saved earlier without an explicit group \
        stay behind (section 4). Apple's and practitioners' advice: keep \
        `$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)` first and pass `kSecAttrAccessGroup` for shared items. \
        The rule needs the bundle ID (flag, config, profile or `application-identifier`) unless the first group \
        is written with `$(PRODUCT_BUNDLE_IDENTIFIER)`. An extension of an Xcode project whose first group is its \
        host app's ID is fine: it shares the host's default (see `inconsistent-default-group`). \
        It is a note, and says nothing once a lock file records the unit's default: an app that has shipped with a \
        shared group first has its users' items there, and reordering it now would itself move the default \
        (section 4). The advice is to lock the current default (a later change is then `default-group-drift`), or, \
        for an app not yet shipped, to put its own ID first. An extension embedded in a project's app is left to \
        its host's note (and to `inconsistent-default-group`).
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "Bundle ID unknown: the rule cannot tell, and stays silent."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>com.apple.token</string>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "The system moves com.apple.token to the end of the list: the default is the app's own ID."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "The lock records this app (renamed since; its entry is found by bundle ID) with the shared group first: it shipped that way, and a change is default-group-drift's.",
                        locked: ["OldName": LockFile.Entry(bundleID: "com.example.AppOne", defaultAccessGroup: "ABCDE12345.com.example.shared",
                                                           accessGroups: ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.AppOne"])]),
        ]
    )

    static let ownIDForms: Set<String> = [
        "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)$(CFBundleIdentifier)",
        "${AppIdentifierPrefix}${PRODUCT_BUNDLE_IDENTIFIER}", "$(AppIdentifierPrefix)${PRODUCT_BUNDLE_IDENTIFIER}",
    ]

    func check(_ context: UnitContext) -> [Finding] {
        // com.apple.token is moved to the end of the list by the system: never the default.
        guard let first = context.keychainGroups.first(where: { $0.value != "com.apple.token" }), context.keychainEntitlementHonoured else { return [] }
        // An App Clip may list no keychain group at all: app-clip-access-groups says so, and
        // advice to put any group first would contradict it.
        if context.unit.origin?.kind == .appClip || context.unit.entitlements["com.apple.developer.on-demand-install-capable"]?.bool == true { return [] }
        if Self.ownIDForms.contains(first.value) { return [] }
        guard let bundle = context.unit.bundleID?.value else { return [] }
        let firstValue = context.expanded(first).text
        let appID = context.expand("$(AppIdentifierPrefix)" + bundle).text
        if firstValue == appID { return [] }
        // The app's ID written with a literal prefix while the prefix is unknown.
        if context.unit.appIDPrefix == nil, String(firstValue.firstComponent).isTeamIDLike,
           firstValue.dropFirst(11) == Substring(bundle) { return [] }
        if first.value.isBlank || first.value.containsASCII("*") { return [] }
        // An extension that puts its host app's ID first shares the host's default (inconsistent-default-group).
        if let host = context.unit.origin?.hostBundleID, firstValue == context.expand("$(AppIdentifierPrefix)" + host).text { return [] }
        // An extension of a project target follows its host: the note on the host covers the
        // family, and a default that differs from the host's is inconsistent-default-group's.
        if context.unit.origin?.hostTarget != nil { return [] }
        // A reference (a lock entry, of the unit's name, bundle ID or file, or the unit at an
        // `--against` revision) records the default deliberately: a change from it is
        // default-group-drift's, whose advice this note must not contradict.
        if context.lockEntry != nil || context.lock?.hasReference(for: context.unit, cwd: context.settings.workingDirectory) == true { return [] }
        return [finding("the default access group is the shared group \"\(first.value)\", not the app's own ID: items saved without kSecAttrAccessGroup go there. If the app has shipped this way, keep it (reordering would move its users' items out of reach) and record it with `entitlint lock`, so that a later change is reported; for an app not yet shipped, put \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\" first",
                        in: context, at: first.location, keyPath: first.keyPath)]
    }
}
