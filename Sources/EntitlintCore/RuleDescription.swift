import PropertyList
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a rule is about: the SARIF tags (`keychain` or `code-signing`, `code`) and the grouping
/// of the rules index.
public enum RuleCategory: String, Sendable, CaseIterable {
    /// The run itself: files it cannot read, directives that suppress nothing.
    case tool
    /// An entitlements file's keychain and app groups, on its own or with the unit's facts.
    case entitlements
    /// A provisioning profile or a signature rather than the entitlements file.
    case signing
    /// Several targets of a project, or a project as Xcode reads it.
    case project
    /// Code the app compiles, resolved statically.
    case code
}

/// How often a rule's finding is right, as SARIF's `precision` says it.
public enum RulePrecision: String, Sendable, CaseIterable {
    /// The rule judges the file's own text: nothing it does not see can prove it wrong.
    case veryHigh = "very-high"
    /// The rule reads stated facts (a profile, the project's settings, a signature).
    case high
    /// The rule reads code or reasons about the whole project: a value the scan could not see can
    /// prove it wrong.
    case medium
}

/// Everything a rule says about itself.
public struct RuleDescription: Sendable, Hashable {
    public var id: String
    public var severity: Severity
    public var category: RuleCategory
    /// True when the rule checks an entitlements file on its own, needing no bundle ID, team,
    /// profile, platform or build setting: it runs on a file a build setting names only as a
    /// variant (`SigningUnit.isVariant`), and a directive that suppresses none of its findings is
    /// reported as unused (finding nothing here means finding nothing in any run).
    public var readsOnlyTheFile: Bool
    public var precision: RulePrecision
    /// The unit facts the rule reasons about (`FactGate` holds its findings to them); nil only
    /// for descriptions made up for a finding of no registered rule.
    public var facts: FactNeeds?
    /// The `security-severity` score SARIF consumers read (GitHub: 7.0-8.9 high, 4.0-6.9 medium),
    /// when the rule's findings weigh more than a keychain error's default (`SARIFRuleProperties`).
    public var securityScore: String?
    /// Whether the rule offers fixes.
    public var canFix: Bool
    /// What its fixes do, and which are unsafe (the page's "Fix" section, `explain`).
    public var fixes: String? = nil
    /// True when the rule is off unless a run names it (`RuleSelection`): in `--select`, in the
    /// configuration's `select:`, or with a severity in `rules:`. For rules whose findings are a
    /// matter of taste, not a problem (as SwiftLint's opt-in rules and ruff's rules outside its
    /// default set).
    public var optIn = false
    /// True when a finding holds only if every unit signed with the file has it: its fix edits
    /// the file, so it changes the file for all of them (a literal prefix is the App ID prefix of
    /// one unit and not of another). A finding only some of the file's units have is dropped
    /// when configurations are folded (`FindingStage.foldConfigurations`).
    public var everyUnitOfFile = false
    public var summary: String
    /// Why it matters, citing the sections of `Rules/keychain-access-groups.md` it relies on.
    public var rationale: String
    /// The examples are built when first read, not with the description: every run reads each
    /// rule's id and severity, while only the docs, the example tests and SARIF help read the
    /// examples, and building them (source files, markers) would cost every one-file run.
    public var triggering: [RuleExample] { examples.triggering }
    public var nonTriggering: [RuleExample] { examples.nonTriggering }
    private let examples: Examples

    public init(id: String, severity: Severity, category: RuleCategory, readsOnlyTheFile: Bool, precision: RulePrecision,
                facts: FactNeeds? = nil, securityScore: String? = nil, canFix: Bool = false, summary: String, rationale: String,
                triggering: @autoclosure @escaping @Sendable () -> [RuleExample],
                nonTriggering: @autoclosure @escaping @Sendable () -> [RuleExample]) {
        self.id = id
        self.severity = severity
        self.category = category
        self.readsOnlyTheFile = readsOnlyTheFile
        self.precision = precision
        self.facts = facts
        self.securityScore = securityScore
        self.canFix = canFix
        self.summary = summary
        self.rationale = rationale
        self.examples = Examples(build: { (triggering(), nonTriggering()) })
    }

    /// The description of a rule that offers fixes, saying what they do.
    public func fixing(_ what: String) -> RuleDescription {
        var d = self
        d.canFix = true
        d.fixes = what
        return d
    }

    /// Whether a run whose setting for this rule is `setting` (nil: none) reports its findings:
    /// not when `off`, and an opt-in rule only when the run gives it a severity. The linter
    /// (`FindingStage`) and the reports' list of rules both decide by this.
    public func isEnabled(by setting: Configuration.RuleSetting?) -> Bool {
        guard let setting else { return !optIn }
        return setting != .off
    }

    /// The description of a rule that runs only when named (`optIn`).
    public func optingIn() -> RuleDescription {
        var d = self
        d.optIn = true
        return d
    }

    /// The description of a rule whose findings hold only when every unit of the file has them
    /// (`everyUnitOfFile`).
    public func onlyForEveryUnitOfFile() -> RuleDescription {
        var d = self
        d.everyUnitOfFile = true
        return d
    }

    /// How a run turns the rule on when it is opt-in, for pages and `entitlint rules`.
    public var howToEnable: String {
        "`--select \(id)`, `select: [\(id)]` or `rules: { \(id): \(severity.rawValue) }` in `.entitlint.yml`"
    }

    public static func == (a: RuleDescription, b: RuleDescription) -> Bool {
        a.id == b.id && a.optIn == b.optIn && a.everyUnitOfFile == b.everyUnitOfFile && a.severity == b.severity && a.category == b.category && a.readsOnlyTheFile == b.readsOnlyTheFile
            && a.precision == b.precision && a.facts == b.facts && a.securityScore == b.securityScore && a.canFix == b.canFix && a.fixes == b.fixes
            && a.summary == b.summary && a.rationale == b.rationale
            && a.triggering == b.triggering && a.nonTriggering == b.nonTriggering
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(severity)
        hasher.combine(summary)
    }

    /// Both lists, built once on first use (a class so that copies of the description share it).
    private final class Examples: @unchecked Sendable {
        private let lock = MutexLock()
        private var build: (@Sendable () -> ([RuleExample], [RuleExample]))?
        private var built: ([RuleExample], [RuleExample]) = ([], [])

        init(build: @escaping @Sendable () -> ([RuleExample], [RuleExample])) { self.build = build }

        private var lists: ([RuleExample], [RuleExample]) {
            lock.lock()
            defer { lock.unlock() }
            if let build {
                built = build()
                self.build = nil
            }
            return built
        }
        var triggering: [RuleExample] { lists.0 }
        var nonTriggering: [RuleExample] { lists.1 }
    }
}
