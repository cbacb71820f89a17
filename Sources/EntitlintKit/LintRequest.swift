public import EntitlintCore

/// Everything one `lint` run is asked for, as plain values: what the command line, the fast path,
/// the build plugin and the tests build, and all `LintRun.run` needs. Nothing here has been
/// checked yet: `LintRun` validates it (a bad value is a `UsageError`).
public struct LintRequest: Sendable, Equatable {
    /// Files and folders to lint; none means the current folder.
    public var paths: [String]
    public var facts: FactRequest
    public var changes: ChangeRequest
    /// Set when the run lints standard input, under this name (the paths are then ignored).
    public var standardInputName: String?
    /// `--select` (nil: not given) and `--ignore`, each value comma-separated as given.
    public var select: [String]?
    public var ignore: [String]
    /// `--fail-on`; else `strict` means warnings fail; else the configuration's `fail-on`; else errors.
    public var failOn: Severity?
    public var strict: Bool
    /// `--allow-empty`: a run over paths that hold nothing to lint ends with status 0 instead of
    /// a usage error (a CI step pointed at the wrong folder must not pass silently).
    public var allowEmpty: Bool
    /// Files read from memory instead of the disk (absolute path -> bytes), over whatever else the
    /// run reads: the fix engine's edited files, linted again before anything is written.
    public var overlay: [String: [UInt8]] = [:]

    public init(paths: [String] = [], facts: FactRequest = FactRequest(), changes: ChangeRequest = ChangeRequest(),
                standardInputName: String? = nil, select: [String]? = nil, ignore: [String] = [],
                failOn: Severity? = nil, strict: Bool = false, allowEmpty: Bool = false) {
        self.paths = paths
        self.facts = facts
        self.changes = changes
        self.standardInputName = standardInputName
        self.select = select
        self.ignore = ignore
        self.failOn = failOn
        self.strict = strict
        self.allowEmpty = allowEmpty
    }

    /// The lowest severity that fails the run, given the configuration that applies.
    public func failingLevel(_ config: Configuration?) -> Severity { failOn ?? (strict ? .warning : config?.failOn ?? .error) }
}

/// The facts and limits of a run as given (flags), before the configuration is read.
public struct FactRequest: Sendable, Equatable {
    public var profile: String?
    public var bundleID: String?
    public var teamID: String?
    /// `--config`: the configuration file, instead of the nearest `.entitlint.yml`.
    public var config: String?
    public var lock: String?
    /// `--max-file-size`, `--max-depth`, ... by name (`RunLimits.names`).
    public var limits: [String: Int] = [:]
    /// `--profiles DIR`, repeatable.
    public var profileFolders: [String] = []
    /// False with `--no-user-profiles`.
    public var userProfiles = true
    /// `--jobs N`.
    public var jobs: Int?
    /// False to lint the paths as loose files, without reading the projects around them: for a
    /// caller that already knows the unit's facts better than the projects here can tell.
    public var readsProjects = true

    public init(profile: String? = nil, bundleID: String? = nil, teamID: String? = nil, config: String? = nil, lock: String? = nil) {
        self.profile = profile
        self.bundleID = bundleID
        self.teamID = teamID
        self.config = config
        self.lock = lock
    }
}

/// The baseline and git choices of a run, as given.
public struct ChangeRequest: Sendable, Equatable {
    public var baseline: String?
    public var writeBaseline: String?
    public var staged = false
    public var changedSince: String?
    public var against: String?
    /// `--config-from REV`: the configuration files, the baseline and the lock file read as the
    /// revision has them (`TrustedFiles`), for runs on changes nobody trusted yet (pull requests).
    public var configFrom: String?

    public init(baseline: String? = nil, writeBaseline: String? = nil, staged: Bool = false, changedSince: String? = nil, against: String? = nil,
                configFrom: String? = nil) {
        self.baseline = baseline
        self.writeBaseline = writeBaseline
        self.staged = staged
        self.changedSince = changedSince
        self.against = against
        self.configFrom = configFrom
    }
}
