public import EntitlintCore

/// `lint --config-from REV`: the files that decide what a run may report — every `.entitlint.yml`,
/// the baseline and the lock file — read as they are at a git revision (on a pull request, its base
/// branch), never as the working tree has them. A pull request's own copies could switch a rule
/// off, hide a finding in the baseline or record a moved default group in the lock; read from the
/// base, they cannot.
///
/// What it guarantees:
/// - every read of a configuration, baseline or lock file of the run goes through `kind` (or
///   `isFile`) and `read` (`Configuration.find(from:in:)`, `Configuration.load(path:knownRules:from:)`,
///   `Baseline.load(path:from:)`, `LockFile.load(path:from:)`, the nested-configuration walk);
///   a file the revision lacks does not exist, whatever the disk holds;
/// - git only prints the revision's tree and blobs (`GitRepository`: no filters, hooks or pagers
///   run), nothing is checked out or written, and each blob is read lazily, within `maxBytes`.
public struct TrustedFiles: Sendable {
    /// The revision as the user named it, for messages.
    public let revision: String
    let files: VirtualFiles

    /// The largest file read from the revision (the baseline's own limit; configurations and locks
    /// have smaller ones, checked by `read`).
    static let maxBytes = 64 << 20

    public init(revision: String, files: VirtualFiles) {
        self.revision = revision
        self.files = files
    }

    /// The tree of `revision` in `repository`, read lazily.
    public static func at(_ revision: String, repository: GitRepository) throws(UsageError) -> TrustedFiles {
        do {
            let commit = try repository.resolve(revision)
            let tree = try repository.files(at: commit)
            let files = VirtualFiles.git(repository, revision: commit, paths: tree, exclusive: true,
                                         maxBytes: maxBytes, maxTotalBytes: 2 * maxBytes)
            return TrustedFiles(revision: revision, files: files)
        } catch {
            throw UsageError("--config-from \(OutputText.escape(revision)): \(error.description)")
        }
    }

    /// What is at `path` in the revision: a file it holds, a folder holding some, else missing.
    public func kind(_ path: String) -> Paths.Kind { files.kind(path) }

    /// The bytes of `path` as the revision has it, at most `limit` of them.
    public func read(_ path: String, limit: Int) throws(FileReader.ReadError) -> [UInt8] {
        switch files.bytes(path) {
        case nil: throw .notFound
        case .failure(let e)?: throw .system("\(e.description) (at revision \(revision))")
        case .success(let bytes)?:
            guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
            return bytes
        }
    }

    /// The configuration files the revision holds below the folder `root` (as `Paths.walk` would
    /// find them: the usual build and dependency folders skipped), displayed as `root` is.
    public func configurations(below root: String) -> [String] {
        files.walk(root) { Paths.baseName($0) == Configuration.fileName }
    }

    /// Whether `path` is a file: in `trusted` when the run has one, else on the disk.
    public static func isFile(_ path: String, in trusted: TrustedFiles?) -> Bool {
        trusted.map { $0.files.isFile(path) } ?? (Paths.kind(path) == .file)
    }

    /// The bytes of `path`: from `trusted` when the run has one, else from the disk.
    public static func read(_ path: String, limit: Int, in trusted: TrustedFiles?) throws(FileReader.ReadError) -> [UInt8] {
        if let trusted { return try trusted.read(path, limit: limit) }
        return try FileReader.read(path, limit: limit)
    }
}
