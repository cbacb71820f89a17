import EntitlintCore
import EntitlintWorkspace

extension LintRun {
    /// `findings` of a run over changed files without the project-rule findings on unchanged
    /// files that the same run over the files as they were before the change finds too: a change
    /// to a host app reports what it breaks in its unchanged extensions, not what was broken
    /// there already (that must not block an unrelated commit). Findings on the changed files are
    /// all kept, as in any run over them. The run before the change is made only when there is
    /// such a finding to judge, so a clean run, or one over loose files, costs nothing more.
    static func withoutPriorFamilyFindings(_ findings: [Finding], group: LintOptions, linter: Linter) throws(UsageError) -> [Finding] {
        guard group.reportsChangedFamilies, let prior = group.priorFiles else { return findings }
        let cwd = Paths.currentDirectory()
        let changed = Set(prior.paths)
        let projectRules = Set(linter.rules.filter { $0.asProjectRule != nil }.map { type(of: $0).description.id })
        let judged = { (f: Finding) in projectRules.contains(f.rule) && !changed.contains(Paths.absolute(f.path, cwd: cwd)) }
        guard findings.contains(where: judged) else { return findings }
        var before = group
        before.virtualFiles = prior
        before.setupFindings = []
        let earlier = Set(try linter.lint(before).findings.filter(judged).map(PriorKey.init))
        return findings.filter { !judged($0) || !earlier.contains(PriorKey($0)) }
    }

    /// What makes a finding the same before and after a change: where it is in its (unchanged)
    /// file and what it says, so that one whose message the change alters counts as new.
    struct PriorKey: Hashable {
        let rule: String, path: String, line: Int, column: Int, message: String

        init(_ f: Finding) {
            rule = f.rule
            path = f.path
            line = f.line
            column = f.column
            message = f.message
        }
    }
}
