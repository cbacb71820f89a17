public import EntitlintCore
public import EntitlintWorkspace
import EntitlintRules

/// One whole `lint` run, in the library: the request's flags checked, each path linted with the
/// configuration nearest to it, baselines applied or recorded, the failing level decided. The
/// command line, the fast path and the tests build a `LintRequest` and call `run`; what to print
/// and where (`LintOutcome`) is theirs.
public enum LintRun {
    /// Runs `request`. Text for standard error that does not stop the run (a configured limit
    /// lowered to its ceiling, baseline entries that match nothing) goes to `diagnostics` as it
    /// arises, complete lines already escaped, so it keeps its order with any later error.
    public static func run(_ request: LintRequest, diagnostics: (String) -> Void = { _ in }) throws(UsageError) -> LintOutcome {
        let selection: RuleSelection
        do {
            selection = RuleSelection(select: try request.select.map { try RuleSelection.parse($0, option: "--select", known: RuleRegistry.ids) },
                                      ignore: try RuleSelection.parse(request.ignore, option: "--ignore", known: RuleRegistry.ids))
        } catch { throw UsageError("\(error)") }
        // Every rule's description, built only when a selection needs them.
        let allIDs = { RuleRegistry.descriptions }
        let stdinName = request.standardInputName
        var notes: [String] = []
        let trusted = try request.changes.trustedFiles()
        var options = try request.facts.options(paths: stdinName == nil ? request.paths : [], knownRules: RuleRegistry.ids,
                                                trusted: trusted, diagnostics: &notes)
        notes.forEach { diagnostics(Self.line($0)) }
        try request.changes.prepare(&options, explicitPaths: request.paths, knownRules: RuleRegistry.ids)
        if !request.overlay.isEmpty { options.virtualFiles = VirtualFiles.overlaying(request.overlay, over: options.virtualFiles) }
        options.nestedConfigurations = stdinName == nil && request.facts.config == nil
        var result = LintResult(findings: [], files: 0, units: [], profiles: [])
        var failing = false
        // Each path is linted with the configuration nearest to it (its rules, lock, profiles and
        // excludes), as if Entitlint ran in that configuration's folder; so is each folder a walk
        // meets that holds its own configuration (a group of its own, added as it is met: each is
        // deeper than the folder that met it, so there are at most as many as configuration files).
        var groups = stdinName == nil ? try nearestConfigurationGroups(options, request: request, diagnostics: diagnostics) : [options]
        // The preparation's findings are reported once, with the first group's.
        groups[0].setupFindings = options.setupFindings
        var nextGroup = 0
        while nextGroup < groups.count {
            let group = groups[nextGroup]
            nextGroup += 1
            let baselines = try request.changes.loadBaselines(group)
            let linter = Linter(rules: RuleRegistry.all, severityOverrides: selection.overrides(configuration: group.configuration, all: allIDs()))
            var part: LintResult
            do {
                if let stdinName { part = try linter.lintStandardInput(group, name: stdinName) } else { part = try linter.lint(group) }
                part.findings = try Self.withoutPriorFamilyFindings(part.findings, group: group, linter: linter)
            } catch { throw UsageError(error.description) }
            if request.changes.writeBaseline == nil {
                let unmatched = request.changes.applyBaseline(baselines, to: &part)
                if !unmatched.isEmpty { diagnostics(unmatched) }
            }
            failing = failing || part.findings.contains { $0.severity >= request.failingLevel(group.configuration) }
            result.merge(part)
            for folder in part.nestedConfigurationFolders {
                groups.append(try configurationGroup(paths: [Paths.display(folder)], configPath: folder + "/" + Configuration.fileName,
                                                     like: options, request: request, diagnostics: diagnostics))
            }
        }
        if result.files == 0, result.findings.isEmpty, result.units.isEmpty, !request.allowEmpty, stdinName == nil,
           !request.changes.staged, request.changes.changedSince == nil, options.paths.allSatisfy({ options.kind($0) == .directory }) {
            throw UsageError(Self.nothingToLint(options.paths))
        }
        let recorded = try request.changes.recordBaselineIfAsked(result, baselines: request.changes.loadBaselines(options))
        return LintOutcome(result: result, failing: recorded == nil && failing, options: options,
                           ruleSettings: selection.overrides(configuration: options.configuration, all: allIDs()), recordedBaseline: recorded)
    }

