import EntitlintCore

/// `unused-entitlements-file` (keychain-access-groups.md section 2.1).
struct UnusedEntitlementsFileRule: Rule {
    static let description = RuleDescription(
        id: "unused-entitlements-file", severity: .note,
        category: .project, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "An entitlements file in a project's folders that no target signs with and no setting or build file names.",
        rationale: """
        Xcode signs a target with the file its `CODE_SIGN_ENTITLEMENTS` names (an XcodeGen target's \
        `entitlements: path:`, keychain-access-groups.md section 2.1); a file no target names is never signed. It is \
        often left over from a removed target or an extension whose spec is no longer included, and what it holds \
        is nobody's problem: this note is the only finding on it. A file that a build setting names as a choice \
        (`App$(SUFFIX).entitlements`, a variant a per-developer file's committed template picks) or that a CMake, \
        Bazel or Tuist build file names is used, not reported; only the checks that need no facts run on it.
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
        return [finding("no target of the projects here signs with this file, and no build setting or build file names it, so nothing else was checked in it: name it in a target's CODE_SIGN_ENTITLEMENTS, or delete it if it is left over",
                        in: context, at: context.located(first))]
    }
}
