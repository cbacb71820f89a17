import EntitlintCore

/// `unused-suppression`: produced by the linter once every rule has run (`FindingStage.finish`), since
/// it judges the other rules' findings; this type carries its description and examples (which
/// run every rule).
struct UnusedSuppressionRule: Rule {
    static let description = RuleDescription(
        id: FindingStage.unusedSuppressionID, severity: .warning,
        category: .tool, readsOnlyTheFile: false, precision: .high, facts: .nothing,
        summary: "An `entitlint:` directive comment that suppresses nothing: unknown rule, not a directive, or no finding where it points.",
        rationale: """
        `<!-- entitlint:disable-next-line RULE: reason -->` silences RULE on the next element and \
        `<!-- entitlint:disable-file RULE: reason -->` in the whole file. A directive that outlives its finding would \
        silently hide the next real problem at that place, and a misspelt one silences nothing, so both are reported. \
        Only rules that judge a file on its own are called unused (a rule that needs a profile, the project or the lock \
        may be silent only because the run lacks them). In Swift, Objective-C and xcconfig files the same directives \
        are `// entitlint:...` comments alone on their line, in YAML specs `# entitlint:...`; a scanned Swift or \
        Objective-C file is read for directives when it holds `entitlint:`, and every xcconfig file and spec the \
        project discovery read (see configuration.md). The directive is still a comment in the entitlements, which \
        reviewers and parsers must read alike (keychain-access-groups.md section 5): keep it short and give the reason.
        """,
        triggering: [
            RuleExample("↓<!-- entitlint:disable-next-line wildcard-access-group: the vendor SDK asked for it -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "The wildcard is gone; the directive stayed."),
            RuleExample("↓<!-- entitlint:disable-next-line wildcard-acess-group -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>*</string>\n</array>",
                        comment: "A misspelt rule id silences nothing (and the wildcard is still reported)."),
            RuleExample("↓<!-- entitlint:disable-file all: legacy file -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>*</string>\n</array>",
                        comment: "There is no `all`: name the rules to silence."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345", entitlements: appGroups,
                                   sources: ["App/Keychain.swift": keychain("↓// entitlint:disable-next-line code-group-not-entiteld: the SDK reads this group")]),
            ], comment: "In Swift too: a misspelt rule id silences nothing (and the group is still reported)."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<!-- entitlint:disable-next-line wildcard-access-group: kept until the 3.2 migration -->\n<array>\n\t<string>*</string>\n</array>",
                        comment: "It silences the wildcard inside the next element."),
            RuleExample("<!-- entitlint:disable-file duplicate-access-group: two spellings during the prefix migration -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<!-- entitlint:disable-next-line group-missing-from-profile: the profile is regenerated in CI -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "Without a profile the rule cannot judge, so neither can this one."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345", entitlements: appGroups,
                                   sources: ["App/Keychain.swift": keychain("// entitlint:disable-next-line code-group-not-entitled: the SDK reads this group, granted in 3.2")]),
            ], comment: "A `//` comment alone on its line silences the finding on the next line of Swift, Objective-C or xcconfig (`#` in YAML)."),
        ]
    )

    static let appGroups = "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>"

    /// A keychain helper whose group the entitlements do not grant, with `directive` on the line before it.
    static func keychain(_ directive: String) -> String {
        """
        func saveToken(_ data: Data) {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                        \(directive)
                                        kSecAttrAccessGroup as String: "ABCDE12345.com.example.sdk",
                                        kSecValueData as String: data]
            SecItemAdd(query as CFDictionary, nil)
        }
        """
    }

    func check(_ context: UnitContext) -> [Finding] { [] }
}
