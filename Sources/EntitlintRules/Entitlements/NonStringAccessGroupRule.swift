import EntitlintCore

/// `non-string-access-group` (keychain-access-groups.md section 1).
struct NonStringAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "non-string-access-group", severity: .error,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "An element of keychain-access-groups, the app groups or the associated App IDs that is not a string (or a value that is not an array).",
        rationale: """
        If any element of `keychain-access-groups` is not a string, the system ignores the whole entitlement \
        (keychain-access-groups.md section 1): every shared group is lost at once and the default falls back to the App ID. The \
        same helper reads `com.apple.security.application-groups` and \
        `com.apple.developer.associated-application-identifier`, so a non-string element drops those whole too.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<integer>1</integer>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n↓<string>$(AppIdentifierPrefix)com.example.shared</string>",
                        comment: "A single string instead of an array."),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n\t↓<dict/>\n</array>",
                        comment: "The app groups are dropped whole as well."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>"),
        ]
    )

    static let keys = ["keychain-access-groups", "com.apple.security.application-groups", "com.apple.developer.associated-application-identifier"]

    func check(_ context: UnitContext) -> [Finding] {
        var out: [Finding] = []
        for key in Self.keys {
            guard let node = context.unit.entitlements[key] else { continue }
            guard let items = node.array else {
                out.append(finding("\(key) is a <\(node.value.typeName)>, not an array of strings: the system ignores it; wrap the value in <array>",
                                   in: context, at: node.location, keyPath: key))
                continue
            }
            for (i, n) in items.enumerated() where n.string == nil {
                out.append(finding("element \(i) of \(key) is a <\(n.value.typeName)>, not a string: the system then ignores the whole entitlement; make it a <string> or remove it",
                                   in: context, at: n.location, keyPath: "\(key)[\(i)]"))
            }
        }
        return out
    }
}
