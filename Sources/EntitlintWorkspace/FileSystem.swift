public import EntitlintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PropertyList

/// Reading and writing files with plain POSIX calls: bounded, never following surprises
/// (FIFOs, devices), and without Foundation's start-up cost on the hot path.
public enum FileReader {
    public enum ReadError: Error, CustomStringConvertible, Equatable {
        case notFound
        case notARegularFile(String)
        case tooLarge(limit: Int)
        case system(String)
        /// Refused by the `admit` closure of `read(_:limit:admit:)` (the run's byte budget).
        case overBudget

        public var description: String {
            switch self {
            case .notFound: return "no such file"
            case .notARegularFile(let kind): return "not a regular file (\(kind))"
            case .tooLarge(let limit): return "larger than the limit of \(limit) bytes (\(RunLimits.howToRaise(PlistLimits.Kind.fileSize.rawValue)))"
            case .system(let why): return why
            case .overBudget: return "not read: the run reached its limit of bytes read in total"
            }
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }

    /// Reads a whole regular file, refusing more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        try read(path, limit: limit) { _ in true }
    }

    /// Reads a whole regular file, refusing more than `limit` bytes, and first asks `admit` with
    /// the size the file has when opened (false: `.overBudget`, nothing read).
    public static func read(_ path: String, limit: Int, admit: (Int) -> Bool) throws(ReadError) -> [UInt8] {
        let fd = Paths.withFileSystemPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { throw .notFound }
            throw .system(errnoText())
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(errnoText()) }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else {
            switch type {
            case S_IFDIR: throw .notARegularFile("a folder")
            case S_IFIFO: throw .notARegularFile("a FIFO")
            case S_IFCHR, S_IFBLK: throw .notARegularFile("a device")
            case S_IFSOCK: throw .notARegularFile("a socket")
            default: throw .notARegularFile("special file")
            }
        }
        let size = Int(st.st_size)
        guard size <= limit else { throw .tooLarge(limit: limit) }
        guard admit(size) else { throw .overBudget }
        // Read up to limit + 1 bytes whatever the size said: the file may change while read.
        var buffer = [UInt8](repeating: 0, count: min(size, limit) + 1)
        var total = 0
        while true {
            if total == buffer.count {
                if buffer.count > limit { throw .tooLarge(limit: limit) }
                // `limit - count + 1` (here count <= limit), never `limit + 1`: `--max-file-size`
                // may be Int.max.
                buffer.append(contentsOf: [UInt8](repeating: 0, count: min(buffer.count, limit - buffer.count + 1)))
            }
            let n = buffer.withUnsafeMutableBytes { raw in
                Glibc_read(fd, raw.baseAddress! + total, raw.count - total)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errnoText())
            }
            if n == 0 { break }
            total += n
            // All the bytes the file had when opened, and fewer than asked for: that is its end,
            // and a second read only to be told so costs a system call per file.
            if total == size && total < buffer.count { break }
        }
        if total > limit { throw .tooLarge(limit: limit) }
        buffer.removeSubrange(total...)
        return buffer
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: readers
    /// never see a half-written file, and an interrupted run leaves the old file in place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReadError) {
        let tmp = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Registered before it exists, so a signal at any moment removes it (TemporaryFiles).
        let slot = TemporaryFiles.register(tmp)
        defer { TemporaryFiles.remove(slot) }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system("cannot create \(tmp): \(errnoText())") }
        if let failure = writeAll(bytes, fd: fd) {
            close(fd)
            unlink(tmp)
            throw .system("cannot write \(tmp): \(String(cString: strerror(failure)))")
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let why = errnoText()
            unlink(tmp)
            throw .system("cannot write \(tmp): \(why)")
        }
        if rename(tmp, path) != 0 {
            let why = errnoText()
            unlink(tmp)
            throw .system("cannot rename \(tmp) to \(path): \(why)")
        }
    }
}

@inline(__always)
func Glibc_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buf, count)
}

/// What is on the file system at a path, and folder walks (the pure path arithmetic is
/// `Paths` in EntitlintCore).
extension Paths {
    public enum Kind { case file, directory, missing, other }

    /// What is at `path`, following a symlink given explicitly on the command line.
    public static func kind(_ path: String) -> Kind {
        var st = stat()
        guard withFileSystemPath(path, { stat($0, &st) }) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .other }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    public static let skippedFolders: Set<String> = [".git", ".build", "DerivedData", "Pods", "node_modules", ".swiftpm", "Carthage"]

