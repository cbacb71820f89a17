import EntitlintCore
import EntitlintWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How discovery reads project inputs: through the run's virtual files when they hold a path
/// (`--staged`: the index over the work tree; `--against`: a revision's tree, exclusively), else
/// from the disk, bounded by `--max-file-size`.
/// Why a file could not be read.
struct ReadFailure: Error, CustomStringConvertible, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
    static let missing = ReadFailure("no such file")
    static let outside = ReadFailure("outside the project root (symbolic links resolved): not read")
}

struct ProjectFiles: @unchecked Sendable {
    let reading: DiscoveryFiles
    let cwd: String
    /// What the projects of the run may read (`ProjectRoot`): every file a project file names
    /// must resolve inside it.
    let root: ProjectRoot
    private let resolvedFolders = ResolvedFolders()

    init(_ request: DiscoveryRequest) {
        reading = request.reading
        cwd = request.cwd
        root = request.projectRoot()
    }

    /// The files of a run with `options` (tests, the fuzz harness).
    init(options: LintOptions, cwd: String) { self.init(DiscoveryRequest(files: [], options: options, cwd: cwd)) }

    func kind(_ path: String) -> Paths.Kind { reading.kind(path) }

    /// Whether `path` resolves outside the project root (or into its `.git` folder): such a file
    /// is never read, and a reference to it is a problem that names the reference, not the file.
    func isOutside(_ path: String) -> Bool {
        let abs = absolute(path)
        // The folder is resolved once (a project reads many files from few folders); the file
        // itself costs one lstat, and a symlinked file is resolved whole.
        var st = stat()
        if lstat(abs, &st) == 0, st.st_mode & S_IFMT == S_IFLNK { return !root.contains(resolved: Paths.resolvingSymlinks(abs)) }
        let folder = resolvedFolders.resolved(Self.folderName(abs), root: root)
        let base = Paths.baseName(abs)
        // A plain name in a folder that lies inside the root lies inside too (below the same root,
        // its own name the one component added): `contains` is asked once per folder, not per file.
        // Only when the root, the folder and the name are ASCII: string comparison, prefixes and
        // characters are then those of the bytes.
        if folder.isInside, Self.isPlainName(base) { return false }
        return !root.contains(resolved: folder.path == "/" ? "/" + base : folder.path + "/" + base)
    }

    /// `Paths.directoryName(path)`, over the bytes when they are all ASCII (each byte is then its
    /// own character, so the last `/` byte is the last `/` character).
    static func folderName(_ path: String) -> String {
        let ascii = path.utf8.withContiguousStorageIfAvailable { b -> String? in
            var i = b.count - 1
            while i >= 0 {
                if b[i] >= 0x80 { return nil }
                if b[i] == UInt8(ascii: "/") {
                    if i == 0 { return "/" }
                    for c in b[..<i] where c >= 0x80 { return nil }
                    return String(decoding: UnsafeBufferPointer(rebasing: b[..<i]), as: UTF8.self)
                }
                i -= 1
            }
            for c in b where c >= 0x80 { return nil }
            return "."
        }
        return (ascii ?? nil) ?? Paths.directoryName(path)
    }

    /// A non-empty ASCII file name without `/`, other than `.`, `..` and `.git`: appended to an
    /// ASCII folder, it adds exactly one path component, and not a `.git` one.
    static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != "..", name != ".git" else { return false }
        return name.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "/") }
    }

    /// The bytes of `path`; a path outside the project root is refused unread.
    func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        guard !isOutside(path) else { return .failure(.outside) }
        if let virtual = reading.virtualFiles {
            switch virtual.bytes(path, cwd: cwd) {
            case .success(let bytes)?:
                guard bytes.count <= reading.limits.maxBytes else {
                    return .failure(ReadFailure("\(FileReader.ReadError.tooLarge(limit: reading.limits.maxBytes))"))
                }
                return .success(bytes)
            case .failure(let error)?:
                return .failure(ReadFailure("cannot read the file from git: \(error)"))
            case nil:
                if virtual.exclusive { return .failure(.missing) }
            }
        }
        do {
            return .success(try FileReader.read(path, limit: reading.limits.maxBytes))
        } catch {
            return .failure(error == .notFound ? .missing : ReadFailure("\(error)"))
        }
    }

    /// The files below `folder` that `accept` takes, bounded as every walk of the run; a symlinked
    /// file is taken only when it resolves inside the project root (symlinked folders are never
    /// followed).
    func walk(_ folder: String, accept: (String) -> Bool) -> [String] {
        reading.walk(folder, followsLink: { !isOutside($0) }, accept: accept)
    }

    func shown(_ path: String) -> String { Paths.display(path, cwd: cwd) }

    func absolute(_ path: String) -> String { Paths.absolute(path, cwd: cwd) }

    /// `base/relative`, or `relative` when it is absolute; `.` and `..` kept (resolved on use).
    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return relative }
        if relative.isEmpty { return base }
        if base.isEmpty || base == "." { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// `path` with `.` and `..` components folded, relative paths kept relative.
    static func normalize(_ path: String) -> String {
        // A path without `.`, `..` or empty components (the usual one) is its own normal form.
        if isNormal(path) { return path }
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for p in path.split(separator: "/", omittingEmptySubsequences: true) {
            if p == "." { continue }
            if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if p == "..", absolute { continue }
            parts.append(p)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Whether `normalize` gives `path` back: not empty, no trailing `/`, and, split at every `/`
    /// byte after a leading one, no empty, `.` or `..` component. Splitting at characters instead
    /// (as `normalize` does) only merges such components, so it finds none either.
    static func isNormal(_ path: String) -> Bool {
        let answer = path.utf8.withContiguousStorageIfAvailable { b -> Bool in
            guard !b.isEmpty, b[b.count - 1] != UInt8(ascii: "/") else { return false }
            var start = b[0] == UInt8(ascii: "/") ? 1 : 0
            var i = start
            while i <= b.count {
                if i == b.count || b[i] == UInt8(ascii: "/") {
                    let n = i - start
                    if n == 0 { return false }
                    if n <= 2, b[start] == UInt8(ascii: "."), n == 1 || b[start + 1] == UInt8(ascii: ".") { return false }
                    start = i + 1
                }
                i += 1
            }
            return true
        }
        return answer ?? false
    }
}

/// Folders with their symlinks resolved, each resolved once per run (discovery runs on one thread),
/// with whether the resolved folder lies inside the root, the two all ASCII (so that a plain name
/// appended to it stays inside: `ProjectFiles.isOutside`).
final class ResolvedFolders: @unchecked Sendable {
    private var known: [String: (path: String, isInside: Bool)] = [:]
    private var rootIsASCII: Bool?

    func resolved(_ absoluteFolder: String, root: ProjectRoot) -> (path: String, isInside: Bool) {
        if let r = known[absoluteFolder] { return r }
        let path = Paths.resolvingSymlinks(absoluteFolder)
        let ascii = rootIsASCII ?? root.folders.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        rootIsASCII = ascii
        let r = (path, ascii && path.utf8.allSatisfy { $0 < 0x80 } && root.contains(resolved: path))
        known[absoluteFolder] = r
        return r
    }
}
