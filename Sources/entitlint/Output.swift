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


/// An error that ends the run with exit status 2 and a message on standard error: one line per
/// element of `lines`, each escaped (`Output.error`). The library's own, so a run the library
/// refuses and a command line the CLI refuses end alike.
typealias CLIError = UsageError

enum Output {
    /// Writes `s` with write(2), guarded against GitHub Actions workflow commands
    /// (`OutputText.guardCommandLines`): on every line, a `::` after nothing but the white space
    /// the runner trims, and every `##[`, are changed (written as `style` says: the format's own
    /// escape, so JSON and XML read back the same). Only `annotations` (the `github` format's
    /// output) keeps the `::error`/`::warning`/`::notice` lines it wrote. Everything Entitlint
    /// prints, on standard output, standard error or into the job summary, goes through here or
    /// `writeBytes`. Standard output whose reader went away (`| head -1`) ends the writing
    /// quietly; any other failure to write standard output (a full disk, an I/O error) is
    /// reported on standard error and ends the run with status 2, so a truncated report is never
    /// mistaken for a complete one.
    static func write(_ s: String, fd: Int32 = STDOUT_FILENO, style: CommandGuardStyle = .text, annotations: Bool = false) {
        let text = OutputText.guardCommandLines(s, style: style, keepingAnnotations: annotations)
        writeAll(Array(text.utf8), fd: fd)
    }

    /// `write` for encoded files printed as they are (a baseline, a lock file: JSON, so guarded
    /// with JSON escapes unless `style` says otherwise).
    static func writeBytes(_ bytes: [UInt8], fd: Int32 = STDOUT_FILENO, style: CommandGuardStyle = .json) {
        writeAll(OutputText.guardCommandLines(bytes: bytes, style: style) ?? bytes, fd: fd)
    }

    private static func writeAll(_ bytes: [UInt8], fd: Int32) {
        guard let failure = FileReader.writeAll(bytes, fd: fd) else { return }
        if fd == STDOUT_FILENO && failure != EPIPE {
            error("cannot write to standard output: \(String(cString: strerror(failure)))")
            exit(2)
        }
    }

    /// One message on standard error, `entitlint: ` first; everything in it is escaped
    /// (`OutputText.escape`), so a message is always one line, whatever its values hold.
    static func error(_ s: String) {
        write(OutputText.diagnosticLine(s), fd: STDERR_FILENO)
    }

    static var colourAllowed: Bool {
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}
