import EntitlintCore

/// `default-group-drift` (DOMAIN.md section 4).
struct DefaultGroupDriftRule: Rule {
    static let description = RuleDescription(
        id: "default-group-drift", severity: .error,
        summary: "The unit's default access group differs from the one recorded in the lock file (or at the `--against` revision).",
        rationale: """
        `SecItemAdd` without `kSecAttrAccessGroup` stores items in the default group, element 0 of the access-group \
        list (DOMAIN.md section 1). It silently changes when the bundle ID changes with no keychain-access-groups, \
        when a shared group is put first, when the list is reordered, or when the App ID prefix changes (section 4). \
        Items saved before stay in the old group and become unreachable once it leaves the list. `entitlint lock` \
        records every unit's default group in `entitlint.lock`; this rule compares against it, or, with \
        `lint --against REV`, against the default group of the same unit in the files as they were at revision REV.
        """,
        triggering: [
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.NewName</string>",
                        lockedDefaultGroup: "ABCDE12345.com.example.AppOne",
                        comment: "The bundle ID changed and there are no keychain-access-groups: the default is the App ID, so it moved."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", lockedDefaultGroup: "ABCDE12345.com.example.AppOne",
                        comment: "Keychain Sharing was turned on with the shared group first."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", lockedDefaultGroup: "ABCDE12345.com.example.AppOne",
                        comment: "Sharing turned on with the app's own ID kept first: the default did not move."),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.NewName</string>",
                        comment: "No lock file entry for this unit: nothing to compare with."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let lock = context.lock, let entry = lock.units[context.unit.name],
              let current = context.accessGroups.defaultGroup else { return [] }
        guard current.value != entry.defaultAccessGroup else { return [] }
        var message = "default access group changed from \"\(entry.defaultAccessGroup)\" (\(lock.reference ?? "lock file")) to \"\(current.value)\""
        if let old = entry.bundleID, let new = context.unit.bundleID?.value, old != new {
            message += " because the bundle ID changed from \(old) to \(new)"
        }
        message += ": items saved without kSecAttrAccessGroup stay in \"\(entry.defaultAccessGroup)\" and are lost once it leaves the list; put \"\(entry.defaultAccessGroup)\" first in keychain-access-groups, or migrate the items\(lock.reference == nil ? " and run `entitlint lock`" : "")"
        let location = current.location.isKnown ? current.location : context.located(context.keyLocation(current.key ?? "application-identifier"))
        return [finding(message, in: context, at: location, keyPath: "default-access-group")]
    }
}
