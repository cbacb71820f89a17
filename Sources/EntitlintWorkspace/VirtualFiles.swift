public import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import PropertyList

/// Files a run reads from somewhere other than the disk: the git index (`--staged`) or the tree of
/// a revision (`--against`). Their bytes go through `DocumentReader.parse(bytes:path:limits:)`; nothing is
/// written to disk for them.
///
/// Paths are keyed absolute. An *exclusive* set is the whole world of its run (a revision's tree):
/// a path it does not hold does not exist. A non-exclusive set lies over the disk (the index over
/// the work tree): the paths it holds are read from it, every other path from the disk.
public final class VirtualFiles: @unchecked Sendable {
    public let exclusive: Bool
    /// Absolute paths, sorted.
    public let paths: [String]
    private let pathSet: Set<String>
    private let loader: @Sendable ([String]) -> Result<[String: GitRepository.Blob], GitRepository.GitError>
    private let lock = MutexLock()
    private var contents: [String: GitRepository.Blob] = [:]

    /// `loader` returns the bytes of the absolute paths it is given, or why one was not read (a
    /// path it leaves out has no such blob); it is called once per batch of paths not read yet.
    public init(paths: [String], exclusive: Bool,
                loader: @escaping @Sendable ([String]) -> Result<[String: GitRepository.Blob], GitRepository.GitError>) {
        self.paths = paths.sorted()
        self.pathSet = Set(paths)
        self.exclusive = exclusive
        self.loader = loader
    }

    /// In-memory files (for tests and library users).
    public convenience init(files: [String: [UInt8]], exclusive: Bool) {
        self.init(paths: Array(files.keys), exclusive: exclusive) { wanted in
            .success(files.filter { wanted.contains($0.key) }.mapValues { .bytes($0, oid: nil) })
        }
    }

    /// The index (`:path`) or a revision's tree (`REV:path`) of `repository`: `paths` are
    /// relative to its top, `revision` nil for the index. A blob over `maxBytes` is not read, and
    /// all the blobs read take at most `maxTotalBytes` (`GitRepository.blobs`).
    public static func git(_ repository: GitRepository, revision: String?, paths: [String], exclusive: Bool,
                           maxBytes: Int, maxTotalBytes: Int) -> VirtualFiles {
        let prefix = (revision ?? "") + ":"
        let budget = ReadBudget(limit: maxTotalBytes)
        return VirtualFiles(paths: paths.map(repository.absolute), exclusive: exclusive) { wanted in
            var names: [String: String] = [:]
            for abs in wanted {
                if let rel = repository.relative(abs) { names[prefix + rel] = abs }
            }
            let blobs: [String: GitRepository.Blob]
            do throws(GitRepository.GitError) {
                blobs = try repository.blobs(Array(names.keys), maxBytes: maxBytes, budget: budget)
            } catch { return .failure(error) }
            var out: [String: GitRepository.Blob] = [:]
            for (name, bytes) in blobs { if let abs = names[name] { out[abs] = bytes } }
            return .success(out)
        }
    }

    public func contains(_ path: String, cwd: String) -> Bool {
        pathSet.contains(Paths.absolute(path, cwd: cwd))
    }

    /// What is at `path`: a file of the set, a folder holding some (exclusive sets only), else
    /// what the disk says (non-exclusive), else missing.
    /// Whether `path` is a file of the set (or, for a set that is not exclusive, of the disk): one
    /// lookup, where `kind` may scan every path to tell a folder from a missing file.
    public func isFile(_ path: String, cwd: String = Paths.currentDirectory()) -> Bool {
        let abs = Paths.absolute(path, cwd: cwd)
        return pathSet.contains(abs) || (!exclusive && Paths.kind(abs) == .file)
    }

    public func kind(_ path: String, cwd: String = Paths.currentDirectory()) -> Paths.Kind {
        let abs = Paths.absolute(path, cwd: cwd)
        if pathSet.contains(abs) { return .file }
        guard exclusive else { return Paths.kind(path) }
        let prefix = abs == "/" ? "/" : abs + "/"
        return paths.contains { $0.hasPrefix(prefix) } ? .directory : .missing
    }

    /// The files below `root` for which `accept` is true, as `Paths.walk` gives them (sorted, the
    /// usual build and dependency folders skipped); a non-exclusive set adds the disk's.
    public func walk(_ root: String, cwd: String = Paths.currentDirectory(), followsLink: (String) -> Bool = { _ in true },
                     unreadable: ((String, String) -> Void)? = nil, accept: (String) -> Bool) -> [String] {
        var out = exclusive ? [] : Paths.walk(root, followsLink: followsLink, unreadable: unreadable, accept: accept)
        var seen = Set(out.map { Paths.absolute($0, cwd: cwd) })
        let absRoot = Paths.absolute(root, cwd: cwd)
        let prefix = absRoot == "/" ? "/" : absRoot + "/"
        for abs in paths where abs.hasPrefix(prefix) && !seen.contains(abs) {
            let rel = String(abs.dropFirst(prefix.count))
            let folders = rel.split(separator: "/").dropLast()
            if folders.contains(where: { Paths.skippedFolders.contains(String($0)) }) { continue }
            let shown = root == "." ? rel : (root.hasSuffix("/") ? root + rel : root + "/" + rel)
            if accept(shown) {
                out.append(shown)
                seen.insert(abs)
            }
        }
        return out.sorted()
    }

