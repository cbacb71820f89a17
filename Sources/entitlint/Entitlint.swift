import ArgumentParser
import EntitlintCore
import Artifacts
import XcodeProject
import EntitlintRules
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Entitlint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlint",
        abstract: "Lint Apple entitlements and provisioning profiles for keychain access-group mistakes.",
        version: EntitlintVersion.current,
        subcommands: [Lint.self, Lock.self, Rules.self, Explain.self, Init.self, InstallHook.self, GenerateDocs.self, GenerateSchema.self, Inspect.self, ReportCommand.self],
        defaultSubcommand: Lint.self
    )

    /// The subcommands' names and `help`, spelled out (asking ArgumentParser for them costs
    /// start-up time on every run; a test checks that they agree).
    static let commandNames: Set<String> = ["lint", "lock", "rules", "explain", "init", "install-hook", "generate-docs",
                                            "generate-schema", "inspect", "report", "help"]
}

/// The facts about the units of one run (DESIGN.md section 6).
struct FactOptions: ParsableArguments {
    @Option(help: "Provisioning profile to check the units against.")
    var profile: String?

    @Option(name: .customLong("bundle-id"), help: "Bundle ID of the unit(s) (PRODUCT_BUNDLE_IDENTIFIER).")
    var bundleID: String?

    @Option(name: .customLong("team-id"), help: "Team ID (also taken as the App ID prefix unless a profile says otherwise).")
    var teamID: String?

    @Option(help: "Configuration file (default: .entitlint.yml in the current folder or above).")
    var config: String?

    @Option(help: "Lock file of default access groups (default: the config's `lock`, else entitlint.lock beside the config, else ./entitlint.lock).")
    var lock: String?

    @Option(name: .customLong("max-file-size"), help: "Largest input file in bytes (default 16 MiB).")
    var maxFileSize: Int?

    @Option(name: .customLong("max-depth"), help: "Deepest nesting of arrays and dicts in a plist (default 200).")
    var maxDepth: Int?

    @Option(name: .customLong("max-elements"), help: "Most values in one plist or profile (default 1,000,000).")
    var maxElements: Int?

    @Option(name: .customLong("max-total-bytes"), help: "Most bytes of entitlements, plists and profiles read in one run (default 1 GiB).")
    var maxTotalBytes: Int?

    @Option(name: .customLong("max-findings"), help: "Most findings reported in one run (default 10,000).")
    var maxFindings: Int?

    @Option(name: .customLong("max-output-bytes"), help: "Largest report in bytes (default 64 MiB).")
    var maxOutputBytes: Int?

    @Option(name: .customLong("jobs"), help: "Threads at most (default: one per core); the report is the same whatever the number.")
    var jobs: Int?

    @Option(name: .customLong("profiles"), help: ArgumentHelp("A folder of provisioning profiles to pair with units (repeatable).", valueName: "dir"))
    var profileFolders: [String] = []

    @Flag(name: .customLong("no-user-profiles"),
          help: "Do not search the standard profile folders under the home folder (~/Library/MobileDevice/Provisioning Profiles, Xcode's UserData one).")
    var noUserProfiles = false

    var values: FactValues {
        var v = FactValues(profile: profile, bundleID: bundleID, teamID: teamID, config: config, lock: lock)
        v.limits = ["max-file-size": maxFileSize, "max-depth": maxDepth, "max-elements": maxElements,
                    "max-total-bytes": maxTotalBytes, "max-findings": maxFindings, "max-output-bytes": maxOutputBytes].compactMapValues { $0 }
        v.profileFolders = profileFolders
        v.userProfiles = !noUserProfiles
        v.jobs = jobs
        return v
    }

    func options(paths: [String], knownRules: @autoclosure () -> Set<String>) throws -> LintOptions {
        try values.options(paths: paths, knownRules: knownRules())
    }
}

/// The facts of a run as plain values (shared by the ArgumentParser path and the fast path).
struct FactValues: Equatable {
    var profile: String?
    var bundleID: String?
    var teamID: String?
    var config: String?
    var lock: String?
    /// `--max-file-size`, `--max-depth`, `--max-elements`, `--max-total-bytes` by name (RunLimits).
    var limits: [String: Int] = [:]
    /// `--profiles DIR`, repeatable.
    var profileFolders: [String] = []
    /// False with `--no-user-profiles`.
    var userProfiles = true
    /// `--jobs N`.
    var jobs: Int?

