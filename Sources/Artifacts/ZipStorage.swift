/// A zip archive (`.ipa`), read entry by entry with `ZipArchive` (which checks the archive's
/// structure, see there).
///
/// Limits (see `ZipLimits`): entries whose path is absolute, has a `..` component or a backslash,
/// is longer than `maxNameLength` bytes or deeper than `maxPathDepth` parts, and symlinks, are
/// skipped and reported (nothing is extracted, so they could not escape anyway); two entries of
/// the same path refuse the archive (which one a tool reads is ambiguous); an entry is read only
/// up to the size its header declares and the caller's limit, and reading stops if it expands
/// past it; the total expanded and the compression ratio of big entries are capped, so a zip bomb
/// is refused, not expanded. Folders are kept as a tree of names, at most `maxEntries` of them,
/// so memory grows with the bytes of the names, not with their depth.
final class ZipStorage: BundleStorage {
    let archive: ZipArchive
    let shownRoot: String
    let limits: ZipLimits
    var entries: [String: ZipEntry] = [:]
    let root = ZipFolder()
    var problems: [String] = []
    /// Bytes counted against `ZipLimits.maxExpandedTotal` so far, across entries and passes.
    var expanded = 0

    final class ZipFolder {
        var folders: [String: ZipFolder] = [:]
        /// Files and folders in it.
        var names = Set<String>()
    }

    init(path: String, shownRoot: String, limits: ZipLimits = .default) throws(ArtifactError) {
        self.shownRoot = shownRoot
        self.limits = limits
        do {
            archive = try ZipArchive(path: path, limits: limits)
        } catch {
            throw ArtifactError(error.code, "not a readable zip archive: \(error.reason)")
        }
        // Skipped entries: the first three of each kind are reported by name, the rest counted.
        var skipped = [0, 0, 0]
        var folderCount = 0
        func skip(_ kind: Int, _ name: String, _ why: String) {
            skipped[kind] += 1
            if skipped[kind] <= 3 { problems.append("zip entry \(Self.quoted(name)) \(why): skipped") }
        }
        for entry in archive.entries {
            let name = entry.name
            if entry.nameBytes > limits.maxNameLength {
                skip(0, name, "has a name of \(entry.nameBytes) bytes, longer than \(limits.maxNameLength) (limit ZipLimits.maxNameLength)")
                continue
            }
            let parts = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            if parts.count > limits.maxPathDepth {
                skip(1, name, "has a path of \(parts.count) parts, deeper than \(limits.maxPathDepth) (limit ZipLimits.maxPathDepth)")
                continue
            }
            if name.hasPrefix("/") || name.contains("\\") || parts.contains(where: { $0.elementsEqual("..".utf8) }) {
                skip(2, name, "has an unsafe path (absolute or with ..)")
                continue
            }
            if entry.isSymlink || parts.isEmpty { continue }
            let components = parts.map { String(decoding: $0, as: UTF8.self) }
            let key = components.joined(separator: "/")
            // Register every folder on the way (zip files need not list folders).
            var folder = root
            for (i, part) in components.enumerated() {
                folder.names.insert(part)
                guard i < components.count - 1 || entry.isDirectory else { break }
                if let sub = folder.folders[part] {
                    folder = sub
                } else {
                    // Each folder costs a few hundred bytes: as many as entries at the most.
                    folderCount += 1
                    guard folderCount <= limits.maxEntries else {
                        throw ArtifactError(.tooLarge, "not a readable zip archive: more than \(limits.maxEntries) folders (limit ZipLimits.maxEntries)")
                    }
                    let sub = ZipFolder()
                    folder.folders[part] = sub
                    folder = sub
                }
            }
            guard !entry.isDirectory else { continue }
            guard entries[key] == nil else {
                throw ArtifactError(.badArchive, "not a readable zip archive: two entries are named \(Self.quoted(key)) (which one a tool reads is ambiguous), not read")
            }
            entries[key] = entry
        }
        let more = ["with names longer than \(limits.maxNameLength) bytes skipped (limit ZipLimits.maxNameLength)",
                    "with paths deeper than \(limits.maxPathDepth) parts skipped (limit ZipLimits.maxPathDepth)",
                    "with unsafe paths skipped"]
        for (kind, n) in skipped.enumerated() where n > 3 { problems.append("\(n - 3) more zip entries \(more[kind])") }
    }

    /// A name for a message: quoted, and cut to 120 bytes (names are up to 64 KiB).
    static func quoted(_ name: String) -> String {
        name.utf8.count <= 120 ? "\"\(name)\"" : "\"\(String(decoding: name.utf8.prefix(120), as: UTF8.self))\"... (\(name.utf8.count) bytes)"
    }

