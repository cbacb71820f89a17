import EntitlintCore

/// `unused-entitlements-file` (keychain-access-groups.md section 2.1).
struct UnusedEntitlementsFileRule: Rule {
    static let description = RuleDescription(
        id: "unused-entitlements-file", severity: .note,
        summary: "An entitlements file in a project's folders that no target of the project signs with.",
        rationale: """
        Xcode signs a target with the file its `CODE_SIGN_ENTITLEMENTS` names (an XcodeGen target's \
        `entitlements: path:`, keychain-access-groups.md section 2.1); a file no target names is never signed. Its bundle ID, team, profile and build \
        settings cannot be known, so only the checks that need no facts run on it (a wildcard, an empty or \
        non-string group, a double prefix, duplicate keys and groups, comments), and this note says why the others \
        do not. It is often left over from a removed target or an extension whose spec is no longer included.
        """,
        triggering: [
            RuleExample("↓<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(APP_GROUP_IDENTIFIER)</string>\n</array>",
                        comment: "No target of the project names this file.", unused: true),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(APP_GROUP_IDENTIFIER)</string>\n</array>",
                        comment: "A loose file outside any project, or one a target signs with."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard context.unit.isUnused, !context.unit.isVariant else { return [] }
        let first = context.unit.entitlements.entries.first?.keyLocation ?? context.unit.document.root.location
        return [finding("no target of the project signs with this file, so its bundle ID, team and build settings are unknown: only the checks that need none ran on it. Name it in a target's CODE_SIGN_ENTITLEMENTS, or delete it if it is left over",
                        in: context, at: context.located(first))]
    }
}
