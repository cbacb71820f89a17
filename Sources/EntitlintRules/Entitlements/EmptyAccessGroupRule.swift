import EntitlintCore

/// `empty-access-group` (keychain-access-groups.md sections 1 and 5).
struct EmptyAccessGroupRule: Rule {
    static let description = RuleDescription(
        id: "empty-access-group", severity: .error,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "An empty, whitespace-only or nameless group (`$(AppIdentifierPrefix)` alone), or one with padding or invisible characters.",
        rationale: """
        `""` is never a valid access group: no profile allows it, so signing, the install or the upload is \
        rejected, and the app never runs with it (keychain-access-groups.md section 1). \
        `$(AppIdentifierPrefix)` or `$(TeamIdentifierPrefix)` alone yields `ABCDE12345.`, a group with no name \
        (section 2). Plist strings are taken verbatim (section 5), so `<string> ABCDE12345.x </string>` is a group \
        whose name has spaces, and an invisible character (a zero-width space, a no-break space, a soft hyphen, a \
        byte-order mark) makes a name that looks right and matches nothing, since run-time matching is exact. A \
        value with a `*` is `wildcard-access-group`'s.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string></string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string> $(AppIdentifierPrefix)com.example.shared </string>\n</array>", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>   </string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)</string>\n</array>",
                        comment: "The prefix alone: `ABCDE12345.`, a group with no name."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.\u{200B}shared</string>\n</array>",
                        comment: "A zero-width space (U+200B) inside the name.", fixed: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example\u{00A0}suite</string>\n</array>",
                        comment: "A no-break space (U+00A0) inside an app group."),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)</string>\n</array>",
                        teamID: "ABCDE12345", comment: "On macOS the team prefix alone is the team's own app group, which needs no profile."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>keychain-access-groups</key>\n<array/>", comment: "An empty list is not an empty group."),
        ]
    ).fixing(
        "Safe: an empty or blank entry is removed, with its line; leading and trailing white space and zero-width characters are removed from a name. A space-like invisible character (a no-break space) inside a name may stand for a dot or a hyphen, and a prefix with no name after it says nothing of the name meant, so those are left to you.")

    /// Scalars that show as nothing or as a plain space: no-break and other Unicode spaces, zero-width
    /// characters and joiners, direction marks, the soft hyphen, the word joiner family, the byte-order
    /// mark and the Hangul fillers.
    static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00A0, 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2000...0x200F, 0x2028...0x202F,
             0x205F...0x206F, 0x3000, 0x3164, 0xFEFF, 0xFFA0:
            return true
        default:
            return false
        }
    }

    /// Whether an invisible scalar shows as a space (rather than as nothing).
    static func isSpaceLike(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00A0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000, 0x3164, 0xFFA0, 0x115F, 0x1160: return true
        default: return false
        }
    }

    /// The first invisible scalar of `s`, if any (ASCII strings are rejected by a byte scan).
    static func firstInvisible(_ s: String) -> Unicode.Scalar? {
        guard s.hasNonASCII else { return nil }
        return s.unicodeScalars.first(where: isInvisible)
    }

    /// `s` without its invisible scalars.
    static func withoutInvisibles(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s.unicodeScalars.filter { !isInvisible($0) })
        return String(out)
    }

    static let prefixVariables: Set<String> = ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"]

    /// A prefix with nothing after it: a prefix variable alone, or a literal `ABCDE12345.`.
    static func isPrefixAlone(_ s: String) -> Bool {
        // A prefix variable alone is at most 23 bytes: longer values are not hashed.
        if s.utf8.count <= 23 && prefixVariables.contains(s) { return true }
        return s.utf8.count == 11 && s.hasSuffix(".") && String(s.dropLast()).isTeamIDLike
    }

    func check(_ context: UnitContext) -> [Finding] {
        var findings: [Finding] = []
        // The two lists in turn, not concatenated: copying every item costs more than checking it.
        for items in [context.keychainGroups, context.strings(of: "com.apple.security.application-groups")] {
            for item in items {
                let what = item.key == "keychain-access-groups" ? "keychain access group" : "app group"
                let v = item.value
                let message: String
                var fix: (String, Finding.Fix.Operation)?
                if v.isBlank {
                    fix = ("remove the empty entry", .remove(item.key, item.index, v))
                    message = "empty \(what) \"\(v)\": no profile allows it, so signing, the install or the upload is rejected; remove it"
                } else if v.containsASCII("*") {
                    continue   // wildcard-access-group
                } else if v.hasOuterWhitespace {
                    let trimmed = Self.withoutInvisibles(v.trimmingWhitespace())
                    if !trimmed.isBlank { fix = ("write \"\(trimmed)\"", .replace(item.key, item.index, v, with: trimmed)) }
                    message = "\(what) \"\(v)\" has leading or trailing whitespace, which is part of the name; write \"\(Self.withoutInvisibles(v.trimmingWhitespace()))\""
                } else if let u = Self.firstInvisible(v) {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    // A zero-width character is simply dropped; a space-like one may have stood for
                    // a dot or a hyphen, so the fix is not guessed.
                    let advice = Self.isSpaceLike(u) ? "replace it with what was meant, or remove it" : "write \"\(Self.withoutInvisibles(v))\""
                    if !Self.isSpaceLike(u) { fix = (advice, .replace(item.key, item.index, v, with: Self.withoutInvisibles(v))) }
                    message = "\(what) \"\(v)\" contains the invisible character \(code): the name looks right but matches nothing, since matching is exact; \(advice)"
                } else if Self.isPrefixAlone(v), item.key != "keychain-access-groups", context.unit.platform == .macOS,
                          v.hasPrefix("$(TeamIdentifierPrefix)") || v.hasPrefix("${TeamIdentifierPrefix}") || String(v.dropLast()).isTeamIDLike {
                    continue   // the team prefix alone: the team's own macOS app group, which needs no profile
                } else if Self.isPrefixAlone(v) {
                    message = "\(what) \"\(v)\" is a prefix with no name after it (it yields \"ABCDE12345.\"); write the group's name after the prefix, or remove it"
                } else {
                    continue
                }
                let f = finding(message, in: context, at: item.location, keyPath: item.keyPath)
                findings.append(fix.map { f.fixing($0.0, .safe, [$0.1]) } ?? f)
            }
        }
        return findings
    }
}
