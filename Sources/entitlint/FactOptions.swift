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

    var values: FactRequest {
        var v = FactRequest(profile: profile, bundleID: bundleID, teamID: teamID, config: config, lock: lock)
        v.limits = ["max-file-size": maxFileSize, "max-depth": maxDepth, "max-elements": maxElements,
                    "max-total-bytes": maxTotalBytes, "max-findings": maxFindings, "max-output-bytes": maxOutputBytes].compactMapValues { $0 }
        v.profileFolders = profileFolders
        v.userProfiles = !noUserProfiles
        v.jobs = jobs
        return v
    }

    /// The options of a run over `paths`, for the commands that lint without `LintRun` (`report`,
    /// `lock`); its notes are printed on standard error.
    func options(paths: [String], knownRules: @autoclosure () -> Set<String>) throws -> LintOptions {
        var notes: [String] = []
        defer { notes.forEach { Output.error($0) } }
        return try values.options(paths: paths, knownRules: knownRules(), diagnostics: &notes)
    }
}
