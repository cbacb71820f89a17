import EntitlintCore
import PropertyList

/// `app-clip-access-groups` (keychain-access-groups.md section 1).
struct AppClipAccessGroupsRule: Rule {
    static let description = RuleDescription(
        id: "app-clip-access-groups", severity: .error,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Any keychain-access-groups entry of an App Clip fails, whatever the App ID prefix is: the rule reads only whether the unit is a clip (its product type, its place in a built app, or its own entitlements)."),
        summary: "An App Clip with keychain-access-groups: any entry, its own App ID included, makes every keychain call of the clip fail.",
        rationale: """
        Every keychain call of an App Clip fails with `errSecRestrictedAPI` (-34020) unless the clip's whole \
        access-group list is exactly its App ID (optionally followed by `com.apple.token`) (keychain-access-groups.md section 1). \
        The system skips a clip's app groups but not its `keychain-access-groups`, and it does not de-duplicate the \
        list: an entry equal to the clip's own App ID makes the list `[AppID, AppID]`, which is refused too. So a \
        clip must not list `keychain-access-groups` (only `com.apple.token`, which goes to the end of the list, is \
        harmless). The fix is to remove the key: the clip's items then go to its App ID, and since iOS 15.4 the full \
        app can read what its clip stored. A clip is recognised by its target's product type \
        (`com.apple.product-type.application.on-demand-install-capable`, XcodeGen's \
        `application.on-demand-install-capable`), by its place in a built app (`AppClips/`), or by \
        `com.apple.developer.on-demand-install-capable` in its entitlements; Xcode adds that key when signing, so \
        a source file rarely has it.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("Clip", kind: .appClip, bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
            ], comment: "A clip target (its product type says so) listing only its own App ID: the list becomes [AppID, AppID]."),
            RuleExample("<key>com.apple.developer.on-demand-install-capable</key>\n<true/>\n↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345", comment: "A shared group in a clip's signed entitlements.", fixed: "<key>com.apple.developer.on-demand-install-capable</key>\n<true/>"),
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne.Clip</string>\n</array>",
                        bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345",
                        comment: "A built App Clip (in `AppClips/` of its app).", built: RuleExample.Built(bundleKind: .appClip)),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.AppOne.Clip</string>\n</array>"),
                ProjectExampleUnit("Clip", kind: .appClip, bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.AppOne.Clip</string>\n</array>"),
            ], comment: "No keychain-access-groups: the clip's list is its App ID alone (app groups are skipped for clips)."),
            RuleExample("<key>com.apple.developer.on-demand-install-capable</key>\n<true/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>com.apple.token</string>\n</array>",
                        bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345",
                        comment: "Only com.apple.token, which the system moves after the App ID: [AppID, com.apple.token] is allowed."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "Not an App Clip."),
        ]
    ).fixing(
        "Unsafe (`--fix --unsafe-fixes`): the `keychain-access-groups` key and its array are removed. The clip's new items then go to its App ID; items it saved in the listed groups are no longer reachable from it.")

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard unit.isAppClip, context.keychainEntitlementHonoured,
              let entry = unit.entitlements.entry("keychain-access-groups") else { return [] }
        // A non-string element makes the system ignore the whole key (non-string-access-group).
        let groups = context.keychainGroups.filter { $0.value != AccessGroupList.tokenGroup }
        guard !groups.isEmpty else { return [] }
        let list = context.accessGroups.entries.map { "\"\($0.value)\"" }.joined(separator: ", ")
        let own = context.accessGroups.entries.first { $0.origin == .applicationIdentifier }
        let ownNote = own.map { o in groups.contains { context.expanded($0).text == o.value } ? " (the App ID listed again still counts: the list is not de-duplicated)" : "" } ?? ""
        return [finding("an App Clip must not list keychain-access-groups: its access-group list becomes [\(list)] instead of its App ID alone\(ownNote), and every keychain call of the clip then fails with errSecRestrictedAPI (-34020); remove the key: the clip's items go to its App ID, and since iOS 15.4 the full app can read them",
                        in: context, at: context.located(entry.keyLocation), keyPath: "keychain-access-groups")
                    .fixing("remove keychain-access-groups (unsafe: items the clip saved in the listed groups are no longer reachable from it; new ones go to its App ID)",
                            .unsafe, [.removeKey("keychain-access-groups")])]
    }
}
