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


/// The facts about the units of one run.
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
          help: "Do not search the standard profile folders under the home folder (~/Library/MobileDevice/Provisioning Profiles, Xcode's UserData one); never searched when CI or GITHUB_ACTIONS is set.")
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
        o.discoverySources = DiscoverySources.registered   // projects and built products
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