    /// The bytes of `path`, when the set holds it.
    public func bytes(_ path: String, cwd: String = Paths.currentDirectory()) -> Result<[UInt8], GitRepository.GitError>? {
        let abs = Paths.absolute(path, cwd: cwd)
        guard pathSet.contains(abs) else { return nil }
        switch prefetch([abs]) {
        case .failure(let e): return .failure(e)
        case .success:
            lock.lock()
            defer { lock.unlock() }
            switch contents[abs] {
            case .bytes(let b, _)?: return .success(b)
            case .unreadable(let why)?: return .failure(GitRepository.GitError(why))
            case nil: return .failure(GitRepository.GitError(GitRepository.noBlob))
            }
        }
    }

    /// Reads every not-yet-read path of `absolutePaths` the set holds, in one batch.
    @discardableResult
    func prefetch(_ absolutePaths: [String]) -> Result<Void, GitRepository.GitError> {
        lock.lock()
        let missing = absolutePaths.filter { pathSet.contains($0) && contents[$0] == nil }
        lock.unlock()
        guard !missing.isEmpty else { return .success(()) }
        switch loader(missing) {
        case .failure(let e): return .failure(e)
        case .success(let found):
            lock.lock()
            for (k, v) in found { contents[k] = v }
            lock.unlock()
            return .success(())
        }
    }

    /// The paths of the set read so far that could not be read, with why (absolute, sorted).
    public func unreadable() -> [(path: String, reason: String)] {
        lock.lock()
        defer { lock.unlock() }
        return contents.compactMap { path, blob in
            if case .unreadable(let why) = blob { return (path, why) }
            return nil
        }.sorted { $0.path < $1.path }
    }

    /// Paths read from git at a time by `parse`: their bytes are dropped once parsed, so that the
    /// bytes held at once stay near `parseChunk` files (16 of the largest allowed, 256 MiB, by
    /// default), whatever `max-total-bytes` allows in all.
    static let parseChunk = 16

    /// Parses `paths` (as given to the linter): those of the set from their bytes, the others
    /// from the disk. Paths that share one git object (and one extension, which decides how the
    /// bytes are read) are parsed once: many paths naming one large blob cost one parse. The set's
    /// files are read `parseChunk` at a time and their bytes dropped once parsed (a later
    /// `bytes(_:)` for one reads it again).
    public func parse(_ paths: [String], limits: PlistLimits, cwd: String = Paths.currentDirectory()) -> [ParsedInput] {
        let absolutes = paths.map { Paths.absolute($0, cwd: cwd) }
        var out = [ParsedInput](repeating: .failed(reason: "", location: .unknown), count: paths.count)
        var parsedObjects: [String: ParsedInput] = [:]
        let inSet = paths.indices.filter { pathSet.contains(absolutes[$0]) }
        for i in paths.indices where !pathSet.contains(absolutes[i]) { out[i] = DocumentReader.parse(path: paths[i], limits: limits) }
        var start = 0
        while start < inSet.count {
            let chunk = inSet[start..<min(start + Self.parseChunk, inSet.count)]
            start = chunk.endIndex
            let batch = prefetch(chunk.map { absolutes[$0] })
            for i in chunk {
                out[i] = parseOne(paths[i], absolutes[i], batch: batch, limits: limits, parsedObjects: &parsedObjects)
            }
            lock.lock()
            for i in chunk { if case .bytes? = contents[absolutes[i]] { contents[absolutes[i]] = nil } }
            lock.unlock()
        }
        return out
    }

    private func parseOne(_ path: String, _ abs: String, batch: Result<Void, GitRepository.GitError>, limits: PlistLimits,
                          parsedObjects: inout [String: ParsedInput]) -> ParsedInput {
        if case .failure(let e) = batch {
            return .unread(reason: "cannot read the file from git: \(e)", rule: ToolFindings.unreadablePath)
        }
        lock.lock()
        let blob = contents[abs]
        lock.unlock()
        let bytes: [UInt8], oid: String?
        switch blob {
        case .bytes(let b, let id)?: (bytes, oid) = (b, id)
        case .unreadable(let why)?: return .unread(reason: "cannot read the file from git: \(why)", rule: ToolFindings.unreadablePath)
        case nil: return .unread(reason: "cannot read the file from git: \(GitRepository.noBlob)", rule: ToolFindings.unreadablePath)
        }
        guard bytes.count <= limits.maxBytes else {
            return .unread(reason: "cannot read the file: \(FileReader.ReadError.tooLarge(limit: limits.maxBytes))", rule: ToolFindings.readLimit)
        }
        guard let oid else { return DocumentReader.parse(bytes: bytes, path: path, limits: limits) }
        let key = oid + "/" + InputFiles.ext(path) + (InputFiles.isProfilePath(path) ? "/profile" : "")
        if let known = parsedObjects[key] { return known }
        let parsed = DocumentReader.parse(bytes: bytes, path: path, limits: limits)
        parsedObjects[key] = parsed
        return parsed
    }
}
