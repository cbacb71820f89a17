import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented starter .entitlint.yml for the entitlements files and profiles found in a folder.",
        discussion: """
        The folder's Xcode projects and XcodeGen specs are read first: their targets' entitlements files, \
        bundle IDs and teams are listed in a comment and need no entry. Each other entitlements file becomes \
        an app; a bundle ID or Team ID is written only where a literal application-identifier or \
        team-identifier in the file states it, everything else is a commented-out line to fill in. An \
        existing .entitlint.yml is never replaced.
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
        let units = try projectUnits()
        // The opt-in rules are left out of the list of severities: uncommenting the list would turn them on.
        let text = StarterConfiguration.text(entitlements: found.entitlements, profiles: found.profiles,
                                             rules: RuleRegistry.descriptions.filter { !$0.optIn }.map { ($0.id, $0.severity) }, projectUnits: units)
        do { try FileReader.writeNew(Array(text.utf8), to: target) } catch {
            throw CLIError("cannot write \(target): \(error)")
        }
        let apps = StarterConfiguration.listedFiles(found.entitlements, projectUnits: units).count, profiles = found.profiles.count
        Output.write("wrote \(OutputText.escape(target)): \(apps) app\(apps == 1 ? "" : "s"), \(profiles) profile\(profiles == 1 ? "" : "s"); review it, then run `entitlint lint`\n")
    }

    /// The units the folder's projects define, as a lint of the folder discovers them (with the
    /// configuration of a folder above, if any: the one `lint` would use), paths relative to the folder.
    func projectUnits() throws -> [StarterConfiguration.ProjectUnit] {
        let units = try LintRun.run(LintRequest(paths: [directory], allowEmpty: true)).result.units
        let base = Paths.absolute(directory)
        return units.compactMap { unit in
            guard unit.origin != nil, !unit.isUnused else { return nil }
            let abs = Paths.absolute(unit.entitlementsPath)
            let rel = abs.hasPrefix(base + "/") ? String(abs.dropFirst(base.count + 1)) : unit.entitlementsPath
            return StarterConfiguration.ProjectUnit(name: unit.name, entitlementsPath: rel, bundleID: unit.bundleID?.value, teamID: unit.teamID?.value)
        }
    }
}