    /// Every file below `root` for which `accept` is true, sorted (`sorted(_:)`); skips the usual
    /// build and dependency folders and never follows a symlinked folder (no loops). Folders are
    /// read in the order the file system gives and the result sorted once; only when `limit`
    /// files are found is the walk made again in sorted order, so that the files kept are the
    /// same on every file system. A symlinked file that `accept` takes is followed only when
    /// `followsLink` allows it (the run's `ProjectRoot`: a link leading outside is refused).
    ///
    /// A folder (below `root`) that cannot be read is not silently skipped: `unreadable` gets its
    /// path and why, so that the run reports it. Names that are not valid UTF-8 are kept as
    /// `fileSystemName` spells them, so that the files can still be opened.
    public static func walk(_ root: String, limit: Int = 1_000_000, followsLink: (String) -> Bool = { _ in true },
                            unreadable: ((String, String) -> Void)? = nil, accept: (String) -> Bool) -> [String] {
        let ignore = GitIgnore(walking: root) // .gitignore, inside a git work tree (GitIgnore.swift)
        var problems: [(String, String)] = []
        // A walk past `limit` is made twice: `followsLink` may be asked twice about a link.
        let all = walk(root, limit: limit, sorted: false, ignore: ignore, followsLink: followsLink, problems: &problems, accept: accept)
            ?? { problems = []; return walk(root, limit: limit, sorted: true, ignore: ignore, followsLink: followsLink, problems: &problems, accept: accept)! }()
        for (path, why) in problems { unreadable?(path, why) }
        return sorted(all)
    }

    /// nil when unsorted and `limit` is reached.
    private static func walk(_ root: String, limit: Int, sorted: Bool, ignore: GitIgnore?, followsLink: (String) -> Bool,
                             problems: inout [(String, String)],
                             accept: (String) -> Bool) -> [String]? {
        var out: [String] = []
        var stack = [root]
        var names: [(String, UInt8)] = []
        while let dir = stack.popLast() {
            guard let d = withFileSystemPath(dir, { opendir($0) }) else {
                problems.append((dir, FileReader.errnoText()))
                continue
            }
            names.removeAll(keepingCapacity: true)
            while let e = readdir(d) {
                let dtype = e.pointee.d_type
                let name: String? = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: UInt8.self, capacity: 256) { c in
                        // Skip `.` and `..` before making a String.
                        if c[0] == UInt8(ascii: "."), c[1] == 0 || (c[1] == UInt8(ascii: ".") && c[2] == 0) { return nil }
                        return fileSystemName(UnsafeBufferPointer(start: c, count: strlen(UnsafeRawPointer(c).assumingMemoryBound(to: CChar.self))))
                    }
                }
                if let name { names.append((name, dtype)) }
            }
            closedir(d)
            if sorted { names.sort { $0.0 < $1.0 } }
            let prefix = dir == "." ? "" : (dir.hasSuffix("/") ? dir : dir + "/")
            for (name, dtype) in names {
                let path = prefix + name
                // readdir's d_type saves an lstat per file where the file system fills it in.
                var type: mode_t
                switch Int32(dtype) {
                case Int32(DT_REG): type = S_IFREG
                case Int32(DT_DIR): type = S_IFDIR
                case Int32(DT_LNK): type = S_IFLNK
                default:
                    var st = stat()
                    guard withFileSystemPath(path, { lstat($0, &st) }) == 0 else {
                        problems.append((path, FileReader.errnoText()))
                        continue
                    }
                    type = st.st_mode & S_IFMT
                }
                if type == S_IFDIR {
                    if !skippedFolders.contains(name), ignore?.ignores(path, isDirectory: true) != true { stack.append(path) }
                } else if type == S_IFLNK {
                    // Follow symlinked files the caller allows, never symlinked folders.
                    var target = stat()
                    if accept(path), ignore?.ignores(path, isDirectory: false) != true, followsLink(path),
                       withFileSystemPath(path, { stat($0, &target) }) == 0, target.st_mode & S_IFMT == S_IFREG { out.append(path) }
                } else if type == S_IFREG, accept(path), ignore?.ignores(path, isDirectory: false) != true {
                    out.append(path)
                }
                if out.count >= limit {
                    guard sorted else { return nil }
                    return out
                }
            }
        }
        return out
    }

}
