import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import Artifacts
import XcodeProject
import EntitlintRules
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lint entitlements files and provisioning profiles (default: the current folder).")

    @Argument(help: "Files and folders to lint. Folders are searched for *.entitlements, *.xcent, *.mobileprovision, *.provisionprofile, Xcode projects, workspaces and XcodeGen specs.")
    var paths: [String] = []

    @OptionGroup var facts: FactOptions

    @Option(help: "Output format: text, json, sarif, junit, checkstyle, github or gitlab.")
    var format: String = "text"

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a report file (repeatable), e.g. sarif:entitlint.sarif.", valueName: "format:path"))
    var reports: [String] = []

    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails the run with exit 1 (default: error).")
    var failOn: Severity?

    @Flag(help: "Same as --fail-on warning.")
    var strict = false

    @Flag(help: "Print only the findings: no summary line.")
    var quiet = false

    @Option(help: "Colour the text output; auto: on a terminal, unless NO_COLOR is set.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-color"), help: "Same as --color never.")
    var noColor = false

    @Option(name: .customLong("stdin-filename"), help: "Lint standard input (also the path -), reported under this file name.")
    var stdinFilename: String?

    @Option(name: .customLong("select"), help: ArgumentHelp("Run only these rules (comma-separated ids, repeatable); replaces the configuration's select and ignore.", valueName: "rules"))
    var select: [String] = []

    @Option(name: .customLong("ignore"), help: ArgumentHelp("Do not run these rules (comma-separated ids, repeatable); added to the configuration's ignore.", valueName: "rules"))
    var ignore: [String] = []

    @Flag(help: "Print how many findings each rule has instead of the findings (text format only).")
    var statistics = false

    @Flag(name: .customLong("allow-empty"), help: "Exit 0 when the paths hold nothing to lint (by default that is an error: exit 2).")
    var allowEmpty = false

    @Flag(help: "Apply the safe fixes the findings offer (marked [*]) to the files, in place, then report what is left. With --staged (a pre-commit hook): fixes the work-tree files and exits 1 when it fixed something, so that the commit stops for review and re-staging.")
    var fix = false

    @Flag(help: "Print the fixes as a unified diff instead of writing them (nothing is written).")
    var diff = false

    @Flag(name: .customLong("unsafe-fixes"), help: "With --fix or --diff: apply the unsafe fixes too (each says what it may break).")
    var unsafeFixes = false

    @OptionGroup var changes: ChangeOptions

    /// A first path that is no file or folder but close to a command's name is a mistyped command
    /// (`entitlint lnt`), which would otherwise be linted as a missing path.
    func validate() throws {
        // Only as the command line's first word, where a command would stand: after `lint` or
        // `--` a path is a path.
        if let first = paths.first, CommandLine.arguments.dropFirst().first == first,
           let meant = LintInvocation.mistypedCommand(first) {
            throw ValidationError("unknown command '\(first)' (did you mean '\(meant)'?); to lint a file or folder of that name, give it after `lint --`")
        }
    }

    func run() throws { try invocation.run() }

    /// The run these arguments ask for (the fast path builds the same from the same words).
    var invocation: LintInvocation {
        var run = LintInvocation(paths: paths, facts: facts.values, format: format, strict: strict, noColor: noColor)
        run.select = select.isEmpty ? nil : select
        run.ignore = ignore
        run.reports = reports
        run.failOn = failOn
        run.quiet = quiet
        run.color = color
        run.stdinFilename = stdinFilename
        run.changes = changes.values
        run.statistics = statistics
        run.allowEmpty = allowEmpty
        run.fix = fix
        run.diff = diff
        run.unsafeFixes = unsafeFixes
        return run
    }
}

extension Severity: ExpressibleByArgument {}
extension ColorChoice: ExpressibleByArgument {}

/// One `lint` run.
struct LintInvocation: Equatable {
    var paths: [String] = []
    var facts = FactRequest()
    var format = "text"
    var strict = false
    var noColor = false
    /// `--report FORMAT:PATH`, in order.
    var reports: [String] = []
    var failOn: Severity?
    var quiet = false
    var color = ColorChoice.auto
    var stdinFilename: String?
    /// `--baseline`, `--write-baseline`, `--staged`, `--changed-since`, `--against`.
    var changes = ChangeRequest()
    /// `--select` (nil: not given) and `--ignore` values as given, each comma-separated.
    var select: [String]?
    var ignore: [String] = []
    /// `--statistics`: counts per rule instead of the findings.
    var statistics = false
    /// `--allow-empty`.
    var allowEmpty = false
    /// `--fix`, `--diff`, `--unsafe-fixes` (LintFix.swift).
    var fix = false
    var diff = false
    var unsafeFixes = false

