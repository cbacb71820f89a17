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


struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the lock file: each unit's default access group and ordered access-group list.")

    @Argument(help: "Entitlements files and folders (default: the current folder).")
    var paths: [String] = []

    @OptionGroup var facts: FactOptions

    @Option(name: .customLong("drop"), help: ArgumentHelp("Remove this unit's entry from the lock file (repeatable); with no path given, nothing else is locked.", valueName: "name"))
    var drop: [String] = []

    @Flag(name: .customLong("accept"), help: "Record units whose default access group moved since the lock file was written (without it, lock refuses and lists them).")
    var accept = false

    func run() throws {
        var options = try facts.options(paths: paths, knownRules: RuleRegistry.ids)
        options.readLock = false
        if !drop.isEmpty && paths.isEmpty { options.paths = [] }
        let path = facts.lock ?? options.configuration?.lock.map { options.configuration!.resolve($0) } ?? LockFile.defaultPath(options.configuration)
        // Refused before any work: only a regular file or nothing may be replaced (or a stream).
        let destination: WriteDestination
        do { destination = try FileReader.destination(path) } catch { throw CLIError("cannot write the lock file: \(error)") }
        let linter = Linter(rules: [])
        let result: LintResult
        if options.paths.isEmpty {
            result = LintResult(findings: [], files: 0, units: [], profiles: [])
        } else {
            do { result = try linter.lint(options) } catch { throw CLIError(error.description) }
        }
        let cwd = Paths.currentDirectory()
        let folder = Paths.absolute(Paths.directoryName(path), cwd: cwd)
        var guessed: [String] = []
        var symbolic: [String] = []
        var moved: [(name: String, old: String, new: String)] = []
        func merge(into lock: inout LockFile) throws {
            for name in drop {
                guard lock.units.removeValue(forKey: name) != nil else {
                    throw CLIError("the lock file \(OutputText.escape(path)) has no entry \"\(OutputText.escape(name))\"")
                }
            }
            for unit in result.units {
                let entry = LockFile.entry(for: unit, folder: folder, cwd: cwd)
                if entry.defaultAccessGroup.contains("$(") {
                    symbolic.append(unit.name)
                } else if entry.prefixWasGuessed {
                    guessed.append(unit.name)
                }
                // A default that moved since the lock was written is a drift: recorded only when
                // asked, so that running `lock` never hides one by accident.
                if let (_, old) = lock.namedEntry(for: unit),
                   let comparison = DefaultGroupComparison(entry: old, unit: unit, list: unit.accessGroups), comparison.cause != nil {
                    moved.append((unit.name, comparison.oldDefault, comparison.newDefault))
                    if !accept { continue }
                }
                lock.units[unit.name] = entry
            }
        }
        var refused: Bool { !moved.isEmpty && !accept }
        // Messages go to standard error when the lock itself goes to standard output.
        let messages = destination == .standardOutput ? STDERR_FILENO : STDOUT_FILENO
        if case .file = destination {
            // Read, merge and write under a lock on the folder: concurrent runs take turns, and
            // each keeps the entries the others wrote.
            do {
                try FileReader.withFolderLock(for: path) {
                    var lock = LockFile()
                    if Paths.kind(path) == .file {
                        do { lock = try LockFile.load(path: path) } catch { throw CLIError("\(error)") }
                    }
                    try merge(into: &lock)
                    if refused { return }
                    do { try FileReader.write(lock.encoded(), to: destination) } catch {
                        throw CLIError("cannot write the lock file: \(error)")
                    }
                }
            } catch let error as CLIError { throw error } catch { throw CLIError("cannot write the lock file: \(error)") }
        } else {
            var lock = LockFile()
            try merge(into: &lock)
            if destination == .standardOutput && !refused { Output.writeBytes(lock.encoded()) }
        }
        if refused {
            var text = "the default access group moved for \(moved.count) unit\(moved.count == 1 ? "" : "s"), so items saved there without a group would be stranded:\n"
            for m in moved { text += "  \(OutputText.escape(m.name)): \"\(OutputText.escape(m.old))\" -> \"\(OutputText.escape(m.new))\"\n" }
            text += "nothing was written: `entitlint lint` says how to fix it; `entitlint lock --accept` records the new defaults\n"
            Output.write(text, fd: STDERR_FILENO)
            throw ExitCode(1)
        }
        // What the user may act on, once per run rather than once per unit: the lock of a project
        // with many targets would otherwise repeat the same sentence on every run.
        if !symbolic.isEmpty {
            Output.error("note: \(Self.names(symbolic)): the default group is recorded symbolically (\"$(AppIdentifierPrefix)...\") because the team or bundle ID is unknown; pass --team-id and --bundle-id (or set them in .entitlint.yml) to record it as a value")
        }
        if !guessed.isEmpty {
            Output.error("note: \(Self.names(guessed)): no profile gives the App ID prefix, so the Team ID is taken for it; the lock records it as a guess, and a real prefix found later (a profile) is not a drift")
        }
        // The files that could not be read and kept units out of the lock; notes (a file a fresh
        // clone lacks) are lint's to show, not the lock's.
        let parseErrors = result.findings.filter { ToolFindings.contains($0.rule) && $0.severity >= .warning }
        Output.write(TextReporter().render(Report(findings: parseErrors, files: result.files)).split(separator: "\n").dropLast().map { $0 + "\n" }.joined(), fd: messages)
        for m in moved {
            Output.write("moved: \(OutputText.escape(m.name)): \"\(OutputText.escape(m.old))\" -> \"\(OutputText.escape(m.new))\" (accepted)\n", fd: messages)
        }
        Output.write("wrote \(OutputText.escape(path)): \(result.units.count) unit\(result.units.count == 1 ? "" : "s") locked\(drop.isEmpty ? "" : ", \(drop.count) dropped")\n", fd: messages)
        if parseErrors.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }

    /// Up to three unit names, else how many.
    static func names(_ units: [String]) -> String {
        units.count <= 3 ? units.joined(separator: ", ") : "\(units.count) units (\(units.prefix(2).joined(separator: ", ")), ...)"
    }
}
