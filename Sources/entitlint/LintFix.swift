import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lint --fix`, `--diff` and `--unsafe-fixes`.
extension LintInvocation {
    func runFixes(plan: ReportPlan) throws {
        if unsafeFixes && !fix && !diff { throw CLIError("--unsafe-fixes applies unsafe fixes with --fix or --diff: give one of them") }
        if changes.writeBaseline != nil { throw CLIError("--fix and --diff cannot be combined with --write-baseline") }
        if try standardInputName() != nil { throw CLIError("--fix and --diff rewrite files: standard input cannot be fixed") }
        if diff && changes.staged { throw CLIError("--diff and --staged cannot be used together: --fix --staged fixes the work-tree files") }
        let fixing = FixRequest(unsafe: unsafeFixes, write: !diff)
        let result: FixOutcome
        result = try LintRun.fix(try request(), fixing) { Output.write($0, fd: STDERR_FILENO) }
        if diff {
            var text = ""
            for file in result.files {
                text += UnifiedDiff.render(file.before, file.after, oldName: "a/" + file.path, newName: "b/" + file.path)
            }
            Output.write(text)
            if !quiet {
                Output.write(Self.notices(result.outcome.result.notices) + Self.fixSummary(result, written: false), fd: STDERR_FILENO)
            }
            if result.outcome.failing { throw ExitCode(result.outcome.exitStatus) }
            return
        }
        if !quiet { Output.write(Self.fixLines(result), fd: STDERR_FILENO) }
        // A hook run that fixed files stops the commit: the fixes are in the work tree, not staged.
        let written = result.files.contains { $0.written }
        if changes.staged && written {
            Output.write("entitlint: the commit stops here: review the fixes and stage them (git add), then commit again\n", fd: STDERR_FILENO)
        }
        try finish(LintRun.resolvingFixes(result.outcome), plan: plan, exitStatus: changes.staged && written ? 1 : nil)
    }

    static func notices(_ notices: [Notice]) -> String {
        notices.map { "entitlint: notice: \(OutputText.escape($0.message)) (\(OutputText.escape($0.path)))\n" }.joined()
    }

    /// One line per fix applied, then the count.
    static func fixLines(_ result: FixOutcome) -> String {
        var out = ""
        for file in result.files where file.written {
            for f in file.fixes {
                out += "fixed: \(OutputText.escape(file.path)):\(f.line): \(OutputText.escape(f.title)) [\(f.rule)]\n"
            }
        }
        return out + fixSummary(result, written: true)
    }

    static func fixSummary(_ result: FixOutcome, written: Bool) -> String {
        let files = result.files.filter { written ? $0.written : true }
        let count = files.reduce(0) { $0 + $1.fixes.count }
        func n(_ c: Int, _ w: String) -> String { "\(c) \(w)\(c == 1 ? "" : w.hasSuffix("x") ? "es" : "s")" }
        if count == 0 { return "entitlint: nothing to fix\n" }
        return written ? "entitlint: fixed \(n(count, "finding")) in \(n(files.count, "file"))\n"
                       : "entitlint: --diff: \(n(count, "fix")) in \(n(files.count, "file")) (nothing written)\n"
    }
}
