public import EntitlintCore
import PropertyList
import Provisioning

/// The entry point for one file read from standard input (or given as bytes): formed as a file
/// on disk would be, with the run's facts, profiles and lock, then `run`.
extension Linter {
    /// What findings call standard input when no `--stdin-filename` names it.
    public static let standardInputName = "<stdin>"

    /// Lints one file read from standard input (`entitlint lint -`, editors, `git show REV:path |`),
    /// reported under `name`. `name` stands for the file's path: its extension says whether it is a
    /// profile, and a config app whose `entitlements` is `name` gives the unit its facts and profile.
    /// Input larger than `options.limits.maxBytes` is a `parse-error`, as for files.
    public func lintStandardInput(_ options: LintOptions, name: String) throws(UsageError) -> LintResult {
        let input: ParsedInput
        do {
            let bytes = try FileReader.readStandardInput(limit: options.limits.maxBytes)
            input = DocumentReader.parse(bytes: bytes, path: name, limits: options.limits)
        } catch {
            let rule = if case .tooLarge = error { ToolFindings.readLimit } else { ToolFindings.unreadablePath }
            input = .unread(reason: "cannot read standard input: \(error)", rule: rule)
        }
        return try lint(options, input: input, name: name)
    }

    /// Lints bytes as the file `name` with the run's facts, profiles and lock: the pipeline of
    /// `lint(_:)` for one input that is not on disk.
    public func lint(_ options: LintOptions, bytes: [UInt8], name: String) throws(UsageError) -> LintResult {
        try lint(options, input: DocumentReader.parse(bytes: bytes, path: name, limits: options.limits), name: name)
    }

    func lint(_ options: LintOptions, input: ParsedInput, name: String) throws(UsageError) -> LintResult {
        let cwd = Paths.currentDirectory()
        var options = options
        options.settings.workingDirectory = cwd
        let abs = Paths.absolute(name, cwd: cwd)

        // Profiles the run names: --profile, and the profile of the config app that `name` is.
        var extraProfiles: [String] = []
        if let p = options.profilePath { extraProfiles.append(p) }
        if let config = options.configuration {
            for app in config.apps where Paths.absolute(config.resolve(app.entitlements), cwd: cwd) == abs {
                if let p = app.profile { extraProfiles.append(config.resolve(p)) }
            }
        }
        for p in extraProfiles where Paths.kind(p) == .missing {
            throw UsageError("no such profile: \(p)")
        }
        // The profiles kept for pairing, as for files on disk: config `profiles:` and `--profiles`.
        extraProfiles += try options.configuredProfiles()
        extraProfiles += try options.profileFolderPaths()
        var seen = Set<String>()
        extraProfiles = extraProfiles.filter { seen.insert(Paths.absolute($0, cwd: cwd)).inserted }

        var findings: [Finding] = []
        var profiles: [ProfileFile] = []
        var byAbs: [String: ParsedInput] = [:]
        func parseError(_ reason: String, _ location: SourceLocation, path: String, profile: Bool, rule: String = ToolFindings.parseError) {
            findings.append(Finding(rule: rule, severity: .error,
                                    message: "cannot parse \(profile ? "profile" : "property list"): \(reason)",
                                    path: path, line: location.line, column: location.column))
        }
        for p in extraProfiles {
            let shown = Paths.display(p, cwd: cwd)
            let parsed = DocumentReader.parse(path: p, limits: options.limits)
            switch parsed {
            case .profile(let profile):
                byAbs[Paths.absolute(p, cwd: cwd)] = parsed
                profiles.append(ProfileFile(path: shown, profile: profile))
            case .failed(let reason, let location):
                parseError(reason, location, path: shown,
                           profile: InputFiles.isProfilePath(p))
            case .unread(let reason, let rule):
                parseError(reason, .unknown, path: shown, profile: InputFiles.isProfilePath(p), rule: rule)
            case .entitlements:
                break
            }
        }

        let lock: LockFile?
        do { lock = try options.loadLock() } catch { throw UsageError("\(error)") }
        var units: [PlannedUnit] = []
        switch input {
        case .failed(let reason, let location):
            parseError(reason, location, path: name, profile: InputFiles.isProfilePath(name))
        case .unread(let reason, let rule):
            parseError(reason, .unknown, path: name, profile: InputFiles.isProfilePath(name), rule: rule)
        case .profile(let profile):
            profiles.append(ProfileFile(path: name, profile: profile))
        case .entitlements(let document):
            units.append(PlannedUnit(UnitFormer.makeUnit(path: name, shown: name, document: document, facts: options.statedFacts,
                                                         profiles: ProfileIndex(profiles), byAbs: byAbs, cwd: cwd)))
        }
        var plan = UnitPlan(units: units, lock: lock, settings: options.settings, configuration: options.configuration)
        plan.namedProfiles = profiles.filter { $0.path == name || options.profilePath.map { Paths.display($0, cwd: cwd) } == $0.path }
        plan.earlierFindings = findings
        plan.maxFindings = options.maxFindings
        let (found, omitted, _) = run(plan)
        return LintResult(findings: found, files: 1 + extraProfiles.count, units: units.map(\.unit), profiles: profiles,
                          paths: [name] + extraProfiles.map { Paths.display($0, cwd: cwd) }, omittedFindings: omitted)
    }
}