    /// What the library is asked to do: the same whether the words came through ArgumentParser or
    /// the fast path.
    func request() throws -> LintRequest {
        LintRequest(paths: paths, facts: facts, changes: changes, standardInputName: try standardInputName(),
                    select: select, ignore: ignore, failOn: failOn, strict: strict, allowEmpty: allowEmpty)
    }

    func run() throws {
        let plan: ReportPlan
        do { plan = try ReportPlan(format: format, reports: reports) } catch { throw CLIError(error.description) }
        if statistics && format != TextReporter.identifier {
            throw CLIError("--statistics prints a text table and cannot be combined with --format \(format); write other formats with --report FORMAT:PATH")
        }
        if fix || diff || unsafeFixes {
            try runFixes(plan: plan)
            return
        }
        let outcome = LintRun.resolvingFixes(try LintRun.run(try request()) { Output.write($0, fd: STDERR_FILENO) })
        try finish(outcome, plan: plan)
    }

    /// Prints what `outcome` found in `plan`'s formats and ends with its exit status.
    func finish(_ outcome: LintOutcome, plan: ReportPlan, exitStatus: Int32? = nil) throws {
        if let recorded = outcome.recordedBaseline {
            if recorded.destination == .standardOutput { Output.writeBytes(recorded.bytes) }
            Output.write(recorded.summary, fd: recorded.destination == .standardOutput ? STDERR_FILENO : STDOUT_FILENO)
            return
        }
        let result = outcome.result
        let colour = format == TextReporter.identifier && !noColor
            && color.enabled(isTerminal: isatty(STDOUT_FILENO) == 1, noColor: getenv("NO_COLOR").map { String(cString: $0) })
        let full = outcome.report(plan: plan, colour: colour, showSummary: !quiet)
        if !quiet && !statistics && !result.notices.isEmpty && (plan.console is TextReporter || plan.console is GitHubReporter) {
            Output.write(Self.noticeLines(result.notices), fd: STDERR_FILENO)
        }
        let earlier = outcome.earlierOmission
        let limit = outcome.options.maxOutputBytes
        let (report, text) = statistics
            ? (full, Statistics.render(full, summaries: Dictionary(uniqueKeysWithValues: RuleRegistry.descriptions.map { ($0.id, $0.summary) })))
            : LintOutcome.fitting(full, limit: limit, earlier: earlier) { plan.console.guarded(plan.console.render($0)) }
        Output.write(text, style: type(of: plan.console).commandGuard, annotations: plan.console is GitHubReporter)
        if plan.uses(GitHubReporter.identifier) { Self.appendStepSummary(report) }
        do {
            try plan.writeFiles(full, fit: { LintOutcome.fitting($0, limit: limit, earlier: earlier, render: $1).1 }) { text, reporter in
                Output.write(text, style: type(of: reporter).commandGuard, annotations: reporter is GitHubReporter)
            }
        } catch { throw CLIError(lines: error.messages) }
        if let exitStatus, exitStatus != 0 { throw ExitCode(exitStatus) }
        if outcome.failing { throw ExitCode(outcome.exitStatus) }
    }

    /// The notices for standard error, one line each (`note: not checked: ...`): not in the
    /// `path:line: severity:` shape of findings, so editors and CI annotations do not take them for
    /// findings.
    static func noticeLines(_ notices: [Notice]) -> String {
        // A plain loop, and nothing at all for no notice: `joined()` costs a run-time generic
        // lookup (a fraction of a millisecond) on every one-file run.
        var out = ""
        for n in notices {
            let place = n.line > 0 ? "\(n.path):\(n.line)" : n.path
            out += "entitlint: notice: \(OutputText.escape(n.message)) (named at \(OutputText.escape(place)))\n"
        }
        return out
    }

    /// The name standard input is linted under, when the run reads it: the path `-`, or
    /// `--stdin-filename` (with `-` or no path). Without a name it is `<stdin>`.
    func standardInputName() throws -> String? {
        guard paths.contains("-") || stdinFilename != nil else { return nil }
        guard paths.allSatisfy({ $0 == "-" }) else {
            throw CLIError(paths.contains("-") ? "the path - (standard input) cannot be combined with other paths"
                                               : "--stdin-filename lints standard input: give - as the only path, or no path")
        }
        return stdinFilename ?? Linter.standardInputName
    }

    /// The `github` format's job summary, appended to the file `GITHUB_STEP_SUMMARY` names (the one
    /// side effect of a format, kept out of rendering). A summary that cannot be written is a
    /// warning: the annotations and the exit status still stand.
    static func appendStepSummary(_ report: Report) {
        guard let variable = getenv("GITHUB_STEP_SUMMARY"), variable.pointee != 0 else { return }
        let path = String(cString: variable)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            Output.error("warning: cannot append the job summary to \(path) (GITHUB_STEP_SUMMARY): \(String(cString: strerror(errno)))")
            return
        }
        Output.write(GitHubReporter.stepSummary(report), fd: fd)
        close(fd)
    }
}
