import EntitlintCore

/// `non-string-access-group` (DOMAIN.md section 1).
struct NonStringAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "non-string-access-group", severity: .error,
        summary: "A keychain-access-groups element that is not a string (or a value that is not an array).",
        rationale: """
        If any element of `keychain-access-groups` is not a string, the system ignores the whole entitlement \
        (DOMAIN.md section 1): every shared group is lost at once and the default falls back to the App ID.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<integer>1</integer>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n↓<string>$(AppIdentifierPrefix)com.example.shared</string>",
                        comment: "A single string instead of an array."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let node = context.unit.entitlements["keychain-access-groups"] else { return [] }
        guard let items = node.array else {
            return [finding("keychain-access-groups is a <\(node.value.typeName)>, not an array of strings: the system ignores it; wrap the value in <array>",
                            in: context, at: node.location, keyPath: "keychain-access-groups")]
        }
        return items.enumerated().compactMap { i, n in
            guard n.string == nil else { return nil }
            return finding("element \(i) of keychain-access-groups is a <\(n.value.typeName)>, not a string: the system then ignores the whole entitlement; make it a <string> or remove it",
                           in: context, at: n.location, keyPath: "keychain-access-groups[\(i)]")
        }
    }
}
