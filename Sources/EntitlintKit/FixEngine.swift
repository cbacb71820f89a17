import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// The state of one fix run: the files' bytes as read and as fixed so far, the fixes applied,
/// and why files were left alone.
struct FixEngine {
    let request: LintRequest
    let fixing: FixRequest
    let root: ProjectRoot
    let virtualFiles: VirtualFiles?
    let maxBytes: Int
    /// Absolute path -> bytes as first read (nil: the file is not fixed, `notices` say why).
    private var originals: [String: [UInt8]?] = [:]
    private var shown: [String: String] = [:]
    /// Absolute path -> bytes with the fixes accepted so far.
    private(set) var overlay: [String: [UInt8]] = [:]
    private var applied: [String: [AppliedFix]] = [:]
    private(set) var notices: [Notice] = []

    init(request: LintRequest, fixing: FixRequest, root: ProjectRoot, virtualFiles: VirtualFiles?, maxBytes: Int) {
        self.request = request
        self.fixing = fixing
        self.root = root
        self.virtualFiles = virtualFiles
        self.maxBytes = maxBytes
    }

    struct Candidate {
        var path: String
        var finding: Finding
        var edits: [Finding.Edit]
    }

    /// The bytes of `abs` as the run read them (the index for `--staged`, else the disk), or nil
    /// when the file must not be rewritten (a notice says why, once, when `noticing`).
    mutating func original(_ abs: String, shown path: String, noticing: Bool = true) -> [UInt8]? {
        if let known = originals[abs] { return known }
        var why: String?
        var bytes: [UInt8]?
        if !root.contains(abs) {
            why = "the file is outside the project root, and files there are never rewritten"
        } else if FixWriter.isSymbolicLink(abs) {
            why = "the file is a symbolic link; fix the file it points to"
        } else {
            switch virtualFiles?.bytes(abs, cwd: "/") {
            case .success(let b)?: bytes = b
            case .failure(let e)?: why = "cannot read it: \(e.description)"
            case nil:
                do { bytes = try FileReader.read(abs, limit: maxBytes) } catch { why = "cannot read it: \(error)" }
            }
            if let b = bytes, b.starts(with: Array("bplist".utf8)) {
                why = "it is a binary property list, which is never rewritten (convert it to XML to fix it)"
                bytes = nil
            }
        }
        originals[abs] = .some(bytes)
        shown[abs] = path
        if let why, noticing { notices.append(Notice(message: "not fixed: \(why)", path: path)) }
        return bytes
    }

    /// The fixes the findings offer that this run applies, with their edits on the files as
    /// fixed so far; a fix whose edits cannot be placed is left out.
    mutating func candidates(_ findings: [Finding]) -> [Candidate] {
        var out: [Candidate] = []
        // One map per file per call (the overlay does not change during it): the file is scanned
        // once, not once per finding.
        var maps: [String: PlistSourceMap?] = [:]
        for f in findings {
            guard let fix = f.fix, !fix.operations.isEmpty, fix.applicability == .safe || fixing.unsafe else { continue }
            let abs = Paths.absolute(f.path)
            guard let first = original(abs, shown: f.path) else { continue }
            if maps[abs] == nil { maps[abs] = .some(PlistSourceMap(bytes: overlay[abs] ?? first)) }
            guard let map = maps[abs] ?? nil, let edits = FixResolver.edits(fix.operations, map: map, path: f.path) else { continue }
            out.append(Candidate(path: abs, finding: f, edits: edits))
        }
        return out
    }

    /// One pass: all candidates together (those whose edits touch an earlier one's wait for the
    /// next pass) when that brings no new finding; else, file by file, the first candidate that
    /// brings none on its own (up to `maxSingleTrials` tried): the others of that file were placed
    /// on its bytes before that fix and are placed again in the next pass. The outcome of the lint
    /// of the files with the fixes kept, or nil when none was kept.
    mutating func pass(_ candidates: [Candidate], from current: LintOutcome) throws(UsageError) -> LintOutcome? {
        let together = Self.combine(candidates, onto: overlay, originals: originals)
        if !together.kept.isEmpty, let result = try lint(together.files), !Self.bringsNew(result, than: current) {
            accept(together.kept, files: together.files)
            return result
        }
        var best: LintOutcome?
        var base = current
        var done = Set<String>()
        for c in candidates.prefix(fixing.maxSingleTrials) where !done.contains(c.path) {
            let one = Self.combine([c], onto: overlay, originals: originals)
            guard one.kept.count == 1, let result = try lint(one.files), !Self.bringsNew(result, than: base) else { continue }
            accept(one.kept, files: one.files)
            best = result
            base = result
            done.insert(c.path)
        }
        return best
    }

    private mutating func accept(_ kept: [Candidate], files: [String: [UInt8]]) {
        overlay = files
        for c in kept {
            applied[c.path, default: []].append(AppliedFix(rule: c.finding.rule, title: c.finding.fix!.title, line: c.finding.line,
                                                           applicability: c.finding.fix!.applicability))
        }
    }

    /// The candidates applied together file by file, in order, a candidate whose edits touch
    /// those of one before it (or an identical fix already taken) left out.
    static func combine(_ candidates: [Candidate], onto overlay: [String: [UInt8]], originals: [String: [UInt8]?])
        -> (kept: [Candidate], files: [String: [UInt8]]) {
        var kept: [Candidate] = []
        var edits: [String: [Finding.Edit]] = [:]
        for c in candidates {
            let taken = edits[c.path, default: []]
            guard FixApplier.nonOverlapping(taken + c.edits) else { continue }
            edits[c.path] = taken + c.edits
            kept.append(c)
        }
        var files = overlay
        for (path, list) in edits {
            guard let base = overlay[path] ?? originals[path] ?? nil, let fixed = FixApplier.apply(list, to: base) else {
                return ([], overlay)
            }
            files[path] = fixed
        }
        return (kept, files)
    }

    /// The run again with `files` read from memory; nil when nothing would change.
    private func lint(_ files: [String: [UInt8]]) throws(UsageError) -> LintOutcome? {
        guard files != overlay else { return nil }
        var again = request
        again.overlay = files
        return try LintRun.run(again)
    }

    /// Whether `after` has a finding `before` does not: compared by file, rule and message with
    /// its numbers left out (a removed line moves the line numbers a message quotes).
    static func bringsNew(_ after: LintOutcome, than before: LintOutcome) -> Bool {
        var counts: [String: Int] = [:]
        for f in before.result.findings { counts[key(f), default: 0] += 1 }
        for f in after.result.findings {
            let k = key(f)
            guard let n = counts[k], n > 0 else { return true }
            counts[k] = n - 1
        }
        return false
    }

    static func key(_ f: Finding) -> String {
        var message = ""
        var lastDigit = false
        for c in f.message.unicodeScalars {
            let digit = ("0"..."9").contains(c)
            if digit { if !lastDigit { message += "#" } } else { message.unicodeScalars.append(c) }
            lastDigit = digit
        }
        return f.path + "\u{0}" + f.rule + "\u{0}" + (f.unit ?? "") + "\u{0}" + message
    }

    /// The files the accepted fixes change, sorted by path.
    func fixedFiles() -> [FixedFile] {
        overlay.keys.sorted().compactMap { abs in
            guard let before = originals[abs] ?? nil, let after = overlay[abs], before != after else { return nil }
            return FixedFile(path: shown[abs] ?? abs, absolutePath: abs, before: before, after: after, fixes: applied[abs] ?? [])
        }
    }
}
