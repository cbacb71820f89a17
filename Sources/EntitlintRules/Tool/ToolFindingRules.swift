import EntitlintCore

// The linter's own findings about its run (`ToolFindings`), besides `parse-error`: these types
// carry their descriptions, so each id is listed by `entitlint rules`, has a page, and is
// accepted by `--select`, `--ignore`, `rules:` and `per-file-ignores`. None checks a unit; the
// run reports them. They have no examples: what triggers them is the file system or the size of
// the run, not a file's content (their tests build such runs).

/// A rule type that only carries the description of one of the run's own findings.
protocol ToolFindingRule: Rule {}

extension ToolFindingRule {
    func check(_ context: UnitContext) -> [Finding] { [] }
}

extension RuleDescription {
    /// The description of one of the run's own findings: an error about the run (not a unit),
    /// needing no fact, with no examples.
    static func tool(_ id: String, summary: String, rationale: String) -> RuleDescription {
        RuleDescription(id: id, severity: .error, category: .tool, readsOnlyTheFile: false, precision: .veryHigh, facts: .nothing,
                        summary: summary, rationale: rationale, triggering: [], nonTriggering: [])
    }
}

struct UnreadablePathRule: ToolFindingRule {
    static let description = RuleDescription.tool(
        ToolFindings.unreadablePath,
        summary: "A file or folder the run could not read: missing, not permitted, not a regular file, or not in the revision read from.",
        rationale: """
        A file that cannot be read is not checked, and a run that checked nothing must not pass as "no problems": \
        the file or folder is reported with the reason the system gave, and the rest of the run goes on. A file \
        that was read but does not parse is `parse-error` instead.
        """)
}

struct ReadLimitRule: ToolFindingRule {
    static let description = RuleDescription.tool(
        ToolFindings.readLimit,
        summary: "A file not read because of a limit of the run: larger than `max-file-size`, or past `max-total-bytes` read in all.",
        rationale: """
        The limits keep a hostile or mistaken input from exhausting memory (Rules/reference/limits.md). A file \
        left unread by one is not checked, so it is reported, with the limit and how to raise it.
        """)
}

struct LinkOutsideRootRule: ToolFindingRule {
    static let description = RuleDescription.tool(
        ToolFindings.linkOutsideRoot,
        summary: "A symbolic link in a walked folder that leads outside the project root: not followed, not read.",
        rationale: """
        A folder walk stays inside the project: a link leading out of it could make the run read any file on the \
        machine, and put its contents in a report. The link is reported, so that what it points at is not \
        silently unchecked.
        """)
}

struct FindingsTruncatedRule: ToolFindingRule {
    static let description = RuleDescription.tool(
        ToolFindings.findingsTruncated,
        summary: "Findings left out because the run reports at most `max-findings`; this one says how many, from where.",
        rationale: """
        It stands at the first finding left out and takes the highest severity among those left out, so the exit \
        status is the one all of them would give. For that reason a severity in `rules:`, `off` and `--ignore` \
        do not change or remove it: raise the limit (`--max-findings N`) or fix findings instead.
        """)
}

struct OutputTruncatedRule: ToolFindingRule {
    static let description = RuleDescription.tool(
        ToolFindings.outputTruncated,
        summary: "Findings left out so the report fits in `max-output-bytes`; this one says how many, from where.",
        rationale: """
        It stands at the first finding left out and takes the highest severity among those left out, so the exit \
        status is the one all of them would give. For that reason a severity in `rules:`, `off` and `--ignore` \
        do not change or remove it: raise the limit (`--max-output-bytes N`) instead.
        """)
}