    func folder(_ path: String) -> ZipFolder? {
        var folder = root
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let sub = folder.folders[String(part)] else { return nil }
            folder = sub
        }
        return folder
    }

    /// Counts `declared` bytes against the archive's expansion budget before reading them.
    func account(_ declared: UInt64, _ path: String) throws(ArtifactError) {
        guard declared <= UInt64(limits.maxExpandedTotal - expanded) else {
            throw ArtifactError(.tooLarge, "\(shown(path)) would take the bytes expanded from the archive past \(limits.maxExpandedTotal) (limit ZipLimits.maxExpandedTotal): a zip bomb, not read")
        }
        expanded += Int(declared)
    }

    /// The entry at `path`, after the checks every read makes: the caller's size limit, the
    /// compression ratio of big entries, and the expansion budget (counted here).
    func entry(_ path: String, limit: UInt64) throws(ArtifactError) -> ZipEntry {
        guard let entry = entries[path] else { throw ArtifactError(.unreadable, "\(shown(path)): no such zip entry") }
        let declared = entry.uncompressedSize
        guard declared <= limit else {
            throw ArtifactError(.tooLarge, "\(shown(path)) expands to \(declared) bytes (limit \(limit))")
        }
        // compressedSize is at most the file's size, so the product cannot overflow.
        if declared >= UInt64(limits.ratioCheckMinimum), declared > entry.compressedSize * limits.maxRatio {
            let times = entry.compressedSize == 0 ? "without bound" : "\(declared / entry.compressedSize) times"
            throw ArtifactError(.tooLarge, "\(shown(path)) expands \(times) (\(entry.compressedSize) to \(declared) bytes): a zip bomb, not read")
        }
        try account(declared, path)
        return entry
    }

    /// Streams the entry through `archive`, the archive's errors naming the entry.
    func stream(_ entry: ZipEntry, _ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(ArtifactError) {
        do {
            try archive.stream(entry, chunk: 256 << 10, body)
        } catch {
            throw ArtifactError(error.code, "\(shown(path)): \(error.code == .tooLarge ? "" : "cannot be decompressed: ")\(error.reason)")
        }
    }

    func shown(_ path: String) -> String { path.isEmpty ? shownRoot : shownRoot + "!" + path }
    func isDirectory(_ path: String) -> Bool { folder(path) != nil }
    func isFile(_ path: String) -> Bool { entries[path] != nil }
    func children(_ path: String) -> [String] { folder(path)?.names.sorted() ?? [] }

    func read(_ path: String, limit: Int) throws(ArtifactError) -> [UInt8] {
        let entry = try entry(path, limit: UInt64(max(0, limit)))
        // Bounded: the declared size is at most `limit`.
        var out: [UInt8] = []
        out.reserveCapacity(Int(entry.uncompressedSize))
        try stream(entry, path) { chunk in
            out.append(contentsOf: chunk)
            return true
        }
        return out
    }

    /// Streams the entry once, keeping only the ranges the Mach-O reader asks for (each widened
    /// to 64 KiB so a header brings its load commands): a 100 MB executable costs one inflate and
    /// a few hundred kilobytes of memory. A request for bytes that already streamed past (not
    /// seen in practice) is served by another pass, at most three in all, each counted against
    /// the expansion budget.
    func machO(_ path: String, maxBlob: Int) throws(ArtifactError) -> MachOFile {
        let entry = try entry(path, limit: UInt64(Int.max))
        let size = Int(entry.uncompressedSize)
        let window = 64 << 10
        var wanted: [Range<Int>] = [0..<min(size, window)]
        var sparse = SparseBytes(count: size)
        for pass in 0..<3 {
            if pass > 0 { try account(entry.uncompressedSize, path) }
            var pending: [(range: Range<Int>, bytes: [UInt8])] = wanted.map { ($0, []) }
            var position = 0
            var result: Result<MachOFile, ArtifactError>?
            var missed = false
            func attempt() {
                do throws(ArtifactError) {
                    result = .success(try MachOReader.read(sparse, maxBlob: maxBlob))
                } catch {
                    guard error.code == .needBytes, let r = error.wanted else { result = .failure(error); return }
                    let widened = r.lowerBound..<min(size, max(r.upperBound, r.lowerBound + window))
                    if !wanted.contains(widened) { wanted.append(widened) }
                    if r.lowerBound < position { missed = true } else { pending.append((widened, [])) }
                }
            }
            try stream(entry, path) { data in
                let start = position
                position += data.count
                var completed = false
                for i in pending.indices {
                    let r = pending[i].range
                    let lo = max(r.lowerBound, start), hi = min(r.upperBound, position)
                    guard lo < hi else { continue }
                    pending[i].bytes.append(contentsOf: data[(lo - start)..<(hi - start)])
                    if pending[i].bytes.count == r.count { completed = true }
                }
                guard completed else { return true }
                for p in pending where p.bytes.count == p.range.count { sparse.pieces.append((p.range.lowerBound, p.bytes)) }
                pending.removeAll { $0.bytes.count == $0.range.count }
                attempt()
                return result == nil && !missed
            }
            if result == nil && !missed { attempt() }
            switch result {
            case .success(let file)?: return file
            case .failure(let error)?: throw error
            case nil: continue   // bytes missed: stream again with every range known so far
            }
        }
        throw ArtifactError(.malformed, "\(shown(path)): the Mach-O structures could not be read in three passes")
    }
}
