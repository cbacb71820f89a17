import EntitlintCore
import EntitlintWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a fixed file in place: only when its bytes on disk are still those the fixes were
/// made on, through a temporary file beside it renamed over it (never half a file), with its
/// permission bits kept.
enum FixWriter {
    /// Nil when written; else why not.
    static func write(_ file: FixedFile, staged: Bool) -> String? {
        let now: [UInt8]
        do { now = try FileReader.read(file.absolutePath, limit: file.before.count + 1) } catch {
            return error == .tooLarge(limit: file.before.count + 1) ? changed(staged) : "cannot read it again before writing: \(error)"
        }
        guard now == file.before else { return changed(staged) }
        var st = stat()
        guard stat(file.absolutePath, &st) == 0 else { return "cannot read its permissions: \(String(cString: strerror(errno)))" }
        do { try FileReader.writeAtomically(file.after, to: file.absolutePath, mode: st.st_mode & 0o7777) } catch {
            return "cannot write it: \(error)"
        }
        return nil
    }

    static func changed(_ staged: Bool) -> String {
        staged ? "the file in the work tree differs from its staged version (the fixes were made on the staged one); stage it or fix it by hand"
               : "the file changed on disk since it was read, so it was not overwritten"
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }
}
