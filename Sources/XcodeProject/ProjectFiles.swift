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
        let folder = resolvedFolders.resolved(Paths.directoryName(abs))
        return !root.contains(resolved: folder == "/" ? "/" + Paths.baseName(abs) : folder + "/" + Paths.baseName(abs))
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
}

/// Folders with their symlinks resolved, each resolved once per run (discovery runs on one thread).
final class ResolvedFolders: @unchecked Sendable {
    private var known: [String: String] = [:]

    func resolved(_ absoluteFolder: String) -> String {
        if let r = known[absoluteFolder] { return r }
        let r = Paths.resolvingSymlinks(absoluteFolder)
        known[absoluteFolder] = r
        return r
    }
}
