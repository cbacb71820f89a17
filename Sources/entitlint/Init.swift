import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented starter .entitlint.yml for the entitlements files and profiles found in a folder.",
        discussion: """
        Each entitlements file becomes an app; a bundle ID or Team ID is written only where a literal \
        application-identifier or team-identifier in the file states it, everything else is a commented-out \
        line to fill in. An existing .entitlint.yml is never replaced.
        """)

    @Argument(help: "The project folder (default: the current folder).")
    var directory: String = "."

    func run() throws {
        guard Paths.kind(directory) == .directory else { throw CLIError("no such folder: \(directory)") }
        let target = directory == "." ? ".entitlint.yml" : (directory.hasSuffix("/") ? directory : directory + "/") + ".entitlint.yml"
        guard Paths.kind(target) == .missing else {
            throw CLIError("\(target) already exists: not replacing it (edit it, or remove it to start afresh)")
        }
        let found = StarterConfiguration.scan(directory)
        let text = StarterConfiguration.text(entitlements: found.entitlements, profiles: found.profiles,
                                             rules: RuleRegistry.descriptions.map { ($0.id, $0.severity) })
        do { try FileReader.writeNew(Array(text.utf8), to: target) } catch {
            throw CLIError("cannot write \(target): \(error)")
        }
        let apps = found.entitlements.count, profiles = found.profiles.count
        Output.write("wrote \(OutputText.escape(target)): \(apps) app\(apps == 1 ? "" : "s"), \(profiles) profile\(profiles == 1 ? "" : "s"); review it, then run `entitlint lint`\n")
    }
}
