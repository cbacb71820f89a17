import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report, a lock file or a baseline goes. Decided, and refused when unsafe, before the
/// run does any work (`FileReader.destination(_:)`).
public enum WriteDestination: Sendable, Equatable {
    /// `-` or `/dev/stdout`: written to the run's standard output as a stream.
    case standardOutput
    /// `/dev/null`: written nowhere (the device is never opened, let alone replaced).
    case discard
    /// A regular file, or nothing yet, in an existing folder: written atomically (a temporary
    /// file beside it, renamed over it).
    case file(String)

    /// Whether the destination is a stream, not a file that could be read back.
    public var isStream: Bool { if case .file = self { return false } else { return true } }
}

extension FileReader {
    /// What `path` is as a place to write. Only these are accepted: `-`, `/dev/stdout` and
    /// `/dev/null` (streams); a regular file; nothing, in an existing folder. A symbolic link
    /// (even one to a regular file), a FIFO, a device, a socket or a folder is refused: renaming
    /// over a link would replace it, writing through it would write where it points, and opening
    /// a FIFO or device could block or reach anything.
    public static func destination(_ path: String) throws(ReadError) -> WriteDestination {
        switch path {
        case "-", "/dev/stdout": return .standardOutput
        case "/dev/null": return .discard
        default: break
        }
        guard !path.isEmpty else { throw .system("no path given") }
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw .system("\(path): \(errnoText())") }
            let folder = Paths.directoryName(path)
            guard Paths.kind(folder) == .directory else { throw .system("\(path): no such folder \(folder)") }
            return .file(path)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file(path)
        case S_IFLNK: throw .system("\(path) is a symbolic link: not writing through it or replacing it (write to a regular file)")
        case S_IFDIR: throw .system("\(path) is a folder")
        case S_IFIFO: throw .system("\(path) is not a regular file (a FIFO): not writing to it")
        case S_IFCHR, S_IFBLK: throw .system("\(path) is not a regular file (a device): not writing to it (- is standard output, /dev/null discards)")
        case S_IFSOCK: throw .system("\(path) is not a regular file (a socket): not writing to it")
        default: throw .system("\(path) is not a regular file: not writing to it")
        }
    }

    /// Writes `bytes` where `destination` says. A file is checked again just before (it must
    /// still be a regular file or absent), then written atomically. Standard output is written in
    /// full; a reader that went away (EPIPE) ends the writing quietly, any other failure throws.
    public static func write(_ bytes: [UInt8], to destination: WriteDestination) throws(ReadError) {
        switch destination {
        case .discard:
            return
        case .standardOutput:
            if let failure = writeAll(bytes, fd: STDOUT_FILENO), failure != EPIPE {
                throw .system("cannot write to standard output: \(String(cString: strerror(failure)))")
            }
        case .file(let path):
            guard case .file = try Self.destination(path) else { throw .system("\(path) changed while the run went on") }
            try writeAtomically(bytes, to: path)
        }
    }

    /// Runs `body` holding an exclusive `flock(2)` on the folder of `path`, so that runs
    /// updating the same file there (read, merge, write: `entitlint lock`) take turns and none
    /// loses another's entries. A folder is locked, not the file: the file is replaced by a
    /// rename, and a lock on a replaced file protects nothing. The lock goes when the run ends,
    /// however it ends.
    public static func withFolderLock<T>(for path: String, _ body: () throws -> T) throws -> T {
        let folder = Paths.directoryName(path)
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError.system("cannot open \(folder) to lock it: \(errnoText())") }
        defer { close(fd) }   // closing releases the lock
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw ReadError.system("cannot lock \(folder): \(errnoText())")
        }
        return try body()
    }
}

extension FileReader {
    /// Writes all of `bytes` to `fd`, again after an interrupted or partial write(2); the errno
    /// of a failed write, nil when all were written.
    public static func writeAll(_ bytes: [UInt8], fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in posixWrite(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}

/// write(2), under a name that `WriteDestination.write` and `Output.write` do not shadow.
@inline(__always)
private func posixWrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buf, count)
}

/// The temporary files a run is writing at this moment, removed if SIGINT, SIGTERM or SIGHUP
/// ends it: an interrupted run leaves the old file as it was and nothing beside it.
///
/// The paths are kept as C strings in a fixed table that the signal handler only reads and
/// passes to `unlink(2)`, which is async-signal-safe; a slot is cleared before its string is
/// freed. The handler then restores the default action and raises the signal again, so the run
/// still ends as that signal ends it. A signal the run inherited as ignored stays ignored.
public enum TemporaryFiles {
    static let capacity = 64
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    static let lock = MutexLock()
    nonisolated(unsafe) static var installed = false
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Records `path` as being written; returns its slot for `remove` (nil when the table is full,
    /// and the file is then only removed by the writer).
    static func register(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if !installed {
            installed = true
            for s in signals { installHandler(s) }
        }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return i
        }
        return nil
    }

    /// Forgets the file of `slot` (renamed into place, or removed by the writer).
    static func remove(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        defer { lock.unlock() }
        let p = slots[slot]
        slots[slot] = nil
        free(p)
    }

    /// Removes every file being written now (what the signal handler does); for tests.
    public static func removeAll() {
        for i in 0..<capacity { if let p = slots[i] { unlink(p) } }
    }

    static func installHandler(_ signal: Int32) {
        var old = sigaction()
        guard sigaction(signal, nil, &old) == 0 else { return }
        #if canImport(Glibc)
        let ignored = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        let ignored = unsafeBitCast(old.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #endif
        if ignored { return }
        _ = Glibc_signal(signal, temporaryFilesSignalHandler)
    }
}

@inline(__always)
func Glibc_signal(_ s: Int32, _ handler: @convention(c) (Int32) -> Void) -> sighandler_t? {
    signal(s, handler)
}

/// The signal handler of `TemporaryFiles`: only async-signal-safe calls.
private func temporaryFilesSignalHandler(_ s: Int32) {
    for i in 0..<TemporaryFiles.capacity {
        if let p = TemporaryFiles.slots[i] { unlink(p) }
    }
    signal(s, SIG_DFL)
    raise(s)
}
