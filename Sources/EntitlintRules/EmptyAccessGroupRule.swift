import EntitlintCore

/// `empty-access-group` (DOMAIN.md sections 1 and 5).
struct EmptyAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "empty-access-group", severity: .error,
        summary: "An empty or whitespace-only group, or a group with leading or trailing whitespace.",
        rationale: """
        `""` is never a valid access group: using it fails with errSecMissingEntitlement (-34018) (DOMAIN.md \
        section 1). Plist strings are taken verbatim (section 5), so `<string> ABCDE12345.x </string>` is a group \
        whose name has spaces, which matches nothing, since run-time matching is exact.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string></string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string> $(AppIdentifierPrefix)com.example.shared </string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>   </string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array/>", comment: "An empty list is not an empty group."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        var findings: [Finding] = []
        // The two lists in turn, not concatenated: copying every item costs more than checking it.
        for items in [context.keychainGroups, context.strings(of: "com.apple.security.application-groups")] {
            for item in items {
                let what = item.key == "keychain-access-groups" ? "keychain access group" : "app group"
                if item.value.isBlank {
                    findings.append(finding("empty \(what) \"\(item.value)\": it is never valid (errSecMissingEntitlement, -34018); remove it",
                                            in: context, at: item.location, keyPath: item.keyPath))
                } else if item.value.hasOuterWhitespace {
                    findings.append(finding("\(what) \"\(item.value)\" has leading or trailing whitespace, which is part of the name; write \"\(item.value.trimmingCharacters())\"",
                                            in: context, at: item.location, keyPath: item.keyPath))
                }
            }
        }
        return findings
    }
}
