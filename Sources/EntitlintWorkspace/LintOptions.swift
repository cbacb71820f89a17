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

extension LintOptions {
    /// What is at `path` for this run: the virtual files first, else the disk.
    public func kind(_ path: String) -> Paths.Kind {
        virtualFiles?.kind(path) ?? Paths.kind(path)
    }

    /// `Paths.walk`, through the virtual files when there are some.
    public func walk(_ root: String, followsLink: (String) -> Bool = { _ in true }, unreadable: ((String, String) -> Void)? = nil,
                     accept: (String) -> Bool) -> [String] {
        guard let virtualFiles else { return Paths.walk(root, followsLink: followsLink, unreadable: unreadable, accept: accept) }
        return virtualFiles.walk(root, followsLink: followsLink, unreadable: unreadable, accept: accept)
    }

    /// The run's `ProjectRoot`: the roots of its paths and of its configuration's folder.
    public func projectRoot(cwd: String = Paths.currentDirectory()) -> ProjectRoot {
        ProjectRoot(inputs: paths, configurationFolder: configuration?.path.map(Paths.directoryName), cwd: cwd)
    }

    /// The profiles named by the configuration's `profiles:` (folders are searched for
    /// `*.mobileprovision` and `*.provisionprofile`), as paths usable from the current folder.
    public func configuredProfiles() throws(UsageError) -> [String] {
        guard let config = configuration else { return [] }
        var out: [String] = []
        for entry in config.profiles {
            let p = config.resolve(entry)
            switch kind(p) {
            case .directory:
                // Bounded as any walk is; `checkPathsInsideProject` has put the folder inside the
                // project, and a symlinked profile in it that leads outside is not followed.
                let root = ProjectRoot(folders: [config.projectRoot])
                out += walk(p, followsLink: { root.contains($0) }) { InputFiles.isProfilePath($0) }
            case .file, .other:
                out.append(p)
            case .missing:
                throw UsageError("\(config.path ?? ".entitlint.yml"): profiles: no such folder or file: \(entry)")
            }
        }
        return out
    }

    /// The facts the flags and the configuration state about the units.
    public var statedFacts: StatedFacts {
        StatedFacts(configuration: configuration, teamID: teamID, bundleID: bundleID, profilePath: profilePath)
    }

    /// The same options without `paths` among the inputs (built products read separately).
    func without(paths removed: [String]) -> LintOptions {
        var o = self
        o.paths.removeAll { removed.contains($0) }
        return o
    }
}
