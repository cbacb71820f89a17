import EntitlintCore

/// `duplicate-access-group` (keychain-access-groups.md section 1).
struct DuplicateAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "duplicate-access-group", severity: .warning,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "The same keychain access group listed twice.",
        rationale: """
        The access-group list is ordered and matched exactly (keychain-access-groups.md section 1); a repeated group adds nothing \
        and usually means a merge went wrong, or two spellings of the same group (`$(AppIdentifierPrefix)x` and \
        `ABCDE12345.x`) that expand to one.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t↓<string>ABCDE12345.com.example.shared</string>\n</array>",
                        teamID: "ABCDE12345", comment: "Two spellings of one group."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.other</string>\n</array>"),
        ]
    ).fixing(
        "Safe: the later entry is removed, with its line, when it is written exactly as the earlier one. Two spellings that expand to the same group here (a variable and a literal prefix) may differ in another configuration that shares the file, so they are left to you.")

    func check(_ context: UnitContext) -> [Finding] {
        var out: [Finding] = []
        // Small lists (the usual case) are searched linearly; long ones (128 groups are seen in
        // real files) through a dictionary.
        var small: [(String, StringItem)] = []
        let useDictionary = context.keychainGroups.count > 16
        var large: [String: StringItem] = useDictionary ? Dictionary(minimumCapacity: context.keychainGroups.count) : [:]
        for item in context.keychainGroups {
            let v = context.expanded(item).text
            let first = useDictionary ? large[v] : small.first(where: { $0.0 == v })?.1
            if let first {
                let f = finding("keychain access group \"\(v)\" is already listed on line \(first.location.line); remove the duplicate",
                                in: context, at: item.location, keyPath: item.keyPath)
                // Written the same: the same group in every configuration sharing the file. Two
                // spellings that expand alike here may differ in another configuration.
                out.append(item.value == first.value
                           ? f.fixing("remove the later \"\(item.value)\"", .safe, [.remove(item.key, item.index, item.value)]) : f)
            } else if useDictionary {
                large[v] = item
            } else {
                small.append((v, item))
            }
        }
        return out
    }
}
