import EntitlintCore

/// What SARIF consumers read beside a rule's text: where its page is (`helpUri`) and the
/// `properties` bag GitHub code scanning reads: `tags`, `precision` and, for rules tagged
/// `security`, `security-severity` (a CVSS-like score that GitHub shows as critical, high,
/// medium or low; it counts only with the `security` tag).
enum SARIFRuleProperties {
    /// The rule pages in the repository.
    static let pagesBase = "https://github.com/entitlint/entitlint/blob/main/Rules/"

    static func helpURI(_ id: String) -> String { pagesBase + id + ".md" }

    /// The explanation of Apple's system that rule texts cite by section.
    static let guideURI = pagesBase + GuideCitations.page

    /// Scores for the findings tagged `security` (GitHub: 7.0-8.9 high, 4.0-6.9 medium): a rule's
    /// own `securityScore` (a debuggable distribution build lets any process attach to the app and
    /// read its memory and keychain items; a wildcard in an app's groups widens what it may read to
    /// every group of the team), else, for an error that is not about signing, the keychain
    /// errors' score: they leave secrets where the app, or the apps meant to share them, cannot
    /// read them (or lose them after a change), so they weigh less.
    static let keychainErrorSeverity = "5.0"

    static func securitySeverity(_ d: RuleDescription, severity: Severity) -> String? {
        if let score = d.securityScore { return score }
        return severity == .error && d.category != .signing ? keychainErrorSeverity : nil
    }

    static func tags(_ d: RuleDescription, severity: Severity) -> [String] {
        var tags = ["entitlements"]
        if d.category == .code { tags.append("code") }
        tags.append(d.category == .signing ? "code-signing" : "keychain")
        tags.append(securitySeverity(d, severity: severity) != nil ? "security" : "correctness")
        return tags
    }

    /// `severity`: the rule's severity in this run (a keychain rule configured down to a warning
    /// is no longer scored as a security error).
    static func properties(_ d: RuleDescription, severity: Severity) -> SARIFReporter.RuleProperties {
        SARIFReporter.RuleProperties(tags: tags(d, severity: severity), precision: d.precision.rawValue,
                                     securitySeverity: securitySeverity(d, severity: severity))
    }
}
