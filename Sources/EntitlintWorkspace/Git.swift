public import EntitlintCore
import Dispatch
import Foundation

/// A git work tree, driven through the `git` executable (never a shell): the staged files and
/// their index blobs (`--staged`), the files changed since a revision (`--changed-since`), and the
/// files as they were at a revision (`--against`).
///
/// Paths from git are relative to the top of the work tree (`git rev-parse --show-toplevel`);
/// `absolute(_:)` turns them into absolute paths, which `Paths.display` shows relative to the
/// current folder. The environment is passed on as it is: in a hook, `GIT_INDEX_FILE` names the
/// index being committed, and that is the one to read.
///
/// Entitlint runs in CI on repositories it does not trust, so git is run with what could execute
/// code turned off: `core.fsmonitor=false` (a file-system monitor hook runs whenever the work tree
/// is compared), `--no-ext-diff` and `--no-textconv` on every diff (and `GIT_EXTERNAL_DIFF`
/// removed from the environment), no pager. Blobs are read with `git cat-file`, which applies no
/// textconv or filter. Filter drivers (`filter.*.clean`) can only be defined in git's own
/// configuration, never by a file of the repository.
public struct GitRepository: Sendable {
    /// The absolute path of the top of the work tree.
    public let topLevel: String

    public struct GitError: Error, CustomStringConvertible, Sendable, Equatable {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// The repository containing `directory` (default: the current folder).
    public static func open(at directory: String = ".") throws(GitError) -> GitRepository {
        let cwd = Paths.absolute(directory)
        let r = try run(["rev-parse", "--show-toplevel"], in: cwd)
        guard r.status == 0 else {
            let why = r.errorText
            if why.contains("not a git repository") {
                throw GitError("\(Paths.display(cwd)) is not in a git repository (\(why))")
            }
            throw GitError("cannot find the git work tree: \(why.isEmpty ? "git rev-parse failed" : why)")
        }
        let top = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
        guard top.hasPrefix("/") else { throw GitError("cannot find the git work tree (a bare repository?)") }
        return GitRepository(topLevel: top)
    }

    /// `top/relative`, as an absolute path.
    public func absolute(_ relative: String) -> String {
        topLevel == "/" ? "/" + relative : topLevel + "/" + relative
    }

    /// `absolute` relative to the top of the work tree, or nil when it lies outside.
    public func relative(_ absolute: String) -> String? {
        if absolute == topLevel { return "" }
        let base = topLevel.hasSuffix("/") ? topLevel : topLevel + "/"
        return absolute.hasPrefix(base) ? String(absolute.dropFirst(base.count)) : nil
    }

    // MARK: - Questions

    /// The files added, copied, modified or renamed in the index (what `git commit` would record),
    /// relative to the top of the work tree.
    public func stagedPaths() throws(GitError) -> [String] {
        try names(["diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--"])
    }

