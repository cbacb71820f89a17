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

    /// Rules that check code the app compiles, resolved statically.
    static let codeRules: Set<String> = ["code-group-not-entitled", "code-group-missing-prefix", "code-group-wrong-prefix",
                                         "save-to-shared-default-group", "access-group-unused-in-code"]
    /// Rules about the profile or the signature rather than the entitlements file.
    static let signingRules: Set<String> = ["profile-expired", "profile-expiring", "certificate-expired", "entitlement-not-in-profile",
                                            "entitlement-value-mismatch", "profile-app-id-mismatch", "get-task-allow-in-distribution",
                                            "aps-environment-mismatch", "profile-der-mismatch", "macos-restricted-without-profile",
                                            "xml-der-entitlements-mismatch", "der-unencodable-value"]
    /// Scores for the findings tagged `security` (GitHub: 7.0-8.9 high, 4.0-6.9 medium): a
    /// debuggable distribution build lets any process attach to the app and read its memory and
    /// keychain items; a wildcard in an app's groups widens what it may read to every group of
    /// the team; the other keychain errors leave secrets where the app, or the apps meant to
    /// share them, cannot read them (or lose them after a change), so they weigh less.
    static let highSecuritySeverity: [String: String] = ["get-task-allow-in-distribution": "7.5", "wildcard-access-group": "6.5"]
    static let keychainErrorSeverity = "5.0"

    static func securitySeverity(_ id: String, severity: Severity) -> String? {
        if let score = highSecuritySeverity[id] { return score }
        return severity == .error && !signingRules.contains(id) ? keychainErrorSeverity : nil
    }

    static func tags(_ id: String, severity: Severity) -> [String] {
        var tags = ["entitlements"]
        if codeRules.contains(id) { tags.append("code") }
        if signingRules.contains(id) { tags.append("code-signing") } else { tags.append("keychain") }
        tags.append(securitySeverity(id, severity: severity) != nil ? "security" : "correctness")
        return tags
    }

    /// How often a finding is right: `very-high` for rules that judge the file's own text
    /// (`Linter.factFreeRules`), `medium` for rules that read code or reason about the whole
    /// project (a value the scan could not see can prove them wrong), `high` for the rest, which
    /// read stated facts (a profile, the project's settings, a signature).
    static func precision(_ id: String) -> String {
        if Linter.factFreeRules.contains(id) { return "very-high" }
        if codeRules.contains(id) || id == "shared-group-single-member" || id == "unused-entitlements-file" { return "medium" }
        return "high"
    }

    /// `severity`: the rule's severity in this run (a keychain rule configured down to a warning
    /// is no longer scored as a security error).
    static func properties(_ id: String, severity: Severity) -> SARIFReporter.RuleProperties {
        SARIFReporter.RuleProperties(tags: tags(id, severity: severity), precision: precision(id),
                                     securitySeverity: securitySeverity(id, severity: severity))
    }
}
