public import EntitlintCore
import Dispatch
public import PropertyList
import Provisioning

/// The options of one run: inputs, the facts given on the command line, reference points.
public struct LintOptions: Sendable {
    public var paths: [String] = ["."]
    public var profilePath: String?
    public var bundleID: String?
    public var teamID: String?
    public var configuration: Configuration?
    public var lockPath: String?
    public var limits = PlistLimits.default
    /// Bytes read from entitlements files, plists and profiles in one run (`--max-total-bytes`).
    public var maxTotalBytes = RunLimits.defaultMaxTotalBytes
    /// Findings one run reports (`--max-findings`): `FindingStage.capped`.
    public var maxFindings = RunLimits.defaultMaxFindings
    /// Bytes of one rendered report (`--max-output-bytes`), for the CLI's reporters.
    public var maxOutputBytes = RunLimits.defaultMaxOutputBytes
    /// Use both cores for parsing (off for deterministic single-thread checks; output is sorted either way).
    public var parallel = true
    /// Threads at most when `parallel` (`--jobs N`); 0: one per core.
    public var jobs = 0
    /// The worker count `Parallel.forEach` gets: 1 when not parallel.
    var workers: Int { parallel ? jobs : 1 }
    /// Read the lock file for `default-group-drift` (off for `entitlint lock`, which writes it).
    public var readLock = true
    /// Files read from git instead of the disk (`--staged`, `--against`); see `VirtualFiles`.
    public var virtualFiles: VirtualFiles?
    /// The reference point for `default-group-drift` when not read from a lock file (`--against`).
    public var lock: LockFile?
    /// Findings the run's preparation made (a file at the `--against` revision git could not give),
    /// reported with the run's own.
    public var setupFindings: [Finding] = []
    /// "Now" and thresholds for time-dependent rules (`profile-expired`, `profile-expiring`, ...).
    public var settings = CheckSettings()
    /// What finds the units that projects and built products define, in precedence order
    /// (`Discovery.merge`): the command line registers them; none lints only loose files.
    public var discoverySources: [any DiscoverySource] = []
    /// `--profiles DIR`: folders (or files) of profiles to pair with units, repeatable.
    public var profileFolders: [String] = []
    /// Whether runs with project units also search the standard profile folders under the home
    /// folder (`--no-user-profiles` turns it off).
    public var userProfiles = true
    /// Whether a walked folder holding its own `.entitlint.yml` is left out of this run, to be
    /// linted with that configuration (`LintResult.nestedConfigurationFolders`), as each file
    /// takes the configuration nearest to it. Off when `--config` names one for everything.
    public var nestedConfigurations = false
    /// A run over changed files (`--staged`, `--changed-since`): the project-rule findings about
    /// every unit of an app family that a changed unit belongs to are reported, not only those
    /// about the changed units (a reordered host moves what its unchanged extensions share).
    public var reportsChangedFamilies = false
    /// The changed files as they were before the change (`HEAD` for `--staged`, the revision for
    /// `--changed-since`), over the disk like `virtualFiles`: what tells a finding the change
    /// caused on an unchanged file from one that was there already.
    public var priorFiles: VirtualFiles?
    /// `--config-from REV`: the configuration files, the baseline and the lock file as the revision
    /// has them (`TrustedFiles`); nil: as the disk has them.
    public var trustedFiles: TrustedFiles?

    public init() {}
}

public struct LintResult: Sendable {
    public var findings: [Finding]
    /// What the run could not see (files a fresh clone lacks), said once each; not findings, and
    /// never part of the exit status.
    public var notices: [Notice] = []
    public var files: Int
    public var units: [SigningUnit]
    public var profiles: [ProfileFile]
    /// Every file checked, as shown in findings.
    public var paths: [String] = []
    /// Findings left out past `LintOptions.maxFindings`; the last finding then says so.
    public var omittedFindings = 0
    /// Folders below a walked folder that hold their own `.entitlint.yml` (absolute, none inside
    /// another): their files were left out of this run (`LintOptions.nestedConfigurations`).
    public var nestedConfigurationFolders: [String] = []
    /// The sources of the run's project units, each file scanned at most once: what the code
    /// rules read, for a caller that shows the code side (`report`) without scanning again.
    public var codeIndex: CodeIndex?

    public init(findings: [Finding], files: Int, units: [SigningUnit], profiles: [ProfileFile], paths: [String] = [],
                omittedFindings: Int = 0) {
        self.findings = findings
        self.files = files
        self.units = units
        self.profiles = profiles
        self.paths = paths
        self.omittedFindings = omittedFindings
    }
}

extension LintResult {
    /// Adds the result of another part of the run (paths linted with another configuration).
    public mutating func merge(_ other: LintResult) {
        findings = (findings + other.findings).sorted()
        notices = (notices + other.notices).sorted()
        files += other.files
        units += other.units
        profiles += other.profiles
        paths += other.paths
        omittedFindings += other.omittedFindings
    }
}