    /// The files added, copied, modified or renamed between `revision` and the work tree.
    public func changedPaths(since revision: String) throws(GitError) -> [String] {
        let commit = try resolve(revision)
        return try names(["diff", "--name-only", "--diff-filter=ACMR", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", commit, "--"])
    }

    /// Every file of the tree of `revision`, relative to the top.
    public func files(at revision: String) throws(GitError) -> [String] {
        let commit = try resolve(revision)
        return try names(["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit])
    }

    /// The commit id `revision` names; a clear error when it names nothing here (a typo, or a
    /// commit a shallow clone does not have).
    public func resolve(_ revision: String) throws(GitError) -> String {
        guard !revision.isEmpty, !revision.hasPrefix("-") else { throw GitError("'\(revision)' is not a revision") }
        let r = try Self.run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: topLevel)
        let oid = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, !oid.isEmpty else {
            var message = "revision '\(revision)' is not in this repository"
            if isShallow() {
                message += " (this is a shallow clone: fetch it first, e.g. `git fetch --depth=1 origin \(revision)`)"
            }
            throw GitError(message)
        }
        return oid
    }

    public func isShallow() -> Bool {
        guard let r = try? Self.run(["rev-parse", "--is-shallow-repository"], in: topLevel), r.status == 0 else { return false }
        return String(decoding: r.stdout, as: UTF8.self).hasPrefix("true")
    }

    /// The contents of blobs named the way `git cat-file` names them: `:path` (the index),
    /// `REV:path` (a revision). One `git cat-file --batch` for all of them; a name that names no
    /// blob maps to nil.
    public func blobs(_ objectNames: [String]) throws(GitError) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        // Batch mode reads one name a line: names with a newline go one `git cat-file` each.
        let batchable = objectNames.filter { !$0.contains("\n") }
        for name in objectNames where name.contains("\n") {
            let r = try Self.run(["cat-file", "blob", name], in: topLevel)
            if r.status == 0 { out[name] = r.stdout }
        }
        guard !batchable.isEmpty else { return out }
        var input: [UInt8] = []
        for name in batchable { input += Array(name.utf8) + [0x0A] }
        let r = try Self.run(["cat-file", "--batch"], in: topLevel, input: input)
        guard r.status == 0 else { throw GitError("git cat-file failed: \(r.errorText)") }
        // Each answer: `<oid> blob <size>\n<contents>\n`, or `<name> missing\n`.
        let bytes = r.stdout
        var i = 0
        for name in batchable {
            guard let eol = bytes[i...].firstIndex(of: 0x0A) else { throw GitError("git cat-file: unexpected end of output") }
            let header = String(decoding: bytes[i..<eol], as: UTF8.self)
            i = eol + 1
            let fields = header.split(separator: " ")
            if fields.count == 3, let size = Int(fields[2]) {
                guard i + size <= bytes.count else { throw GitError("git cat-file: unexpected end of output") }
                if fields[1] == "blob" { out[name] = Array(bytes[i..<(i + size)]) }
                i += size + 1
            }
            // `missing` or `ambiguous`: no contents follow.
        }
        return out
    }

    // MARK: - Running git

    func names(_ arguments: [String]) throws(GitError) -> [String] {
        let r = try Self.run(arguments, in: topLevel)
        guard r.status == 0 else { throw GitError("git \(arguments.first ?? "") failed: \(r.errorText)") }
        return r.stdout.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        var errorText: String {
            String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: "\n", with: "; ")
        }
    }

    /// The `git` executable: the first `git` on `PATH`.
    static func executable() -> String? {
        let env = ProcessInfo.processInfo.environment
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `git ARGUMENTS` in `directory`, without a shell, feeding `input` on standard input.
    public static func run(_ arguments: [String], in directory: String, input: [UInt8]? = nil) throws(GitError) -> Output {
        guard let git = executable() else { throw GitError("git is not installed (no `git` on PATH)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        // No pager, no colour, paths as they are (not quoted octal escapes).
        process.arguments = ["--no-pager", "-c", "core.quotepath=false", "-c", "color.ui=false", "-c", "core.fsmonitor=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_EXTERNAL_DIFF"] = nil
        environment["GIT_PAGER"] = nil
        environment["LC_ALL"] = "C"
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch {
            throw GitError("cannot run \(git): \(error.localizedDescription)")
        }
        // Write standard input and read standard error on their own threads, so that no pipe
        // fills up while another is waited on.
        let group = DispatchGroup()
        let errorBox = DataBox()
        DispatchQueue.global().async(group: group) {
            errorBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
        }
        let writer = stdin.fileHandleForWriting
        if let input {
            let data = Data(input)
            DispatchQueue.global().async(group: group) {
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        } else {
            try? writer.close()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: Array(out), stderr: Array(errorBox.data))
    }
}

/// A value handed back from a reader thread (written once, read after `DispatchGroup.wait`).
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
