import EntitlintCore

/// `default-group-drift` (keychain-access-groups.md section 4).
struct DefaultGroupDriftRule: ReferenceRule {
    static let description = RuleDescription(
        id: "default-group-drift", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high,
        facts: FactNeeds(certainWith: [.appIDPrefix], whenAssumed: .warning),
        summary: "The unit's default access group differs from the one recorded in the lock file (or at the `--against` revision).",
        rationale: """
        `SecItemAdd` without `kSecAttrAccessGroup` stores items in the default group, element 0 of the access-group \
        list (keychain-access-groups.md section 1). It silently changes when the bundle ID changes with no keychain-access-groups, \
        when a shared group is put first, when the list is reordered, or when the App ID prefix changes (section 4). \
        Items saved before stay in the old group and become unreachable once it leaves the list. `entitlint lock` \
        records every unit's default group in `entitlint.lock`; this rule compares against it, or, with \
        `lint --against REV`, against the default group of the same unit in the files as they were at revision REV.

        The two are compared in one form (section 4): a fact one side does not know (team, bundle ID) is taken \
        from the other, so a lock written with `--team-id --bundle-id` matches a hook run given neither, and a \
        symbolic `$(AppIdentifierPrefix)...` matches its expansion. An App ID prefix that was a guess (the Team ID \
        taken for it) gives way to a real one (a profile's, the entitlements', a setting's) on the other side. \
        What stays in different forms is not compared. A prefix change that rests on this unit's prefix only \
        assumed (the Team ID taken for it, with the reference's a guess too) is a warning whose note says what \
        was assumed: the team's real prefix may not have changed. A unit is paired with the entry of its name, else, when \
        renamed, with the entry of its bundle ID or of its file that no other unit takes: a renamed app whose \
        bundle ID changed too is a drift, not a new entry.

        The fix depends on the cause (section 4): another group first (a reorder, a new first group) is undone by \
        putting the old default first again, written as Xcode writes it so that every configuration sharing the \
        file keeps its own; after a bundle-ID change the old App ID could stay listed only with the old bundle ID's \
        profile, so the items must be migrated in code; after a prefix change the new profile forbids the old \
        group: migrate through an app group before the change. A keychain group the reference had and the unit no \
        longer lists is a warning: items saved there with an explicit group are stranded. A lock entry that no \
        unit pairs with, in a run that read its file or walked its folder, or read a file of the folder its file \
        is gone from, is a note on the lock file naming the entry and how to drop it (`entitlint lock --drop NAME`). \
        A unit renamed together with its bundle ID and its file matches its entry by nothing: when a folder has \
        exactly one new unit and exactly one such entry, the two are compared as a likely rename, with the advice of any drift: \
        an assumed pairing, so at most a warning, whose note says so. An entry of an older lock file records no file, \
        so its place is the lock file's folder: in a run that walked it, the entry is paired only when it is the \
        only such orphaned entry, the unit the run's only new unit (of the same configuration), and no orphaned \
        entry with a file lies in the unit's folder; two new units pair with nothing.
        """,
        triggering: [
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.NewName</string>",
                        comment: "The bundle ID changed and there are no keychain-access-groups: the default is the App ID, so it moved; the old App ID needs the old bundle ID's profile, so the items are migrated in code.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.AppOne", defaultAccessGroup: "ABCDE12345.com.example.AppOne",
                                                           accessGroups: ["ABCDE12345.com.example.AppOne"])]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", lockedDefaultGroup: "ABCDE12345.com.example.AppOne",
                        comment: "Keychain Sharing was turned on with the shared group first: the fix puts the app's own ID first again.", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.App</string>",
                        comment: "The App ID prefix changed (the app moved to another team): the old group cannot be kept.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "Y54WEA9F74.com.example.App",
                                                           accessGroups: ["Y54WEA9F74.com.example.App"], appIDPrefix: "Y54WEA9F74",
                                                           sources: ["app-id-prefix": .init(kind: .profile, detail: "profile App.mobileprovision")])]),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.Notes</string>",
                        comment: "The unit was renamed together with its bundle ID: its entry is found by its file, and the default moved.",
                        locked: ["App": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.App",
                                                       accessGroups: ["ABCDE12345.com.example.App"], entitlements: "Example.entitlements")]),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.NewName</string>",
                        comment: "Renamed together with its bundle ID and its file: the entry's file is gone from the folder, and they are the only new unit and the only orphaned entry there, so they are compared as a likely rename.",
                        locked: ["OldName": LockFile.Entry(bundleID: "com.example.OldName", defaultAccessGroup: "ABCDE12345.com.example.OldName",
                                                           accessGroups: ["ABCDE12345.com.example.OldName"], entitlements: "OldName.entitlements")]),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.example.NewName</string>",
                        comment: "The same rename against an older lock file, whose entries record no file: in a run over the lock file's folder, the only new unit and the only orphaned entry without a file are compared as a likely rename.",
                        locked: ["OldName": LockFile.Entry(bundleID: "com.example.OldName", defaultAccessGroup: "ABCDE12345.com.example.OldName",
                                                           accessGroups: ["ABCDE12345.com.example.OldName"])]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        comment: "Team and bundle ID unknown on both sides (`--against` with no flags): the list still names the old default after a new first group, so the default moved.",
                        locked: ["Example": LockFile.Entry(bundleID: nil, defaultAccessGroup: "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)",
                                                           accessGroups: ["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)com.example.shared"])]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(VAULT_GROUP)</string>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345",
                        comment: "The first group comes from a setting whose value changed: the fix is the setting, since the file may be shared by configurations whose default did not move.",
                        settings: ["VAULT_GROUP": "com.example.vault2"],
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.vault",
                                                           accessGroups: ["ABCDE12345.com.example.vault", "ABCDE12345.com.example.App"])]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345",
                        profileEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.App</string>\n</array>",
                        comment: "The old first group is one the current profile does not allow: listing it again would fail signing, so the advice is to migrate.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.old",
                                                           accessGroups: ["ABCDE12345.com.example.old", "ABCDE12345.com.example.App"])]),
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345",
                        comment: "The default did not move, but a keychain group the lock records is gone: items saved there are stranded.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.App",
                                                           accessGroups: ["ABCDE12345.com.example.App", "ABCDE12345.com.example.vault"])]),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", lockedDefaultGroup: "ABCDE12345.com.example.AppOne",
                        comment: "Sharing turned on with the app's own ID kept first: the default did not move."),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.NewName</string>",
                        comment: "No lock file entry for this unit: nothing to compare with."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "Locked with `--team-id` and `--bundle-id`, linted by a hook that knows neither: the lock's facts complete the symbolic default, which is the locked one.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.AppOne", defaultAccessGroup: "ABCDE12345.com.example.AppOne",
                                                           accessGroups: ["ABCDE12345.com.example.AppOne", "ABCDE12345.com.example.shared"],
                                                           appIDPrefix: "ABCDE12345", teamID: "ABCDE12345",
                                                           sources: ["app-id-prefix": .init(kind: .guess, detail: "App ID prefix taken to be the Team ID (flag --team-id)"),
                                                                     "bundle-id": .init(kind: .flag, detail: "flag --bundle-id"),
                                                                     "team-id": .init(kind: .flag, detail: "flag --team-id")])]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", lockedDefaultGroup: "$(AppIdentifierPrefix)com.example.AppOne",
                        comment: "Locked while the team was unknown: the symbolic default is the same group as its expansion now."),
            RuleExample("<key>application-identifier</key>\n<string>Y54WEA9F74.com.example.App</string>",
                        teamID: "7S6YLL52WH",
                        comment: "Locked with the Team ID guessed as the App ID prefix; the entitlements now state the real (legacy) prefix: not a drift.",
                        locked: ["Example": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "7S6YLL52WH.com.example.App",
                                                           accessGroups: ["7S6YLL52WH.com.example.App"], appIDPrefix: "7S6YLL52WH", teamID: "7S6YLL52WH",
                                                           sources: ["app-id-prefix": .init(kind: .guess, detail: "App ID prefix taken to be the Team ID (flag --team-id)")])]),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.App</string>",
                        comment: "The unit was renamed but kept its bundle ID: paired with its entry by bundle ID, same default.",
                        locked: ["OldName": LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "ABCDE12345.com.example.App",
                                                           accessGroups: ["ABCDE12345.com.example.App"])]),
        ]
    ).fixing(
        "Unsafe (`--fix --unsafe-fixes`), for a reorder only: when the old default group is still listed later in `keychain-access-groups`, it is moved back to the front. Items saved without kSecAttrAccessGroup since the change went to the other group, and new ones go to the old default again, so review it. A default moved by a bundle-ID or App ID prefix change, or coming from a build setting, has no fix.")

    /// How a finding that the App ID prefix changed says so: only such a finding rests on the
    /// unit's App ID prefix (a reorder or a bundle-ID change holds whatever the prefix is), so only
    /// it is capped while the prefix is assumed.
    static let prefixChangeWords = " because the App ID prefix changed from "

    func facts(behind finding: Finding) -> [FactKind] {
        finding.message.contains(Self.prefixChangeWords) ? [.appIDPrefix] : []
    }

    func check(_ context: UnitContext) -> [Finding] {
        guard let lock = context.lock, let (_, entry) = context.lockEntry,
              let current = context.accessGroups.defaultGroup,
              let comparison = DefaultGroupComparison(entry: entry, unit: context.unit, list: context.accessGroups) else { return [] }
        let reference = lock.reference ?? "lock file"
        let relock = lock.reference == nil ? ", then run `entitlint lock --accept`" : ""
        var out: [Finding] = []
        if let cause = comparison.cause {
            let old = comparison.oldDefault
            var fix: Finding.Fix?
            var message = "default access group changed from \"\(old)\" (\(reference)) to \"\(comparison.newDefault)\""
            switch cause {
            case .bundleIDChange(let from, let to):
                message += " because the bundle ID changed from \(from) to \(to): items saved without kSecAttrAccessGroup stay in \"\(old)\", the old App ID, which only a profile for \(from) allows; migrate them in code (read them from \"\(old)\" and save them again) before this ships\(relock)"
            case .prefixChange(let from, let to):
                message += Self.prefixChangeWords + "\(from) to \(to): items saved without kSecAttrAccessGroup stay in \"\(old)\", which cannot be kept (a profile of \(to) allows only \(to).* keychain groups); move the items into an app group (group.<name>) in a release signed with \(from) before the change\(relock)"
            case .otherFirstGroup:
                message += ": items saved without kSecAttrAccessGroup stay in \"\(old)\""
                message += comparison.oldDefaultStillListed ? " and are lost once it leaves the list" : ", which is no longer in the list, so they are lost"
                let settings = VariableExpander.references(in: current.raw).map(\.name).filter { !VariableExpander.standardNames.contains($0) }
                if let profile = context.unit.profile, !old.contains("$("), !old.contains("${"),
                   ProfileAllowlist.allows(profile.profile, key: "keychain-access-groups", value: old) == false {
                    // Advice to list a group the profile forbids would fail signing (group-missing-from-profile).
                    message += "; profile \"\(profile.displayName)\" does not allow it, so migrate the items in code\(relock)"
                    break   // out of the switch: nothing more to advise
                } else if !settings.isEmpty {
                    // The first group comes from a build setting: the file may be shared by configurations
                    // whose defaults did not move, so the fix is the setting, not the file.
                    message += "; the first group comes from the setting\(settings.count > 1 ? "s" : "") \(Array(Set(settings)).sorted().joined(separator: ", ")): give \(settings.count > 1 ? "them" : "it") back the value that made \"\(old)\" first in this configuration (editing keychain-access-groups would move the default of every configuration that shares the file)"
                } else if let suggestion = Self.written(old, comparison: comparison) {
                    message += "; put \"\(suggestion)\" first in keychain-access-groups again"
                    fix = Self.reorder(old, current: current.key, context: context)
                } else {
                    message += "; put it first in keychain-access-groups again if the profile allows it"
                }
                message += lock.reference == nil ? ", or, if the move is intended, migrate the items and run `entitlint lock --accept`" : ", or migrate the items"
            }
            let location = current.location.isKnown ? current.location : context.located(context.keyLocation(current.key ?? "application-identifier"))
            let f = finding(message, in: context, at: location, keyPath: "default-access-group")
            out.append(fix.map { f.fixing($0.title, $0.applicability, $0.operations) } ?? f)
        }
        if !comparison.removedGroups.isEmpty {
            let groups = comparison.removedGroups.map { "\"\($0)\"" }.joined(separator: ", ")
            let plural = comparison.removedGroups.count > 1
            let message = "keychain access group\(plural ? "s" : "") \(groups) (\(reference)) \(plural ? "are" : "is") no longer in the list: items saved there with kSecAttrAccessGroup are stranded; list \(plural ? "them" : "it") again, or migrate the items first\(relock)"
            let location = context.located(context.keyLocation("keychain-access-groups"))
            out.append(Finding(rule: Self.description.id, severity: .warning, message: message, path: context.unit.entitlementsPath,
                               line: location.line, column: location.column, unit: context.unit.name, keyPath: "keychain-access-groups"))
        }
        return out
    }

    func check(unpaired names: [String], in lock: LockFile, cwd: String) -> [Finding] {
        let path = lock.path.map { Paths.display($0, cwd: cwd) } ?? "entitlint.lock"
        let lines = lock.lines(of: names)
        return names.map { name in
            let entry = lock.units[name]!
            let quoted = name.shellQuoted
            let file = entry.entitlements.map { " (\($0))" } ?? ""
            let message = "lock entry \"\(name)\"\(file) matches no unit of this run by name, bundle ID or file: if the app was removed, drop the entry with `entitlint lock --drop \(quoted)`; if it was renamed along with its bundle ID, its users' items are still in \"\(entry.defaultAccessGroup)\": migrate them in code, then drop the entry and run `entitlint lock`"
            return Finding(rule: Self.description.id, severity: .note, message: message, path: path,
                           line: lines[name] ?? 1, column: 5, keyPath: "units.\(name)")
        }
    }

    /// The unsafe fix of a reorder: the entry of keychain-access-groups that is the old default,
    /// when it is still listed (later), moved back to the front. Nil when the default does not
    /// come from that list or the old group is not in it.
    static func reorder(_ old: String, current key: String?, context: UnitContext) -> Finding.Fix? {
        guard key == "keychain-access-groups",
              let item = context.keychainGroups.first(where: { $0.index > 0 && context.expanded($0).text == old }) else { return nil }
        return Finding.Fix(title: "move \"\(item.value)\" back to the front of keychain-access-groups (unsafe: items saved without kSecAttrAccessGroup since the change went to the new first group, and new items go to \"\(item.value)\" again)",
                           applicability: .unsafe, operations: [.moveToFront(item.key, item.index, item.value)])
    }

    /// The old default as the fix should write it in keychain-access-groups: Xcode's form, so
    /// that each configuration sharing the file keeps its own value, and never a form another
    /// rule reports (a literal prefix, a prefix twice). Nil when there is none such.
    static func written(_ old: String, comparison: DefaultGroupComparison) -> String? {
        if old == comparison.oldAppID { return "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)" }
        if old.contains("$(") || old.contains("${") { return old }
        guard let prefix = comparison.oldPrefix, old.hasPrefix(prefix + ".") else { return nil }
        let name = String(old.dropFirst(prefix.count + 1))
        guard !name.isEmpty, !String(name.firstComponent).isTeamIDLike else { return nil }
        return "$(AppIdentifierPrefix)" + name
    }
}
