import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

