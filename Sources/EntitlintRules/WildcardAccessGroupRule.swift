import EntitlintCore

/// `wildcard-access-group` (DOMAIN.md sections 1 and 3.1).
struct WildcardAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "wildcard-access-group", severity: .error,
        summary: "`*` anywhere in an app's keychain-access-groups.",
        rationale: """
        Wildcards belong in provisioning profiles, never in an app (DOMAIN.md section 3.1). At run time matching is \
        exact (section 1): `"*"` alone means every group, and a third-party process carrying it has its keychain \
        connection rejected; `PREFIX.*` is a profile pattern copied into the app and is just an odd group name that \
        no other app shares, so sharing silently breaks.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)*</string>\n</array>",
                        comment: "The profile's pattern copied into the app."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>*</string>\n</array>",
                        comment: "Every group: the keychain refuses the app."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n\t↓<string>ABCDE12345.com.example.*</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:*.example.com</string>\n</array>",
                        comment: "Wildcards elsewhere are other rules' business."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        context.keychainGroups.compactMap { item in
            guard item.value.containsASCII("*") else { return nil }
            if item.value.trimmingCharacters() == "*" {
                return finding("keychain access group \"*\" claims every group: the keychain rejects third-party apps that carry it; list the groups the app really uses",
                               in: context, at: item.location, keyPath: item.keyPath)
            }
            return finding("keychain access group \"\(item.value)\" contains a wildcard: that is a provisioning-profile pattern, and in an app it is a literal group name no other app shares; list the real groups, e.g. \"$(AppIdentifierPrefix)com.example.shared\"",
                           in: context, at: item.location, keyPath: item.keyPath)
        }
    }
}

extension String {
    func trimmingCharacters() -> String {
        // ASCII white space is trimmed on the bytes; only when what is left starts or ends with
        // a byte past ASCII (Unicode white space, or a mark joined to a space) is it done by
        // Character, as before.
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        let fast = utf8.withContiguousStorageIfAvailable { b -> String? in
            var start = 0, end = b.count
            while start < end && isSpace(b[start]) { start += 1 }
            while end > start && isSpace(b[end - 1]) { end -= 1 }
            if start < end && (b[start] >= 0x80 || b[end - 1] >= 0x80) { return nil }
            if start == 0 && end == b.count { return self }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
        if let fast, let trimmed = fast { return trimmed }
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
