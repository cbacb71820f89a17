import EntitlintCore

/// `shared-group-single-member` (DOMAIN.md sections 1 and 4): a group meant for sharing that only
/// one target of the run claims.
struct SharedGroupSingleMemberRule: ProjectRule {
    static let description = RuleDescription(
        id: "shared-group-single-member", severity: .note,
        summary: "A keychain or app group meant for sharing (not the unit's own App ID) that no other target of the project claims.",
        rationale: """
        A keychain access group other than the app's own App ID, or an app group, exists to share items with other \
        apps and extensions of the same team (DOMAIN.md section 1). When only one target of the project lists it, \
        nothing is shared: often a typo in one of the lists, a target that was removed, or sharing turned on half-way. \
        A group's members are counted per target (all configurations of a target are one member), over every unit of \
        the run; the unit's own App ID is never reported. The rule needs the project: it runs when the run has units \
        from an Xcode project or an XcodeGen spec, and is a note because the other member may live in another \
        repository.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.sahred</string>\n</array>"),
            ], comment: "A typo: each app claims a group the other does not."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>com.apple.security.application-groups</key>\n<array/>"),
            ], comment: "The widget never joined the app group."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ]),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>"),
            ], comment: "The extension shares its host's own group: the host claims it as its App ID."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        // Every group of every unit's list counts as a claim, the App ID included (an extension may
        // share its host's own group).
        var claimers: [String: Set<String>] = [:]
        for c in units {
            for e in c.accessGroups.entries { claimers[e.value, default: []].insert(c.unit.targetKey) }
        }
        var out: [Finding] = []
        for c in units where c.unit.origin != nil {
            for e in c.sharingClaims where claimers[e.value]?.count == 1 {
                let kind = UnitContext.kindName(e)
                out.append(finding("\(kind) \"\(e.value)\" is claimed by no other target of the project, so nothing shares it: add it to the targets meant to share it, or remove it (a typo here or there is the usual cause)",
                                   in: c, at: c.location(of: e), keyPath: e.keyPath))
            }
        }
        return out
    }
}
