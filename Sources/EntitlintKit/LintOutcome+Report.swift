public import EntitlintCore
public import Reporters
import EntitlintRules

extension LintOutcome {
    /// The report of the run for `plan`'s formats: the findings and notices, the enabled rules and
    /// checked paths where a format lists them.
    public func report(plan: ReportPlan, colour: Bool, showSummary: Bool) -> Report {
        var full = Report(findings: result.findings, files: result.files, colour: colour,
                          rules: plan.needsRules ? Report.enabledRules(RuleRegistry.descriptions, settings: ruleSettings) : [],
                          paths: plan.needsCheckedPaths ? Report.checkedPaths(of: result) : [],
                          showSummary: showSummary, sourceRoot: plan.usesRepositoryPaths ? SourceRoot.find() : nil)
        full.notices = result.notices
        return full
    }

    /// The finding that said, during the run, how many findings `--max-findings` left out, and
    /// that number: an output that must be shortened further keeps counting them.
    public var earlierOmission: (notice: Finding, count: Int)? {
        result.omittedFindings > 0 ? result.findings.last.map { ($0, result.omittedFindings) } : nil
    }

    /// `report` rendered, with findings left out (halving their number) until the text fits in
    /// `limit` bytes (`--max-output-bytes`); the last finding then says how many were left out,
    /// with the highest severity among them, so the exit status does not change.
    public static func fitting(_ report: Report, limit: Int, earlier: (notice: Finding, count: Int)?, render: (Report) -> String) -> (Report, String) {
        var text = render(report)
        guard text.utf8.count > limit else { return (report, text) }
        var fitted = report
        var keep = report.findings.count
        while keep > 0 {
            keep /= 2
            fitted.findings = FindingStage.capped(report.findings, at: keep, name: RunLimits.outputBytesName, earlier: earlier)
            text = render(fitted)
            if text.utf8.count <= limit { break }
        }
        return (fitted, text)
    }
}