    /// Why a run over `paths` that found nothing to lint stops: most often a CI step or a hook
    /// pointed at the wrong folder, which would otherwise pass as "no problems found". Only runs
    /// over folders are: a file named explicitly and excluded by the configuration (a hook passing
    /// staged file names) was looked at and left out on purpose, and `--staged` and
    /// `--changed-since` runs with nothing changed had nothing that needed checking.
    static func nothingToLint(_ paths: [String]) -> String {
        let shown = paths.prefix(3).map { OutputText.escape($0) }.joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
        return "nothing to lint in \(shown): no entitlements file, provisioning profile, Xcode project or workspace, XcodeGen spec or built product was found; give the project's folder, or --allow-empty to accept an empty run"
    }

    /// A note for standard error, as the command line prints its messages (`diagnosticLine`).
    static func line(_ note: String) -> String { OutputText.diagnosticLine(note) }

    /// The run's paths grouped by the `.entitlint.yml` nearest to each (at or above it), each group
    /// with the options that configuration gives; one group, `options` itself, when `--config`
    /// names the configuration or every path has the same nearest one.
    static func nearestConfigurationGroups(_ options: LintOptions, request: LintRequest, diagnostics: (String) -> Void) throws(UsageError) -> [LintOptions] {
        guard request.facts.config == nil else { return [options] }
        var order: [String] = []
        var byConfig: [String: [String]] = [:]
        for path in options.paths {
            let folder = options.kind(path) == .directory ? path : Paths.directoryName(path)
            let key = Configuration.find(from: folder, in: options.trustedFiles).map { Paths.absolute($0) } ?? ""
            if byConfig[key] == nil { order.append(key) }
            byConfig[key, default: []].append(path)
        }
        let current = options.configuration?.path.map { Paths.absolute($0) } ?? ""
        guard order.count > 1 || order.first.map({ $0 != current }) == true else { return [options] }
        var groups: [LintOptions] = []
        for key in order {
            groups.append(try configurationGroup(paths: byConfig[key]!, configPath: key.isEmpty ? nil : key, like: options,
                                                 request: request, diagnostics: diagnostics))
        }
        return groups
    }

    /// The options for linting `paths` with the configuration at `configPath` (none: nil), the
    /// run's other choices (files from git, the reference lock) as in `options`.
    static func configurationGroup(paths: [String], configPath: String?, like options: LintOptions, request: LintRequest,
                                   diagnostics: (String) -> Void) throws(UsageError) -> LintOptions {
        var notes: [String] = []
        var group = try request.facts.options(paths: paths, nearest: configPath.map { Paths.display($0) }, knownRules: RuleRegistry.ids,
                                              trusted: options.trustedFiles, diagnostics: &notes)
        notes.forEach { diagnostics(Self.line($0)) }
        if configPath == nil { group.configuration = nil }
        group.virtualFiles = options.virtualFiles
        group.reportsChangedFamilies = options.reportsChangedFamilies
        group.priorFiles = options.priorFiles
        group.lock = options.lock
        group.nestedConfigurations = options.nestedConfigurations
        return group
    }
}

/// What a lint run found and decided; the caller prints it.
public struct LintOutcome: Sendable {
    /// Every group's findings, notices, units and files, merged, baselines applied.
    public var result: LintResult
    /// Whether a finding is at or above the failing level of its configuration (never when the
    /// run recorded a baseline).
    public var failing: Bool
    /// The options of the run as a whole (the first configuration: output limits, rule settings).
    public var options: LintOptions
    /// The rule settings of the selection and the run's configuration (`off` or a severity, by id).
    public var ruleSettings: [String: Configuration.RuleSetting]
    /// With `--write-baseline`: what was recorded (the run then reports nothing else).
    public var recordedBaseline: ChangeRequest.RecordedBaseline?

    /// 0: nothing at or above the failing level; 1: something is.
    public var exitStatus: Int32 { failing ? 1 : 0 }
}
