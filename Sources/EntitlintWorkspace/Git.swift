import EntitlintCore
import Dispatch
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

/// A git work tree, driven through the `git` executable (never a shell): the staged files and
/// their index blobs (`--staged`), the files changed since a revision (`--changed-since`), and the
/// files as they were at a revision (`--against`).
///
/// Paths from git are relative to the top of the work tree (`git rev-parse --show-toplevel`);
/// `absolute(_:)` turns them into absolute paths, which `Paths.display` shows relative to the
/// current folder. The environment is passed on as it is, apart from what is hardened below: in
/// a hook, `GIT_INDEX_FILE` names the index being committed, and that is the one to read.
///
/// Entitlint runs in CI on repositories it does not trust, and a repository's `.git/config` can
/// name commands git runs. So git is never asked to look at the work tree (which runs clean
/// filters and refreshes the index, firing hooks): work-tree files are hashed here
/// (`GitObjectID`) and compared with `git ls-tree`. The commands run only read the object store
/// and the index (`rev-parse`, `ls-tree`, `ls-files --stage`, `diff --cached --raw`, `cat-file`),
/// none of which applies attributes, filters or textconv, and every one runs with
/// - hooks off (`core.hooksPath=/dev/null`) and the file-system monitor off (`core.fsmonitor`);
/// - no lazy fetch of a partial clone's missing objects (`GIT_NO_LAZY_FETCH=1`) and, since older
///   git ignores that, no transport at all: `GIT_ALLOW_PROTOCOL` empty allows no protocol, and it
///   wins over the repository's `protocol.*.allow` (an `ext::` promisor remote runs nothing);
/// - no optional locks (`GIT_OPTIONAL_LOCKS=0`: the index is never rewritten), no pager, no
///   prompt, no external diff.
/// Output is read bounded (`Output.limit`): blob sizes are asked first (`cat-file --batch-check`)
/// and only blobs within the limits are read, each once.
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
        let top = String(decoding: r.stdout, as: UTF8.self).trimmingNewlines()
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

    /// The regular files added, copied, modified, renamed or changed in type (a symlink that
    /// became a file) in the index: what `git commit` would record, relative to the top of the
    /// work tree. A staged symlink is not listed (its blob is the link's text, not a file to lint);
    /// deletions are not.
    public func stagedPaths() throws(GitError) -> [String] {
        let r = try Self.run(["diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--no-textconv",
                              "--diff-filter=ACMRT", "--"], in: topLevel, limit: Self.listLimit)
        guard r.status == 0 else { throw GitError("git diff --cached failed: \(r.errorText)") }
        return GitOutput.rawDiff(r.stdout).filter { $0.newMode.hasPrefix("100") }.map(\.path)
    }

    /// The tracked files of the work tree that differ from `revision` (added since, changed, or
    /// changed in type), among those `accept` takes, relative to the top. Deleted files are not
    /// listed. Git never looks at the work tree here: each file is hashed as a blob and compared
    /// with the revision's tree. A file over `maxBytes` is listed without being read (the lint
    /// then reports it as too large); a file whose bytes differ only by a clean filter git would
    /// apply (line endings) is listed too: more is linted, never less.
    public func changedPaths(since revision: String, maxBytes: Int, accept: (String) -> Bool) throws(GitError) -> [String] {
        let commit = try resolve(revision)
        let format = objectFormat()
        let tree = try Self.run(["ls-tree", "-r", "-z", "--full-tree", commit], in: topLevel, limit: Self.listLimit)
        guard tree.status == 0 else { throw GitError("git ls-tree failed: \(tree.errorText)") }
        var before: [String: GitOutput.TreeEntry] = [:]
        for e in GitOutput.lsTree(tree.stdout) where accept(e.path) { before[e.path] = e }
        let index = try Self.run(["ls-files", "--stage", "-z"], in: topLevel, limit: Self.listLimit)
        guard index.status == 0 else { throw GitError("git ls-files failed: \(index.errorText)") }
        var out: [String] = []
        for entry in GitOutput.lsFilesStage(index.stdout) where accept(entry.path) {
            guard let now = Self.workTreeBlob(absolute(entry.path), maxBytes: maxBytes, format: format) else { continue }
            let old = before[entry.path]
            let same = old.map { $0.isSymlink == now.isSymlink && !$0.mode.hasPrefix("160") && now.oid == $0.oid } ?? false
            if !same { out.append(entry.path) }
        }
        return out.sorted()
    }

    /// What is at `path` in the work tree, as git would store it: a regular file's contents or a
    /// symlink's target, hashed. Nil for nothing there, a folder or anything else; `oid` nil for
    /// a file over `maxBytes` (not read).
    static func workTreeBlob(_ path: String, maxBytes: Int, format: GitObjectID.Format) -> (isSymlink: Bool, oid: String?)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFLNK:
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { readlink(path, $0, p.count) }
            }
            guard n >= 0, n < buffer.count else { return (true, nil) }
            return (true, GitObjectID.blob(Array(buffer[0..<n]), format: format))
        case S_IFREG:
            guard Int(st.st_size) <= maxBytes, let bytes = try? FileReader.read(path, limit: maxBytes) else { return (false, nil) }
            return (false, GitObjectID.blob(bytes, format: format))
        default:
            return nil
        }
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
        let oid = String(decoding: r.stdout, as: UTF8.self).trimmingWhitespace()
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

    /// The repository's object format (`sha1` unless it says `sha256`).
    public func objectFormat() -> GitObjectID.Format {
        guard let r = try? Self.run(["rev-parse", "--show-object-format"], in: topLevel), r.status == 0 else { return .sha1 }
        return String(decoding: r.stdout, as: UTF8.self).hasPrefix("sha256") ? .sha256 : .sha1
    }

    /// What reading one blob gave: its bytes (and its object id, when read from git: names that
    /// share it hold the same bytes), or why they were not read.
    public enum Blob: Sendable, Hashable {
        case bytes([UInt8], oid: String?)
        case unreadable(String)
    }

    /// The blobs named the way `git cat-file` names them: `:path` (the index), `REV:path` (a
    /// revision). Their sizes are asked first (`git cat-file --batch-check`); a blob over
    /// `maxBytes`, or past what `budget` has left, is not read (`.unreadable`, saying which limit);
    /// the others are read with one `git cat-file --batch`, each object once however many names
    /// share it, and charged to `budget` once. A name that names no blob (absent there, or an object a partial clone lacks:
    /// nothing is ever fetched) is `.unreadable` too.
    public func blobs(_ objectNames: [String], maxBytes: Int, budget: ReadBudget) throws(GitError) -> [String: Blob] {
        var out: [String: Blob] = [:]
        // Batch mode reads one name a line: a name with a line break is resolved to its id first.
        var asked: [(name: String, query: String)] = []
        for name in objectNames {
            guard name.contains("\n") || name.contains("\r") else { asked.append((name, name)); continue }
            let r = try Self.run(["rev-parse", "--verify", "--quiet", name], in: topLevel, limit: 4096)
            let oid = String(decoding: r.stdout, as: UTF8.self).trimmingWhitespace()
            if r.status == 0, oid.utf8.allSatisfy(GitOutput.isHexDigit), !oid.isEmpty { asked.append((name, oid)) } else { out[name] = .unreadable(Self.noBlob) }
        }
        guard !asked.isEmpty else { return out }
        var input: [UInt8] = []
        for a in asked { input += Array(a.query.utf8) + [0x0A] }
        let check = try Self.run(["cat-file", "--batch-check"], in: topLevel, input: input, limit: input.count + 128 * asked.count)
        guard check.status == 0 else { throw GitError("git cat-file --batch-check failed: \(check.errorText)") }
        let infos = GitOutput.batchCheck(check.stdout)
        guard infos.count == asked.count else { throw GitError("git cat-file --batch-check: unexpected output") }
        var wanted: [(oid: String, size: Int)] = []
        var seen = Set<String>()
        var oidOf: [String: String] = [:]
        for (a, info) in zip(asked, infos) {
            guard case .object(let oid, let type, let size) = info, type == "blob" else { out[a.name] = .unreadable(Self.noBlob); continue }
            guard size <= maxBytes else {
                out[a.name] = .unreadable("\(FileReader.ReadError.tooLarge(limit: maxBytes)); it holds \(size) bytes")
                continue
            }
            if !seen.contains(oid) {
                guard budget.take(size) else { out[a.name] = .unreadable(FileReader.ReadError.overBudget.description); continue }
                seen.insert(oid)
                wanted.append((oid, size))
            }
            oidOf[a.name] = oid
        }
        guard !wanted.isEmpty else { return out }
        var request: [UInt8] = []
        for w in wanted { request += Array(w.oid.utf8) + [0x0A] }
        let expected = wanted.reduce(0) { $0 + $1.size + $1.oid.utf8.count + 40 }
        let r = try Self.run(["cat-file", "--batch"], in: topLevel, input: request, limit: expected, expected: expected)
        guard r.status == 0 else { throw GitError("git cat-file failed: \(r.errorText)") }
        guard let contents = GitOutput.batch(r.stdout, expected: wanted) else { throw GitError("git cat-file --batch: unexpected output") }
        for (name, oid) in oidOf { out[name] = contents[oid].map { .bytes($0, oid: oid) } ?? .unreadable(Self.noBlob) }
        return out
    }

    static let noBlob = "git has no such file there (or, in a partial clone, does not hold it here: nothing is fetched)"
}
