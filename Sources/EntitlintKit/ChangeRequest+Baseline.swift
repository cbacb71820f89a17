public import EntitlintCore
public import EntitlintWorkspace

extension ChangeRequest {
    /// Baselines read before linting: a bad one stops the run before any work or any write.
    public struct Baselines: Sendable {
        /// The baseline whose findings are hidden, and its path.
        public var apply: (path: String, baseline: Baseline)?
        /// What `--write-baseline FILE` holds now (its entries for files not checked are kept).
        public var previous: Baseline?
        /// Where `--write-baseline` writes (checked before linting).
        public var destination: WriteDestination?
    }

    /// What `--write-baseline` recorded: the file's bytes, where they go (the caller writes a
    /// stream; a file is already written), and the line that says so.
    public struct RecordedBaseline: Sendable, Equatable {
        public var bytes: [UInt8]
        public var destination: WriteDestination
        public var summary: String
    }

    /// The baseline of the run: `--baseline`, else the configuration's `baseline:`.
    public func baselinePath(_ options: LintOptions) -> String? {
        if let baseline { return baseline }
        guard let config = options.configuration, let p = config.baseline else { return nil }
        return config.resolve(p)
    }

    public func loadBaselines(_ options: LintOptions) throws(UsageError) -> Baselines {
        var out = Baselines()
        if let target = writeBaseline {
            switch Paths.kind(target) {
            case .missing:
                guard target == "-" || Paths.kind(Paths.directoryName(target)) == .directory else {
                    throw UsageError("cannot write the baseline \(target): no such folder \(Paths.directoryName(target))")
                }
            case .directory:
                throw UsageError("cannot write the baseline \(target): it is a folder")
            case .file, .other:
                break
            }
            // Only a regular file or nothing may be replaced; a stream starts afresh.
            let destination: WriteDestination
            do { destination = try FileReader.destination(target) } catch { throw UsageError("cannot write the baseline: \(error)") }
            out.destination = destination
            if case .file = destination, Paths.kind(target) == .file {
                do { out.previous = try Baseline.load(path: target) } catch {
                    throw UsageError("\(error) (remove it to start afresh)")
                }
            }
            return out
        }
        if let path = baselinePath(options) {
            do { out.apply = (path, try Baseline.load(path: path, from: options.trustedFiles)) } catch { throw UsageError(error.description) }
        }
        return out
    }

    /// With `--write-baseline`: records the run's findings, writing a file destination; nil when
    /// the run was not asked to record (it then reports its findings as usual).
    public func recordBaselineIfAsked(_ result: LintResult, baselines: Baselines) throws(UsageError) -> RecordedBaseline? {
        guard let target = writeBaseline else { return nil }
        let keyer = Baseline.Keyer(baselinePath: target, profiles: result.profiles, units: result.units, cwd: Paths.currentDirectory())
        let baseline = Baseline.recording(result.findings, keyer: keyer, checked: result.paths, previous: baselines.previous)
        let destination = baselines.destination ?? .file(target)
        let bytes = baseline.encoded()
        if destination != .standardOutput {
            do { try FileReader.write(bytes, to: destination) } catch {
                throw UsageError("cannot write the baseline \(target): \(error)")
            }
        }
        let n = result.findings.count
        let kept = baseline.findings.reduce(0) { $0 + ($1.count ?? 1) } - n
        var line = "wrote \(OutputText.escape(target)): \(n) finding\(n == 1 ? "" : "s") recorded"
        if kept > 0 { line += ", \(kept) kept for files not checked in this run" }
        return RecordedBaseline(bytes: bytes, destination: destination, summary: line + "\n")
    }

    /// Hides the baseline's findings from the result; returns the text that lists the entries
    /// that no longer match (so the file can be pruned), for standard error, or "" when all match.
    public func applyBaseline(_ baselines: Baselines, to result: inout LintResult) -> String {
        guard let (path, baseline) = baselines.apply else { return "" }
        let keyer = Baseline.Keyer(baselinePath: path, profiles: result.profiles, units: result.units, cwd: Paths.currentDirectory())
        let applied = baseline.apply(to: result.findings, keyer: keyer, checked: result.paths)
        result.findings = applied.findings
        guard !applied.unmatched.isEmpty else { return "" }
        let n = applied.unmatched.count
        // The path and the entries come from inputs: each is escaped, so each entry stays one line.
        let shown = OutputText.escape(path)
        var text = "entitlint: note: \(n) entr\(n == 1 ? "y" : "ies") of the baseline \(shown) match\(n == 1 ? "es" : "") no finding any more; "
        text += "prune with `entitlint lint --write-baseline \(shown)`:\n"
        for e in applied.unmatched { text += "  \(OutputText.escape(e.summary))\(e.count.map { " (×\($0))" } ?? "")\n" }
        return text
    }
}
