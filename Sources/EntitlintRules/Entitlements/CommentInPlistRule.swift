import EntitlintCore

/// `comment-in-plist` (keychain-access-groups.md section 5).
struct CommentInPlistRule: Rule {
    static let description = RuleDescription(
        id: "comment-in-plist", severity: .note,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "An XML comment in an entitlements file.",
        rationale: """
        Comments are legal between plist elements, but parser disagreements over comments and odd XML were the \
        "psychic paper" entitlement bypass fixed in iOS 13.5 (keychain-access-groups.md section 5). Entitlements that reviewers, \
        Xcode and the kernel must all read the same way are best kept free of them. A file with several \
        comments gets one finding, at the first.
        """,
        triggering: [
            RuleExample("↓<!-- Keychain Sharing -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("↓<!-- Keychain Sharing -->\n<key>keychain-access-groups</key>\n<array>\n\t<!-- the old group -->\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "Two comments, one finding."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<!-- entitlint:disable-file duplicate-access-group: both spellings are needed until 2.0 ships -->\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "An `entitlint:` directive is not reported here (unused-suppression checks it)."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        // `entitlint:` directives are the user's instructions to the linter, not stray comments:
        // unused-suppression judges them. One finding per file, at its first comment: the
        // problem is that the file has comments, whatever their number.
        let comments = context.unit.document.comments.filter { !SuppressionDirective.isDirective($0.text) }
        guard let c = comments.first else { return [] }
        let text = c.text.trimmingWhitespace()
        // The first 40 characters, without counting all of a long comment's.
        let cut = text.index(text.startIndex, offsetBy: 40, limitedBy: text.endIndex)
        let shown = cut == nil || cut == text.endIndex ? text : String(text[..<cut!]) + "..."
        let more = comments.count > 1 ? " (and \(comments.count - 1) more comment\(comments.count == 2 ? "" : "s") below)" : ""
        return [finding("XML comment \"\(shown.replacingOccurrencesOfNewlines())\" in an entitlements file\(more): comments have confused plist parsers before (psychic paper); remove \(comments.count > 1 ? "them" : "it")",
                        in: context, at: c.location, keyPath: nil)]
    }
}