    /// `knownRules` is evaluated only when a configuration file is read. The configuration:
    /// `--config`, else `nearest` when given, else the nearest `.entitlint.yml` at or above the
    /// current folder.
    func options(paths: [String], nearest: String? = nil, knownRules: @autoclosure () -> Set<String>) throws -> LintOptions {
        var o = LintOptions()
        o.discoverer = XcodeDiscoverer()      // Xcode projects, workspaces, XcodeGen specs
        o.profileFolders = profileFolders
        o.userProfiles = userProfiles
        o.paths = paths.isEmpty ? ["."] : paths
        o.profilePath = profile
        o.bundleID = bundleID
        o.teamID = teamID
        o.lockPath = lock
        if let jobs {
            guard jobs > 0 else { throw CLIError("--jobs must be a positive number of threads") }
            o.jobs = jobs
        }
        o.artifactReader = ArtifactReader()   // .app, .ipa, .xcarchive and Mach-O paths
        if let teamID, !teamID.isTeamIDLike {
            throw CLIError("--team-id \(teamID) is not a Team ID (10 upper-case letters or digits)")
        }
        let configPath = config ?? nearest ?? Configuration.find(from: ".")
        if let configPath {
            if config != nil, Paths.kind(configPath) != .file { throw CLIError("no such configuration file: \(configPath)") }
            do {
                let configuration = try Configuration.load(path: Paths.display(configPath), knownRules: knownRules())
                try configuration.checkPathsInsideProject()
                o.configuration = configuration
                o.settings.externalGroups = configuration.externalGroups
                if let days = configuration.profileExpiringDays { o.settings.expiringWithinDays = days }
            } catch {
                throw CLIError("bad configuration: \(error)")
            }
        }
        // Limits: the flags, else the configuration (lowered to the ceilings), else the defaults.
        let configured = RunLimits.clamped(o.configuration?.limits ?? [:], configPath: o.configuration?.path.map { Paths.display($0) } ?? ".entitlint.yml")
        // A flag given for the same limit decides, and the note would be noise.
        for note in configured.notes where limits[note.name] == nil { Output.error(note.text) }
        let chosen = configured.limits.merging(limits) { _, flag in flag }
        for (name, n) in chosen {
            guard n > 0 else { throw CLIError("--\(name) must be a positive number of \(name == "max-depth" ? "levels" : name == "max-elements" ? "values" : name == "max-findings" ? "findings" : "bytes")") }
            switch name {
            case "max-file-size": o.limits.maxBytes = n
            case "max-depth": o.limits.maxDepth = n
            case "max-elements": o.limits.maxElements = n
            case "max-findings": o.maxFindings = n
            case "max-output-bytes": o.maxOutputBytes = n
            default: o.maxTotalBytes = n
            }
        }
        return o
    }
}

/// An error that ends the run with exit status 2 and a message on standard error: one line per
/// element of `lines`, each escaped (`Output.error`).
struct CLIError: Error, CustomStringConvertible {
    var lines: [String]
    var description: String { lines.joined(separator: "\n") }
    init(_ d: String) { lines = [d] }
    init(lines: [String]) { self.lines = lines }
}

enum Output {
    /// Writes `s` with write(2). Unless `commands` (the `github` format's workflow commands), a
    /// line that would start with `::` has its first colon escaped, so no input can forge a
    /// command (`OutputText.guardCommandLines`). Standard output whose reader went away
    /// (`| head -1`) ends the writing quietly; any other failure to write standard output (a full
    /// disk, an I/O error) is reported on standard error and ends the run with status 2, so a
    /// truncated report is never mistaken for a complete one.
    static func write(_ s: String, fd: Int32 = STDOUT_FILENO, commands: Bool = false) {
        let text = commands ? s : OutputText.guardCommandLines(s)
        writeBytes(Array(text.utf8), fd: fd)
    }

    /// `write`, for bytes that are not text (a plist as it is).
    static func writeBytes(_ bytes: [UInt8], fd: Int32 = STDOUT_FILENO) {
        guard let failure = writeAll(bytes, fd: fd) else { return }
        if fd == STDOUT_FILENO && failure != EPIPE {
            error("cannot write to standard output: \(String(cString: strerror(failure)))")
            exit(2)
        }
    }

