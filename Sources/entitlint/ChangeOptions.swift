import ArgumentParser
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

    @Flag(help: "Lint the staged (index) version of the staged entitlements files and profiles, read through git.")
    var staged = false

    @Option(name: .customLong("changed-since"), help: ArgumentHelp(
        "Lint only the entitlements files and profiles changed since this git revision.", valueName: "rev"))
    var changedSince: String?

    @Option(help: ArgumentHelp(
        "Report default-group-drift against every unit as it was at this git revision, instead of the lock file.", valueName: "rev"))
    var against: String?

    var values: ChangeValues {
        ChangeValues(baseline: baseline, writeBaseline: writeBaseline, staged: staged, changedSince: changedSince, against: against)
    }
}

/// The baseline and git choices of a run, as plain values.
struct ChangeValues: Equatable {
    var baseline: String?
    var writeBaseline: String?
    var staged = false
    var changedSince: String?
    var against: String?

    /// Baselines read before linting: a bad one stops the run before any work or any write.
    struct Baselines {
        /// The baseline whose findings are hidden, and its path.
        var apply: (path: String, baseline: Baseline)?
        /// What `--write-baseline FILE` holds now (its entries for files not checked are kept).
        var previous: Baseline?
        /// Where `--write-baseline` writes (checked before linting).
        var destination: WriteDestination?
    }

    /// Points the run at git: the staged or changed files (read from the index for `--staged`),
    /// and the units at a revision as the reference of `default-group-drift` (`--against`).
    func prepare(_ options: inout LintOptions, explicitPaths: [String], knownRules: @autoclosure () -> Set<String>) throws {
        guard staged || changedSince != nil || against != nil else { return }
        if staged, changedSince != nil { throw CLIError("--staged and --changed-since cannot be used together") }
        let repository: GitRepository
        do { repository = try GitRepository.open() } catch { throw CLIError(error.description) }

        if staged || changedSince != nil {
            let cwd = Paths.currentDirectory()
            let roots = explicitPaths.map { Paths.absolute($0, cwd: cwd) }
            let sources = options.discoverySources
            let isLintable = { (path: String) -> Bool in
                let abs = repository.absolute(path)
                return (Linter.entitlementsExtensions.contains(Self.ext(path)) || Linter.isProfilePath(path)
                        || sources.isProjectFile(path) || Linter.isSourceFile(path))
                    && (roots.isEmpty || roots.contains { abs == $0 || abs.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
            }
            let lintable: [String]
            do {
                lintable = try staged ? repository.stagedPaths().filter(isLintable)
                    : repository.changedPaths(since: changedSince!, maxBytes: options.limits.maxBytes, accept: isLintable)
            } catch {
                throw CLIError(error.description)
            }
            options.paths = lintable.map { Paths.display(repository.absolute($0), cwd: cwd) }
            if staged {
                options.virtualFiles = VirtualFiles.git(repository, revision: nil, paths: lintable, exclusive: false,
                                                        maxBytes: options.limits.maxBytes, maxTotalBytes: options.maxTotalBytes)
            }
        }
        if let against {
            do {
                let reference = try RevisionReference.reference(at: against, repository: repository, options: options, knownRules: knownRules())
                options.lock = reference.lock
                options.setupFindings += reference.findings
            } catch {
                throw CLIError(error.description)
            }
        }
    }

    static func ext(_ path: String) -> String {
        let name = Paths.baseName(path)
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// The baseline of the run: `--baseline`, else the configuration's `baseline:`.
    func baselinePath(_ options: LintOptions) -> String? {
        if let baseline { return baseline }
        guard let config = options.configuration, let p = config.baseline else { return nil }
        return config.resolve(p)
    }

    func loadBaselines(_ options: LintOptions) throws -> Baselines {
        var out = Baselines()
        if let target = writeBaseline {
            switch Paths.kind(target) {
            case .missing:
                guard target == "-" || Paths.kind(Paths.directoryName(target)) == .directory else {
                    throw CLIError("cannot write the baseline \(target): no such folder \(Paths.directoryName(target))")
                }
            case .directory:
                throw CLIError("cannot write the baseline \(target): it is a folder")
            case .file, .other:
                break
            }
            // Only a regular file or nothing may be replaced; a stream starts afresh.
            let destination: WriteDestination
            do { destination = try FileReader.destination(target) } catch { throw CLIError("cannot write the baseline: \(error)") }
            out.destination = destination
            if case .file = destination, Paths.kind(target) == .file {
                do { out.previous = try Baseline.load(path: target) } catch {
                    throw CLIError("\(error) (remove it to start afresh)")
                }
            }
            return out
        }
        if let path = baselinePath(options) {
            do { out.apply = (path, try Baseline.load(path: path)) } catch { throw CLIError(error.description) }
        }
        return out
    }

    /// With `--write-baseline`: records the run's findings and says so; true when it did (the run
    /// then ends with status 0).
    func writeBaselineIfAsked(_ result: LintResult, baselines: Baselines) throws -> Bool {
        guard let target = writeBaseline else { return false }
        let keyer = Baseline.Keyer(baselinePath: target, profiles: result.profiles, units: result.units, cwd: Paths.currentDirectory())
        let baseline = Baseline.recording(result.findings, keyer: keyer, checked: result.paths, previous: baselines.previous)
        let destination = baselines.destination ?? .file(target)
        if destination == .standardOutput {
            Output.writeBytes(baseline.encoded())
        } else {
            do { try FileReader.write(baseline.encoded(), to: destination) } catch {
                throw CLIError("cannot write the baseline \(target): \(error)")
            }
        }
        let n = result.findings.count
        let kept = baseline.findings.reduce(0) { $0 + ($1.count ?? 1) } - n
        var line = "wrote \(OutputText.escape(target)): \(n) finding\(n == 1 ? "" : "s") recorded"
        if kept > 0 { line += ", \(kept) kept for files not checked in this run" }
        Output.write(line + "\n", fd: destination == .standardOutput ? STDERR_FILENO : STDOUT_FILENO)
        return true
    }

    /// Hides the baseline's findings from the result, and lists on standard error the entries
    /// that no longer match (so the file can be pruned).
    func applyBaseline(_ baselines: Baselines, to result: inout LintResult) {
        guard let (path, baseline) = baselines.apply else { return }
        let keyer = Baseline.Keyer(baselinePath: path, profiles: result.profiles, units: result.units, cwd: Paths.currentDirectory())
        let applied = baseline.apply(to: result.findings, keyer: keyer, checked: result.paths)
        result.findings = applied.findings
        guard !applied.unmatched.isEmpty else { return }
        let n = applied.unmatched.count
        // The path and the entries come from inputs: each is escaped, so each entry stays one line.
        let shown = OutputText.escape(path)
        var text = "entitlint: note: \(n) entr\(n == 1 ? "y" : "ies") of the baseline \(shown) match\(n == 1 ? "es" : "") no finding any more; "
        text += "prune with `entitlint lint --write-baseline \(shown)`:\n"
        for e in applied.unmatched { text += "  \(OutputText.escape(e.summary))\(e.count.map { " (×\($0))" } ?? "")\n" }
        Output.write(text, fd: STDERR_FILENO)
    }
}
