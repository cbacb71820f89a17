import EntitlintCore

/// `double-prefix` (DOMAIN.md sections 2 and 6).
struct DoublePrefixRule: Rule {
    static let description = RuleDescription(
        id: "double-prefix", severity: .error,
        summary: "A prefix twice: `$(AppIdentifierPrefix).x`, `$(TeamIdentifierPrefix).x` or `$(AppIdentifierPrefix)ABCDE12345.x`.",
        rationale: """
        `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` already end with a dot (DOMAIN.md section 2), so \
        `$(AppIdentifierPrefix).x` yields `ABCDE12345..x`, and a literal Team ID after the variable yields \
        `ABCDE12345.ABCDE12345.x`: groups no profile allows. A real case: \
        `$(AppIdentifierPrefix)4ESDVWK654.com.codality.NotationalFlow` (section 6).
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix).com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)4ESDVWK654.com.codality.NotationalFlow</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>$(TeamIdentifierPrefix).com.example.group</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(DEVELOPMENT_TEAM).shared</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>ABCDE12345.com.example.other</string>\n</array>"),
        ]
    )

    static let prefixVariables = ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"]
    static let teamVariables = ["$(DEVELOPMENT_TEAM)", "${DEVELOPMENT_TEAM}"]

    /// Why `s` carries a prefix twice, or nil.
    static func problem(_ s: String) -> String? {
        // Fast exit: every problem starts with a variable or with a 10-character ID and a dot.
        guard let head = s.utf8.first else { return nil }
        if head != UInt8(ascii: "$") && !(s.utf8.count > 11 && s.utf8.dropFirst(10).first == UInt8(ascii: ".")) { return nil }
        for v in prefixVariables where s.hasPrefix(v) {
            let rest = s.dropFirst(v.count)
            if rest.hasPrefix(".") { return "\(v) already ends with a dot, so this gives two dots" }
            for w in prefixVariables + teamVariables where rest.hasPrefix(w) { return "\(v) is followed by \(w): the prefix is given twice" }
            let first = String(String(rest).firstComponent)
            if first.isTeamIDLike && rest.utf8.contains(UInt8(ascii: ".")) { return "\(v) is followed by the literal ID \(first): the prefix is given twice" }
        }
        for w in teamVariables where s.hasPrefix(w + ".") {
            let rest = String(s.dropFirst(w.count + 1))
            if String(rest.firstComponent).isTeamIDLike && rest.containsASCII(".") { return "\(w). is followed by the literal ID \(rest.firstComponent)" }
        }
        let first = String(s.firstComponent)
        if first.isTeamIDLike, s.dropFirst(11).hasPrefix(".") { return "two dots after the prefix \(first)" }
        if first.isTeamIDLike, s.count > 11 {
            let second = String(String(s.dropFirst(11)).firstComponent)
            if second == first { return "the prefix \(first) is given twice" }
        }
        return nil
    }

    func check(_ context: UnitContext) -> [Finding] {
        let items = context.keychainGroups + context.strings(of: "com.apple.security.application-groups")
            + context.strings(of: "com.apple.developer.associated-application-identifier")
        var out = items.compactMap { item -> Finding? in
            guard let why = Self.problem(item.value) else { return nil }
            return finding("\"\(item.value)\" has a double prefix (\(why)); write \"$(AppIdentifierPrefix)name\" with no dot or ID after the variable",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
        for key in ["application-identifier", "com.apple.application-identifier"] {
            if let node = context.unit.entitlements[key], let s = node.string, let why = Self.problem(s) {
                out.append(finding("\(key) \"\(s)\" has a double prefix (\(why)); write \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\"",
                                   in: context, at: node.location, keyPath: key))
            }
        }
        return out
    }
}
