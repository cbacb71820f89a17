import EntitlintCore

/// `parse-error`: produced by the linter itself when a file cannot be read or parsed; this type
/// carries its description and examples.
struct ParseErrorRule: Rule {
    static let description = RuleDescription(
        id: "parse-error", severity: .error,
        category: .tool, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "A file that is not a valid property list or provisioning profile.",
        rationale: """
        codesign, Xcode and the App Store read entitlements with CoreFoundation's parser, which rejects unknown \
        elements, DTD subsets, custom entities, malformed dates and numbers (keychain-access-groups.md section 5). A profile is a CMS \
        SignedData envelope around a plist (section 3). A file that does not parse is reported with its line and the \
        reason, and the rest of the run goes on.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n↓</arrray>",
                        comment: "A misspelt closing tag."),
            RuleExample("<key>get-task-allow</key>\n↓<yes/>", comment: "`<yes/>` is not a property-list element."),
            RuleExample("<?xml version=\"1.0\"?>\n↓<!DOCTYPE plist [ <!ENTITY team \"ABCDE12345\"> ]>\n<plist version=\"1.0\"><dict/></plist>",
                        comment: "An internal DTD subset: custom entities are not allowed."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example</string>\n\t<string>x</string>\n↓<key>oops</key>",
                        comment: "A `<key>` inside an `<array>`: the array is not closed."),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            RuleExample("<key>name</key>\n<string>&lt;escaped&gt; &amp; &#x41;</string>", comment: "The predefined and numeric entities are fine."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] { [] }
}
