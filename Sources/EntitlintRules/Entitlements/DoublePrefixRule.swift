import EntitlintCore

/// `double-prefix` (keychain-access-groups.md sections 2 and 6).
struct DoublePrefixRule: Rule {
    static let description = RuleDescription(
        id: "double-prefix", severity: .error,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "A prefix twice: `$(AppIdentifierPrefix).x`, `$(TeamIdentifierPrefix).x` or `$(AppIdentifierPrefix)ABCDE12345.x`.",
        rationale: """
        `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` already end with a dot (keychain-access-groups.md section 2), so \
        `$(AppIdentifierPrefix).x` yields `ABCDE12345..x`, and a literal Team ID after the variable yields \
        `ABCDE12345.ABCDE12345.x`. The profile's `ABCDE12345.*` allows both, so the app signs and installs with no \
        error, and the group silently is another one than the `ABCDE12345.x` the other apps use: sharing breaks \
        unnoticed. A real case: `$(AppIdentifierPrefix)4ESDVWK654.com.codality.NotationalFlow` (section 6).
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix).com.example.shared</string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)4ESDVWK654.com.codality.NotationalFlow</string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.codality.NotationalFlow</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>$(TeamIdentifierPrefix).com.example.group</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(DEVELOPMENT_TEAM).shared</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>ABCDE12345.com.example.other</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)ABCDE12345.Chat</string>\n</array>",
                        bundleID: "ABCDE12345.Chat", teamID: "ABCDE12345",
                        comment: "A bundle ID that starts with the Team ID: the group is exactly the App ID, one prefix."),
        ]
    ).fixing(
        "Safe, for `keychain-access-groups` only: the group is written `$(AppIdentifierPrefix)name`, one prefix. An app group has two correct forms (`group.name` on iOS, `$(TeamIdentifierPrefix)name` on macOS), and `application-identifier` is written by Xcode, so those are left to you.")

    static let prefixVariables = ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"]
    static let teamVariables = ["$(DEVELOPMENT_TEAM)", "${DEVELOPMENT_TEAM}"]
    static let prefixBytes = prefixVariables.map { Array($0.utf8) }
    static let anyPrefixBytes = (prefixVariables + teamVariables).map { Array($0.utf8) }
    static let teamDotBytes = teamVariables.map { Array(($0 + ".").utf8) }

    /// Why `s` carries a prefix twice, or nil. Works on UTF-8 bytes: every marker is ASCII.
    static func problem(_ s: String) -> String? {
        // Over the string's own bytes when they are contiguous (no array made per value).
        if let answer = s.utf8.withContiguousStorageIfAvailable({ problem(bytes: $0) }) { return answer }
        return Array(s.utf8).withUnsafeBufferPointer { problem(bytes: $0) }
    }

    private static func problem(bytes b: UnsafeBufferPointer<UInt8>) -> String? {
        guard let head = b.first else { return nil }
        let dot = UInt8(ascii: ".")
        func starts(_ p: [UInt8], at i: Int) -> Bool {
            guard b.count - i >= p.count else { return false }
            var k = 0
            while k < p.count { if b[i + k] != p[k] { return false }; k += 1 }
            return true
        }
        /// A 10-character ID at `i` followed by a dot.
        func idAndDot(at i: Int) -> String? {
            guard b.count > i + 10, b[i + 10] == dot else { return nil }
            let id = String(decoding: b[i..<(i + 10)], as: UTF8.self)
            return id.isTeamIDLike ? id : nil
        }
        if head == UInt8(ascii: "$") {
            for (n, vb) in prefixBytes.enumerated() where starts(vb, at: 0) {
                let v = prefixVariables[n]
                let i = vb.count
                if i < b.count, b[i] == dot { return "\(v) already ends with a dot, so this gives two dots" }
                for (m, wb) in anyPrefixBytes.enumerated() where starts(wb, at: i) {
                    return "\(v) is followed by \((prefixVariables + teamVariables)[m]): the prefix is given twice"
                }
                if let id = idAndDot(at: i) { return "\(v) is followed by the literal ID \(id): the prefix is given twice" }
            }
            for (n, wb) in teamDotBytes.enumerated() where starts(wb, at: 0) {
                if let id = idAndDot(at: wb.count) { return "\(teamVariables[n]). is followed by the literal ID \(id)" }
            }
            return nil
        }
        guard let first = idAndDot(at: 0) else { return nil }
        if b.count > 11, b[11] == dot { return "two dots after the prefix \(first)" }
        if idAndDot(at: 11) == first { return "the prefix \(first) is given twice" }
        return nil
    }

    /// The group's name without its prefixes: what follows every leading prefix variable, dot
    /// and repeated literal ID (`com.example.shared` of `$(AppIdentifierPrefix).com.example.shared`).
    static func name(after value: String) -> String {
        var rest = Substring(value)
        var changed = true
        while changed {
            changed = false
            for v in prefixVariables + teamVariables where rest.hasPrefix(v) {
                rest = rest.dropFirst(v.count)
                changed = true
            }
            while rest.hasPrefix(".") {
                rest = rest.dropFirst()
                changed = true
            }
            let first = String(String(rest).firstComponent)
            if first.isTeamIDLike, rest.count > 11 {
                rest = rest.dropFirst(11)
                changed = true
            }
        }
        return String(rest)
    }

    /// Whether what follows the one prefix variable of `s` is the (known) bundle ID, or a name
    /// below it, and that bundle ID starts with a 10-character ID: `$(AppIdentifierPrefix)ABCDE12345.Chat`
    /// for the bundle ID `ABCDE12345.Chat` is the App ID, with one prefix.
    static func isBundleIDAfterPrefix(_ s: String, bundleID: String?) -> Bool {
        guard let bundleID, String(bundleID.firstComponent).isTeamIDLike else { return false }
        for v in prefixVariables where s.hasPrefix(v) {
            let rest = s.dropFirst(v.count)
            return rest == bundleID || rest.hasPrefix(bundleID + ".")
        }
        return false
    }

    func check(_ context: UnitContext) -> [Finding] {
        var out: [Finding] = []
        // The lists in turn, not concatenated: copying every item costs more than checking it.
        for items in [context.keychainGroups, context.strings(of: "com.apple.security.application-groups"),
                      context.strings(of: "com.apple.developer.associated-application-identifier")] {
            for item in items {
                guard let why = Self.problem(item.value), !Self.isBundleIDAfterPrefix(item.value, bundleID: context.unit.bundleID?.value) else { continue }
                let name = Self.name(after: item.value)
                let message: String
                if item.key == "com.apple.security.application-groups" {
                    message = "\"\(item.value)\" has a double prefix (\(why)): it names another app group than the one other apps share, so sharing silently breaks; write \"$(TeamIdentifierPrefix)\(name)\" (macOS style) or \"group.\(name)\""
                } else {
                    message = "\"\(item.value)\" has a double prefix (\(why)): the profile's PREFIX.* still allows it, so it signs and installs, but it names another group than the one other apps share, and sharing silently breaks; write \"$(AppIdentifierPrefix)\(name)\""
                }
                var f = finding(message, in: context, at: item.location, keyPath: item.keyPath)
                // Only a keychain group has one way to be written; an app group has two (iOS and macOS style).
                if item.key == "keychain-access-groups", !name.isEmpty {
                    f = f.fixing("write \"$(AppIdentifierPrefix)\(name)\"", .safe,
                                 [.replace(item.key, item.index, item.value, with: "$(AppIdentifierPrefix)" + name)])
                }
                out.append(f)
            }
        }
        for key in ["application-identifier", "com.apple.application-identifier"] {
            if let node = context.unit.entitlements[key], let s = node.string, let why = Self.problem(s),
               !Self.isBundleIDAfterPrefix(s, bundleID: context.unit.bundleID?.value) {
                out.append(finding("\(key) \"\(s)\" has a double prefix (\(why)); write \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\"",
                                   in: context, at: node.location, keyPath: key))
            }
        }
        return out
    }
}
