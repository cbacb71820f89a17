import EntitlintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader {
    /// Writes `bytes` to `path` only if nothing is there yet: written in full to a temporary file
    /// beside it, then hard-linked into place (`link(2)` never replaces a file), so a file that
    /// exists, or appears meanwhile, is left alone and half a file is never seen.
    public static func writeNew(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(ReadError) {
        let tmp = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let slot = TemporaryFiles.register(tmp)
        defer { TemporaryFiles.remove(slot) }
        try writeAtomically(bytes, to: tmp)
        defer { unlink(tmp) }
        if chmod(tmp, mode) != 0 { throw .system("cannot set the mode of \(tmp): \(errnoText())") }
        if link(tmp, path) != 0 {
            if errno == EEXIST { throw .system("\(path) already exists") }
            throw .system("cannot create \(path): \(errnoText())")
        }
    }

    /// `writeAtomically`, then `chmod` of the result (a hook must be executable).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(ReadError) {
        let tmp = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let slot = TemporaryFiles.register(tmp)
        defer { TemporaryFiles.remove(slot) }
        try writeAtomically(bytes, to: tmp)
        if chmod(tmp, mode) != 0 {
            let why = errnoText()
            unlink(tmp)
            throw .system("cannot set the mode of \(tmp): \(why)")
        }
        if rename(tmp, path) != 0 {
            let why = errnoText()
            unlink(tmp)
            throw .system("cannot rename \(tmp) to \(path): \(why)")
        }
    }
}

extension FileReader {
    /// `mkdir -p`.
    public static func makeDirectories(_ path: String) throws(ReadError) {
        if Paths.kind(path) == .directory { return }
        let parent = Paths.directoryName(path)
        if parent != path, parent != "." { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .system(errnoText()) }
    }
}
