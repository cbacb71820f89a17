import ArgumentParser
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
        return run
    }
}

extension Severity: ExpressibleByArgument {}
extension ColorChoice: ExpressibleByArgument {}

/// One `lint` run.
struct LintInvocation: Equatable {
    var paths: [String] = []
    var facts = FactValues()
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
    var changes = ChangeValues()
    /// `--select` (nil: not given) and `--ignore` values as given, each comma-separated.
    var select: [String]?
    var ignore: [String] = []
    /// `--statistics`: counts per rule instead of the findings.
    var statistics = false

    func run() throws {
        let plan: ReportPlan
        do { plan = try ReportPlan(format: format, reports: reports) } catch { throw CLIError(error.description) }
        if statistics && format != TextReporter.identifier {
            throw CLIError("--statistics prints a text table and cannot be combined with --format \(format); write other formats with --report FORMAT:PATH")
        }
        let stdinName = try standardInputName()
        let selection: RuleSelection
        do {
            selection = RuleSelection(select: try select.map { try RuleSelection.parse($0, option: "--select", known: RuleRegistry.ids) },
                                      ignore: try RuleSelection.parse(ignore, option: "--ignore", known: RuleRegistry.ids))
        } catch { throw CLIError("\(error)") }
        let allIDs = RuleRegistry.descriptions.map(\.id)
        var options = try facts.options(paths: stdinName == nil ? paths : [], knownRules: RuleRegistry.ids)
        try changes.prepare(&options, explicitPaths: paths, knownRules: RuleRegistry.ids)
        options.nestedConfigurations = stdinName == nil && facts.config == nil
        var result = LintResult(findings: [], files: 0, units: [], profiles: [])
        var failing = false
        // Each path is linted with the configuration nearest to it (its rules, lock, profiles and
        // excludes), as if Entitlint ran in that configuration's folder; so is each folder a walk
        // meets that holds its own configuration (a group of its own, added as it is met: each is
        // deeper than the folder that met it, so there are at most as many as configuration files).
        var groups = stdinName == nil ? try nearestConfigurationGroups(options) : [options]
        // The preparation's findings are reported once, with the first group's.
        groups[0].setupFindings = options.setupFindings
        var nextGroup = 0
        while nextGroup < groups.count {
            let group = groups[nextGroup]
            nextGroup += 1
            let baselines = try changes.loadBaselines(group)
            let linter = Linter(rules: RuleRegistry.all, severityOverrides: selection.overrides(configuration: group.configuration, all: allIDs))
            var part: LintResult
            do {
                if let stdinName { part = try linter.lintStandardInput(group, name: stdinName) } else { part = try linter.lint(group) }
            } catch { throw CLIError(error.description) }
            if changes.writeBaseline == nil { changes.applyBaseline(baselines, to: &part) }
            failing = failing || part.findings.contains { $0.severity >= failingLevel(group.configuration) }
            result.merge(part)
            for folder in part.nestedConfigurationFolders {
                groups.append(try configurationGroup(paths: [Paths.display(folder)], configPath: folder + "/" + Configuration.fileName, like: options))
            }
        }
        if try changes.writeBaselineIfAsked(result, baselines: changes.loadBaselines(options)) { return }
        let colour = format == TextReporter.identifier && !noColor
            && color.enabled(isTerminal: isatty(STDOUT_FILENO) == 1, noColor: getenv("NO_COLOR").map { String(cString: $0) })
        var full = Report(findings: result.findings, files: result.files, colour: colour,
                          rules: plan.needsRules ? Report.enabledRules(RuleRegistry.descriptions, settings: selection.overrides(configuration: options.configuration, all: allIDs)) : [],
                          paths: plan.needsCheckedPaths ? Report.checkedPaths(of: result) : [],
                          showSummary: !quiet, sourceRoot: plan.usesRepositoryPaths ? SourceRoot.find() : nil)
        full.notices = result.notices
        if !quiet && !statistics && !result.notices.isEmpty && (plan.console is TextReporter || plan.console is GitHubReporter) {
            Output.write(Self.noticeLines(result.notices), fd: STDERR_FILENO)
        }
        let earlier = result.omittedFindings > 0 ? result.findings.last.map { ($0, result.omittedFindings) } : nil
        let (report, text) = statistics
            ? (full, Statistics.render(full, summaries: Dictionary(uniqueKeysWithValues: RuleRegistry.descriptions.map { ($0.id, $0.summary) })))
            : Self.fitting(full, limit: options.maxOutputBytes, earlier: earlier) { plan.console.guarded(plan.console.render($0)) }
        Output.write(text, style: type(of: plan.console).commandGuard, annotations: plan.console is GitHubReporter)
        if plan.uses(GitHubReporter.identifier) { Self.appendStepSummary(report) }
        do {
            try plan.writeFiles(full, fit: { Self.fitting($0, limit: options.maxOutputBytes, earlier: earlier, render: $1).1 }) { text, reporter in
                Output.write(text, style: type(of: reporter).commandGuard, annotations: reporter is GitHubReporter)
            }
        } catch { throw CLIError(lines: error.messages) }
        if failing { throw ExitCode(1) }
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

    /// The run's paths grouped by the `.entitlint.yml` nearest to each (at or above it), each group
    /// with the options that configuration gives; one group, `options` itself, when `--config`
    /// names the configuration or every path has the same nearest one.
    func nearestConfigurationGroups(_ options: LintOptions) throws -> [LintOptions] {
        guard facts.config == nil else { return [options] }
        var order: [String] = []
        var byConfig: [String: [String]] = [:]
        for path in options.paths {
            let folder = options.kind(path) == .directory ? path : Paths.directoryName(path)
            let key = Configuration.find(from: folder).map { Paths.absolute($0) } ?? ""
            if byConfig[key] == nil { order.append(key) }
            byConfig[key, default: []].append(path)
        }
        let current = options.configuration?.path.map { Paths.absolute($0) } ?? ""
        guard order.count > 1 || order.first.map({ $0 != current }) == true else { return [options] }
        return try order.map { key in
            try configurationGroup(paths: byConfig[key]!, configPath: key.isEmpty ? nil : key, like: options)
        }
    }

    /// The options for linting `paths` with the configuration at `configPath` (none: nil), the
    /// run's other choices (files from git, the reference lock) as in `options`.
    func configurationGroup(paths: [String], configPath: String?, like options: LintOptions) throws -> LintOptions {
        var group = try facts.options(paths: paths, nearest: configPath.map { Paths.display($0) }, knownRules: RuleRegistry.ids)
        if configPath == nil { group.configuration = nil }
        group.virtualFiles = options.virtualFiles
        group.lock = options.lock
        group.nestedConfigurations = options.nestedConfigurations
        return group
    }

    /// `report` rendered, with findings left out (halving their number) until the text fits in
    /// `limit` bytes (`--max-output-bytes`); the last finding then says how many were left out,
    /// with the highest severity among them, so the exit status does not change.
    static func fitting(_ report: Report, limit: Int, earlier: (notice: Finding, count: Int)?, render: (Report) -> String) -> (Report, String) {
        var text = render(report)
        guard text.utf8.count > limit else { return (report, text) }
        var fitted = report
        var keep = report.findings.count
        while keep > 0 {
            keep /= 2
            fitted.findings = Linter.capped(report.findings, at: keep, name: RunLimits.outputBytesName, earlier: earlier)
            text = render(fitted)
            if text.utf8.count <= limit { break }
        }
        return (fitted, text)
    }

    /// `--fail-on`, else `--strict` (`--fail-on warning`), else the config's `fail-on`, else errors only.
    func failingLevel(_ config: Configuration?) -> Severity { failOn ?? (strict ? .warning : config?.failOn ?? .error) }

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
