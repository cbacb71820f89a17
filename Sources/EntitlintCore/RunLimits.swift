import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
public import PropertyList

/// The limits of one run and how a message tells the user to raise them.
///
/// Per file (`PlistLimits`): size in bytes (`max-file-size`), nesting depth (`max-depth`), values
/// per document (`max-elements`). Per run: bytes read from entitlements files, plists and
/// profiles together (`max-total-bytes`). Each can be raised with a flag of the same name or in
/// `.entitlint.yml` under `limits:`; the flag wins.
public enum RunLimits {
    public static let totalBytesName = "max-total-bytes"
    public static let findingsName = "max-findings"
    public static let outputBytesName = "max-output-bytes"
    /// Default of `max-total-bytes`: 1 GiB, far above any real repository's entitlements and
    /// profiles (the 181 corpus files hold 1.3 MB), far below what would exhaust this machine.
    public static let defaultMaxTotalBytes = 1 << 30
    /// Default of `max-findings`: findings one run reports; past it, one finding says how many
    /// more there were.
    public static let defaultMaxFindings = 10_000
    /// Default of `max-output-bytes`: bytes of one rendered report (the console output or a
    /// `--report` file); past it, findings are left out until it fits, and one says so.
    public static let defaultMaxOutputBytes = 64 << 20
    /// Every setting name, in the order the README documents them.
    public static let names = PlistLimits.Kind.allCases.map(\.rawValue) + [totalBytesName, findingsName, outputBytesName]

    /// The most a repository's `.entitlint.yml` may set each limit to: a configuration comes with
    /// the repository being linted, so it may lower a limit, never raise it past these. Only the
    /// command-line flag goes higher (up to the readers' own bounds, as `PlistLimits.readerMaxDepth`).
    public static let ceilings: [String: Int] = [
        PlistLimits.Kind.fileSize.rawValue: 64 << 20,
        PlistLimits.Kind.depth.rawValue: 256,
        PlistLimits.Kind.elements.rawValue: 10_000_000,
        totalBytesName: 4 << 30,
        findingsName: 100_000,
        outputBytesName: 256 << 20,
    ]

    /// The limits a configuration sets, each lowered to its ceiling, and a note for each lowered
    /// (by the limit's name).
    public static func clamped(_ configured: [String: Int], configPath: String) -> (limits: [String: Int], notes: [(name: String, text: String)]) {
        var out = configured
        var notes: [(name: String, text: String)] = []
        for name in names {
            guard let n = configured[name], let ceiling = ceilings[name], n > ceiling else { continue }
            out[name] = ceiling
            notes.append((name, "note: \(configPath) sets limits.\(name) to \(n), above \(ceiling), the most a configuration may set; \(ceiling) is used (give --\(name) \(n) on the command line to go higher)"))
        }
        return (out, notes)
    }

    /// "raise it with --NAME N or `limits: {NAME: N}` in .entitlint.yml".
    public static func howToRaise(_ name: String) -> String {
        "raise it with --\(name) N or `limits: {\(name): N}` in .entitlint.yml"
    }

    /// `reason`, followed by how to raise the limit it names, if any.
    public static func explain(_ reason: String, _ kind: PlistLimits.Kind?) -> String {
        guard let kind else { return reason }
        return "\(reason) (\(howToRaise(kind.rawValue)))"
    }
}

/// Bytes a run may still read (`max-total-bytes`), shared by the parsing threads.
final class ReadBudget: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var used = 0
    private(set) var refused = false

    init(limit: Int) { self.limit = limit }

    /// Takes `size` bytes from the budget; false (and nothing taken) when that would pass it.
    func take(_ size: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard size <= limit - used else { refused = true; return false }
        used += size
        return true
    }
}

extension Linter {
    /// The finding text for a file not read because the run's byte budget was spent.
    static func overBudgetReason(_ limit: Int) -> String {
        "not read: the files before it in this run already take the bytes read past the limit of \(limit) bytes in total (\(RunLimits.howToRaise(RunLimits.totalBytesName)))"
    }

    /// Parses every path on `jobs` threads (0: one per core), reading at most `maxTotalBytes` in all.
    ///
    /// Which files are read does not depend on threads or timing: when the budget runs out, the
    /// files are taken in path order, the first one that would pass the limit and every later
    /// one are reported as not read, and any earlier one a racing thread skipped is read then.
    static func parseAll(_ paths: [String], limits: PlistLimits, maxTotalBytes: Int, jobs: Int) -> [ParsedInput] {
        let budget = ReadBudget(limit: maxTotalBytes)
        let results = UnsafeMutableBufferPointer<ParsedInput>.allocate(capacity: paths.count)
        results.initialize(repeating: .failed(reason: "", location: .unknown))
        let sizes = UnsafeMutableBufferPointer<Int>.allocate(capacity: paths.count)
        sizes.initialize(repeating: 0)
        let skipped = UnsafeMutableBufferPointer<Bool>.allocate(capacity: paths.count)
        skipped.initialize(repeating: false)
        defer { results.deallocate(); sizes.deallocate(); skipped.deallocate() }
        nonisolated(unsafe) let out = results, sizeOut = sizes, skipOut = skipped

        @Sendable func one(_ i: Int) {
            do {
                let bytes = try FileReader.read(paths[i], limit: limits.maxBytes) { size in
                    sizeOut[i] = size
                    return budget.take(size)
                }
                out[i] = parse(bytes: bytes, path: paths[i], limits: limits)
            } catch .overBudget {
                skipOut[i] = true
            } catch {
                out[i] = .failed(reason: "cannot read the file: \(error)", location: .unknown)
            }
        }
        Parallel.forEach(paths.count, jobs: jobs, one)
        if budget.refused {
            // The deterministic cut: the first file, in path order, past the limit.
            var total = 0
            var cut = paths.count
            for i in paths.indices {
                if sizes[i] > maxTotalBytes - total { cut = i; break }
                total += sizes[i]
            }
            let notRead = ParsedInput.failed(reason: overBudgetReason(maxTotalBytes), location: .unknown)
            for i in paths.indices {
                if i >= cut {
                    out[i] = notRead
                } else if skipped[i] {
                    do {
                        let bytes = try FileReader.read(paths[i], limit: limits.maxBytes)
                        out[i] = parse(bytes: bytes, path: paths[i], limits: limits)
                    } catch {
                        out[i] = .failed(reason: "cannot read the file: \(error)", location: .unknown)
                    }
                }
            }
        }
        return Array(results)
    }
}

/// Work spread over threads (`--jobs`): `jobs` workers at most, 0 meaning one per core.
/// Results are written by index and read in index order, so output never depends on it.
public enum Parallel {
    public static func forEach(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> Void) {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let workers = jobs <= 0 ? cores : min(jobs, count)
        if workers <= 1 || count <= 8 {
            for i in 0..<count { body(i) }
        } else if workers >= cores {
            // Dispatch's own split: one thread per core at most.
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var i = w
                while i < count { body(i); i += workers }
            }
        }
    }
}
