public import EntitlintCore
public import EntitlintWorkspace

extension FactRequest {
    /// The options of a run over `paths` (none: the current folder): the flags checked, the
    /// configuration read and mapped to settings, the limits chosen. The configuration:
    /// `--config`, else `nearest` when given, else the nearest `.entitlint.yml` at or above the
    /// current folder. `knownRules` is evaluated only when a configuration file is read. What the
    /// user should know but that does not stop the run (a configured limit lowered to its
    /// ceiling) is appended to `diagnostics`, one line each, for standard error. `trusted`: the
    /// revision the configuration is read from (`--config-from`), nil for the disk.
    public func options(paths: [String], nearest: String? = nil, knownRules: @autoclosure () -> Set<String>,
                        trusted: TrustedFiles? = nil, diagnostics: inout [String]) throws(UsageError) -> LintOptions {
        var o = LintOptions()
        o.trustedFiles = trusted
        o.discoverySources = readsProjects ? DiscoverySources.registered : DiscoverySources.withoutProjects
        o.profileFolders = profileFolders
        o.userProfiles = userProfiles
        o.paths = paths.isEmpty ? ["."] : paths
        o.profilePath = profile
        o.bundleID = bundleID
        o.teamID = teamID
        o.lockPath = lock
        if let jobs {
            guard jobs > 0 else { throw UsageError("--jobs must be a positive number of threads") }
            o.jobs = jobs
        }
        if let teamID, !teamID.isTeamIDLike {
            throw UsageError("--team-id \(teamID) is not a Team ID (10 upper-case letters or digits)")
        }
        let configPath = config ?? nearest ?? Configuration.find(from: ".", in: trusted)
        if let configPath {
            if config != nil, !TrustedFiles.isFile(configPath, in: trusted) {
                throw UsageError("no such configuration file: \(configPath)\(trusted.map { " at revision \(OutputText.escape($0.revision))" } ?? "")")
            }
            do {
                let configuration = try Configuration.load(path: Paths.display(configPath), knownRules: knownRules(), from: trusted)
                try configuration.checkPathsInsideProject()
                o.configuration = configuration
                o.settings.externalGroups = configuration.externalGroups
                if let days = configuration.profileExpiringDays { o.settings.expiringWithinDays = days }
            } catch {
                throw UsageError(lines: error.all.map { "bad configuration: \($0.located)" })
            }
        }
        // Limits: the flags, else the configuration (lowered to the ceilings), else the defaults.
        let configured = RunLimits.clamped(o.configuration?.limits ?? [:], configPath: o.configuration?.path.map { Paths.display($0) } ?? ".entitlint.yml")
        // A flag given for the same limit decides, and the note would be noise.
        for note in configured.notes where limits[note.name] == nil { diagnostics.append(note.text) }
        let chosen = configured.limits.merging(limits) { _, flag in flag }
        for (name, n) in chosen {
            guard n > 0 else { throw UsageError("--\(name) must be a positive number of \(Self.unit(ofLimit: name))") }
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

    /// What a limit counts, for its error message.
    static func unit(ofLimit name: String) -> String {
        switch name {
        case "max-depth": return "levels"
        case "max-elements": return "values"
        case "max-findings": return "findings"
        default: return "bytes"
        }
    }
}
