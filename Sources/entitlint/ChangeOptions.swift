import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lint` options that choose the files from git and compare with a baseline or a revision.
struct ChangeOptions: ParsableArguments {
    @Option(help: "Hide the findings recorded in this baseline file; report only new ones (default: the config's `baseline`).")
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: ArgumentHelp(
        "Record today's findings in this baseline file (sorted JSON, no line numbers) and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "Lint the staged (index) version of the staged files (entitlements, profiles, project files, sources), read through git, and the project rules over the app family of each changed target.")
    var staged = false

    @Option(name: .customLong("changed-since"), help: ArgumentHelp(
        "Lint only the files (entitlements, profiles, project files, sources) changed since this git revision, and the project rules over the app family of each changed target.", valueName: "rev"))
    var changedSince: String?

    @Option(help: ArgumentHelp(
        "Report default-group-drift against every unit as it was at this git revision, instead of the lock file.", valueName: "rev"))
    var against: String?

    @Option(name: .customLong("config-from"), help: ArgumentHelp(
        "Read .entitlint.yml files, the baseline and the lock file as they are at this git revision (a pull request's base branch), not from the working tree.", valueName: "rev"))
    var configFrom: String?

    var values: ChangeRequest {
        ChangeRequest(baseline: baseline, writeBaseline: writeBaseline, staged: staged, changedSince: changedSince, against: against,
                      configFrom: configFrom)
    }
}