    /// Writes all of `bytes` to `fd`; the errno of a failed write, nil when all were written.
    static func writeAll(_ bytes: [UInt8], fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// One message on standard error, `entitlint: ` first; everything in it is escaped
    /// (`OutputText.escape`), so a message is always one line, whatever its values hold.
    static func error(_ s: String) {
        write("entitlint: " + OutputText.escape(s) + "\n", fd: STDERR_FILENO)
    }

    static var colourAllowed: Bool {
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}

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

    func run() throws {
        let plan: ReportPlan
        do { plan = try ReportPlan(format: format, reports: reports) } catch { throw CLIError(error.description) }
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
        let full = Report(findings: result.findings, files: result.files, colour: colour,
                          rules: plan.needsRules ? Report.enabledRules(RuleRegistry.descriptions, settings: selection.overrides(configuration: options.configuration, all: allIDs)) : [],
                          paths: plan.needsCheckedPaths ? Report.checkedPaths(of: result) : [],
                          showSummary: !quiet, sourceRoot: plan.usesRepositoryPaths ? SourceRoot.find() : nil)
        let earlier = result.omittedFindings > 0 ? result.findings.last.map { ($0, result.omittedFindings) } : nil
        let (report, text) = Self.fitting(full, limit: options.maxOutputBytes, earlier: earlier, render: plan.console.render)
        Output.write(text, commands: plan.console is GitHubReporter)
        if plan.uses(GitHubReporter.identifier) { Self.appendStepSummary(report) }
        do {
            try plan.writeFiles(full, fit: { Self.fitting($0, limit: options.maxOutputBytes, earlier: earlier, render: $1).1 }) { text, reporter in
                Output.write(text, commands: reporter is GitHubReporter)
            }
        } catch { throw CLIError(lines: error.messages) }
        if failing { throw ExitCode(1) }
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

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the lock file: each unit's default access group and ordered access-group list.")

    @Argument(help: "Entitlements files and folders (default: the current folder).")
    var paths: [String] = []

    @OptionGroup var facts: FactOptions

    @Option(name: .customLong("drop"), help: ArgumentHelp("Remove this unit's entry from the lock file (repeatable); with no path given, nothing else is locked.", valueName: "name"))
    var drop: [String] = []

    @Flag(name: .customLong("accept"), help: "Record units whose default access group moved since the lock file was written (without it, lock refuses and lists them).")
    var accept = false

    func run() throws {
        var options = try facts.options(paths: paths, knownRules: RuleRegistry.ids)
        options.readLock = false
        if !drop.isEmpty && paths.isEmpty { options.paths = [] }
        let path = facts.lock ?? options.configuration?.lock.map { options.configuration!.resolve($0) } ?? Linter.defaultLockPath(options.configuration)
        // Refused before any work: only a regular file or nothing may be replaced (or a stream).
        let destination: WriteDestination
        do { destination = try FileReader.destination(path) } catch { throw CLIError("cannot write the lock file: \(error)") }
        let linter = Linter(rules: [])
        let result: LintResult
        if options.paths.isEmpty {
            result = LintResult(findings: [], files: 0, units: [], profiles: [])
        } else {
            do { result = try linter.lint(options) } catch { throw CLIError(error.description) }
        }
        let cwd = Paths.currentDirectory()
        let folder = Paths.absolute(Paths.directoryName(path), cwd: cwd)
        var guessed: [String] = []
        var moved: [(name: String, old: String, new: String)] = []
        func merge(into lock: inout LockFile) throws {
            for name in drop {
                guard lock.units.removeValue(forKey: name) != nil else {
                    throw CLIError("the lock file \(OutputText.escape(path)) has no entry \"\(OutputText.escape(name))\"")
                }
            }
            for unit in result.units {
                let entry = LockFile.entry(for: unit, folder: folder, cwd: cwd)
                if entry.defaultAccessGroup.contains("$(") {
                    Output.error("note: \(unit.name): the default group \"\(entry.defaultAccessGroup)\" is symbolic because the team or bundle ID is unknown; pass --team-id and --bundle-id (or set them in .entitlint.yml)")
                } else if entry.prefixWasGuessed {
                    guessed.append(unit.name)
                }
                // A default that moved since the lock was written is a drift: recorded only when
                // asked, so that running `lock` never hides one by accident.
                if let (_, old) = lock.namedEntry(for: unit),
                   let comparison = DefaultGroupComparison(entry: old, unit: unit, list: unit.accessGroups), comparison.cause != nil {
                    moved.append((unit.name, comparison.oldDefault, comparison.newDefault))
                    if !accept { continue }
                }
                lock.units[unit.name] = entry
            }
        }
        var refused: Bool { !moved.isEmpty && !accept }
        // Messages go to standard error when the lock itself goes to standard output.
        let messages = destination == .standardOutput ? STDERR_FILENO : STDOUT_FILENO
        if case .file = destination {
            // Read, merge and write under a lock on the folder: concurrent runs take turns, and
            // each keeps the entries the others wrote.
            do {
                try FileReader.withFolderLock(for: path) {
                    var lock = LockFile()
                    if Paths.kind(path) == .file {
                        do { lock = try LockFile.load(path: path) } catch { throw CLIError("\(error)") }
                    }
                    try merge(into: &lock)
                    if refused { return }
                    do { try FileReader.write(lock.encoded(), to: destination) } catch {
                        throw CLIError("cannot write the lock file: \(error)")
                    }
                }
            } catch let error as CLIError { throw error } catch { throw CLIError("cannot write the lock file: \(error)") }
        } else {
            var lock = LockFile()
            try merge(into: &lock)
            if destination == .standardOutput && !refused { Output.writeBytes(lock.encoded()) }
        }
        if refused {
            var text = "the default access group moved for \(moved.count) unit\(moved.count == 1 ? "" : "s"), so items saved there without a group would be stranded:\n"
            for m in moved { text += "  \(OutputText.escape(m.name)): \"\(OutputText.escape(m.old))\" -> \"\(OutputText.escape(m.new))\"\n" }
            text += "nothing was written: `entitlint lint` says how to fix it; `entitlint lock --accept` records the new defaults\n"
            Output.write(text, fd: STDERR_FILENO)
            throw ExitCode(1)
        }
        if !guessed.isEmpty {
            let names = guessed.count <= 3 ? guessed.joined(separator: ", ") : "\(guessed.count) units"
            Output.error("note: \(names): no profile gives the App ID prefix, so the Team ID is taken for it; the lock records it as a guess, and a real prefix found later (a profile) is not a drift")
        }
        let parseErrors = result.findings.filter { $0.rule == "parse-error" }
        Output.write(TextReporter().render(Report(findings: parseErrors, files: result.files)).split(separator: "\n").dropLast().map { $0 + "\n" }.joined(), fd: messages)
        for m in moved {
            Output.write("moved: \(OutputText.escape(m.name)): \"\(OutputText.escape(m.old))\" -> \"\(OutputText.escape(m.new))\" (accepted)\n", fd: messages)
        }
        Output.write("wrote \(OutputText.escape(path)): \(result.units.count) unit\(result.units.count == 1 ? "" : "s") locked\(drop.isEmpty ? "" : ", \(drop.count) dropped")\n", fd: messages)
        if !parseErrors.isEmpty { throw ExitCode(1) }
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rules.")

    func run() throws {
        let ds = RuleRegistry.descriptions
        let width = ds.map(\.id.count).max() ?? 0
        for d in ds {
            let pad = String(repeating: " ", count: width - d.id.count)
            let sev = d.severity.rawValue + String(repeating: " ", count: 8 - d.severity.rawValue.count)
            Output.write("\(d.id)\(pad)  \(sev)  \(d.summary)\n")
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one rule's documentation, with its examples.")

    @Argument(help: "A rule id, as listed by `entitlint rules`.")
    var id: String

    func run() throws {
        guard let rule = RuleRegistry.rule(id: id) else {
            throw CLIError("unknown rule '\(id)'\(Suggestion.hint(for: id, in: RuleRegistry.ids)) (see `entitlint rules`)")
        }
        Output.write(RuleDocs.markdown(for: rule).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"))
    }
}

struct GenerateDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-docs", abstract: "Write Rules/<id>.md for every rule.", shouldDisplay: false)

    @Argument(help: "Output folder.")
    var directory: String = "Rules"

    func run() throws {
        for rule in RuleRegistry.all {
            let id = type(of: rule).description.id
            do { try FileReader.writeAtomically(Array(RuleDocs.markdown(for: rule).utf8), to: "\(directory)/\(id).md") } catch {
                throw CLIError("\(error)")
            }
        }
        Output.write("wrote \(RuleRegistry.all.count) pages to \(OutputText.escape(directory))/\n")
    }
}

@inline(__always)
func systemWrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buf, count)
}
