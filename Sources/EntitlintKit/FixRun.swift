public import EntitlintCore
import EntitlintWorkspace

/// What `lint --fix` and `lint --diff` are asked for.
public struct FixRequest: Sendable, Equatable {
    /// Apply the fixes marked `unsafe` too (`--unsafe-fixes`).
    public var unsafe: Bool
    /// Write the fixed files (`--fix`); false only computes them (`--diff`).
    public var write: Bool
    /// Passes of fix, lint again, fix what is fixable now: a bound, so that fixes that keep
    /// offering more end.
    public var maxPasses: Int
    /// Fixes tried one at a time in a pass whose fixes together bring a new finding: a bound on
    /// the lint runs one pass costs.
    public var maxSingleTrials: Int

    public init(unsafe: Bool = false, write: Bool = true, maxPasses: Int = 8, maxSingleTrials: Int = 64) {
        self.unsafe = unsafe
        self.write = write
        self.maxPasses = maxPasses
        self.maxSingleTrials = maxSingleTrials
    }
}

/// One fix applied to a file: its rule, title and where its finding was.
public struct AppliedFix: Sendable, Hashable {
    public var rule: String
    public var title: String
    public var line: Int
    public var applicability: Finding.Fix.Applicability
}

/// One file the fixes change.
public struct FixedFile: Sendable {
    /// As findings show it.
    public var path: String
    public var absolutePath: String
    /// The bytes as read, and as fixed.
    public var before: [UInt8]
    public var after: [UInt8]
    public var fixes: [AppliedFix]
    /// False when the file was not written: `--diff`, or why not in `refusal`.
    public var written = false
    public var refusal: String?
}

/// What a fix run did and what is left.
public struct FixOutcome: Sendable {
    /// The lint of the files as fixed (written or, for `--diff`, in memory): what is left.
    public var outcome: LintOutcome
    public var files: [FixedFile]
    /// The fixes applied (or, for `--diff`, that would be), in all files.
    public var fixCount: Int { files.reduce(0) { $0 + $1.fixes.count } }
}

extension LintRun {
    /// Lints, applies the fixes the findings offer (safe ones; unsafe ones too when asked) to
    /// the bytes of their files, lints again in memory and keeps only fixes that bring no finding
    /// the files did not have, until nothing more is fixable (at most `maxPasses` passes); then
    /// writes each changed file atomically unless it changed on disk meanwhile. Files outside the
    /// project root, binary plists, symbolic links and files whose bytes a fix cannot be placed in
    /// are never rewritten: a notice says why.
    public static func fix(_ request: LintRequest, _ fixing: FixRequest, diagnostics: (String) -> Void = { _ in }) throws(UsageError) -> FixOutcome {
        var current = try run(request, diagnostics: diagnostics)
        let root = current.options.projectRoot()
        var engine = FixEngine(request: request, fixing: fixing, root: root, virtualFiles: current.options.virtualFiles,
                               maxBytes: current.options.limits.maxBytes)
        for _ in 0..<max(1, fixing.maxPasses) {
            let candidates = engine.candidates(current.result.findings)
            if candidates.isEmpty { break }
            guard let next = try engine.pass(candidates, from: current) else { break }
            current = next
        }
        var files = engine.fixedFiles()
        if fixing.write {
            var refused = false
            for i in files.indices {
                files[i].refusal = FixWriter.write(files[i], staged: request.changes.staged)
                files[i].written = files[i].refusal == nil
                refused = refused || files[i].refusal != nil
            }
            if refused {
                // What is left is what the disk (or the index) now holds, plus the files written.
                var again = request
                again.overlay = Dictionary(uniqueKeysWithValues: files.filter(\.written).map { ($0.absolutePath, $0.after) })
                current = try run(again)
            }
        }
        current.result.notices += engine.notices + files.compactMap { f in
            f.refusal.map { Notice(message: "not fixed: \($0)", path: f.path) }
        }
        current.result.notices.sort()
        return FixOutcome(outcome: current, files: files)
    }

    /// The run's findings with their fixes' edits filled in from the files' bytes (what the JSON
    /// and SARIF reports and the text `[*]` show); a fix that cannot be placed is dropped.
    public static func resolvingFixes(_ outcome: LintOutcome) -> LintOutcome {
        guard outcome.result.findings.contains(where: { $0.fix.map { !$0.operations.isEmpty && $0.edits.isEmpty } ?? false }) else { return outcome }
        var out = outcome
        let findings = outcome.result.findings
        let cwd = Paths.currentDirectory()
        // The findings to place, by file, files in order of first appearance: one map per file,
        // made once, so a file with thousands of fixable findings is scanned once and placing
        // the fixes stays linear in the file's size. Files are independent: one per task.
        var files: [(absolute: String, shown: String, findings: [Int])] = []
        var fileIndex: [String: Int] = [:]
        for i in findings.indices {
            guard let fix = findings[i].fix, !fix.operations.isEmpty, fix.edits.isEmpty else { continue }
            let absolute = Paths.absolute(findings[i].path, cwd: cwd)
            if let k = fileIndex[absolute] {
                files[k].findings.append(i)
            } else {
                fileIndex[absolute] = files.count
                files.append((absolute, findings[i].path, [i]))
            }
        }
        let slots = UnsafeMutableBufferPointer<[[Finding.Edit]?]>.allocate(capacity: files.count)
        slots.initialize(repeating: [])
        defer { slots.deinitialize(); slots.deallocate() }
        nonisolated(unsafe) let placed = slots
        let options = outcome.options
        let root = options.projectRoot()
        let work = files
        Parallel.forEach(work.count, jobs: options.parallel ? options.jobs : 1) { k in
            var engine = FixEngine(request: LintRequest(), fixing: FixRequest(unsafe: true, write: false), root: root,
                                   virtualFiles: options.virtualFiles, maxBytes: options.limits.maxBytes)
            let map = engine.original(work[k].absolute, shown: work[k].shown, noticing: false).flatMap { PlistSourceMap(bytes: $0) }
            placed[k] = work[k].findings.map { i in
                map.flatMap { FixResolver.edits(findings[i].fix!.operations, map: $0, path: findings[i].path) }
            }
        }
        for k in work.indices {
            for (n, i) in work[k].findings.enumerated() {
                if let edits = placed[k][n] {
                    out.result.findings[i].fix?.edits = edits
                } else {
                    out.result.findings[i].fix = nil
                }
            }
        }
        return out
    }
}
