import PropertyList
import Provisioning

/// The rules of a run and the severities the configuration gives them; `run` is the one staged
/// pipeline every entry point ends in: the units a caller planned (`UnitPlan`) -> the rule stage
/// (`RuleStage`) -> post-processing (`FindingStage`) -> findings. Entry points differ only in how
/// they read inputs and form units: files and projects (`lint(_ options:)` in the workspace),
/// standard input, in-memory files and units (`Linter+InMemory.swift`), rule examples.
public struct Linter: Sendable {
    public var rules: [any Rule]
    public var severityOverrides: [String: Configuration.RuleSetting]

    public init(rules: [any Rule], severityOverrides: [String: Configuration.RuleSetting] = [:]) {
        self.rules = rules
        self.severityOverrides = severityOverrides
    }

    /// The findings of a planned run, as every entry point reports them: each rule on the units
    /// it may check, project rules per app family, reference and profile rules, then the run's
    /// earlier findings joined, configurations folded, severities, per-file ignores and inline
    /// directives applied, sorted, and cut at `plan.maxFindings` (`omitted`: how many were cut);
    /// `units`: the units the run reported on (`UnitPlan.reportedUnits`), in plan order.
    public func run(_ plan: UnitPlan) -> (findings: [Finding], omitted: Int, units: [SigningUnit]) {
        // A rule the run does not report (set to `off`, or opt-in and not named) is not run:
        // its findings would all be dropped, and rules do not read each other's findings.
        let stage = RuleStage(rules: rules.filter { r in
            let d = type(of: r).description
            return d.isEnabled(by: severityOverrides[d.id])
        })
        let reported = plan.reportedUnits
        var (findings, contexts) = stage.unitFindings(plan)
        findings += stage.projectFindings(plan, contexts: contexts)
        findings += stage.referenceFindings(plan, reported: reported)
        findings += stage.profileFindings(plan, reported: reported)
        findings += plan.earlierFindings
        let post = FindingStage(self)
        let everyUnit = Set(rules.lazy.map { type(of: $0).description }.filter(\.everyUnitOfFile).map(\.id))
        findings = FindingStage.foldConfigurations(findings, units: plan.reportedFamilies.isEmpty ? reported : plan.findingUnits, everyUnit: everyUnit)
        // The scanned sources holding directives, and the xcconfig files and specs the discovery
        // read, are read for directives even without a finding, so a stale one is reported; not on
        // a run over changes, where they are context, not the change.
        let directiveFiles = plan.reportedFamilies.isEmpty ? (plan.codeIndex?.filesWithDirectives ?? []) + plan.projectDirectiveFiles : []
        findings = post.finish(findings, documents: FindingStage.documents(of: reported, withCommentsOnly: true), configuration: plan.configuration,
                               cwd: plan.settings.workingDirectory, readSource: plan.codeIndex?.readAny, directiveFiles: directiveFiles)
        let omitted = max(0, findings.count - plan.maxFindings)
        return (FindingStage.capped(findings, at: plan.maxFindings), omitted, reported)
    }
}
