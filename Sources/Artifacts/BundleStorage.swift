import EntitlintCore
import Foundation
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a built product's files are: a folder on disk or a zip archive (`.ipa`). Paths are
/// relative to the product's root, `/`-separated, `""` for the root. Nothing is ever written or
/// extracted to disk: small files are read into memory, executables only where their headers and
/// code signature are.
protocol BundleStorage: AnyObject {
    /// The path as reports show it: `App.ipa!Payload/App.app/App`, `Build/App.app/App`.
    func shown(_ path: String) -> String
    func isDirectory(_ path: String) -> Bool
    func isFile(_ path: String) -> Bool
    /// The names inside a folder, sorted.
    func children(_ path: String) -> [String]
    /// A whole small file (plist, profile), refusing more than `limit` bytes.
    func read(_ path: String, limit: Int) throws(ArtifactError) -> [UInt8]
    /// The Mach-O at `path`, reading only what `MachOReader` asks for.
    func machO(_ path: String, maxBlob: Int) throws(ArtifactError) -> MachOFile
    /// Problems with the container itself (unsafe zip paths skipped, ...).
    var problems: [String] { get }
}

func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }

/// A folder on disk: an `.app`, an `.xcarchive`, or the folder holding a loose binary.
final class DirectoryStorage: BundleStorage {
    let root: String
    let shownRoot: String
    var problems: [String] = []

    init(root: String, shownRoot: String) {
        self.root = root
        self.shownRoot = shownRoot
    }

    func full(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }
    func shown(_ path: String) -> String { path.isEmpty ? shownRoot : shownRoot + "/" + path }

    func kind(_ path: String) -> mode_t? {
        var st = stat()
        // lstat: a symlink inside a bundle is never followed.
        guard lstat(full(path), &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    func isDirectory(_ path: String) -> Bool {
        if path.isEmpty { return true }
        return kind(path) == S_IFDIR
    }

    func isFile(_ path: String) -> Bool { kind(path) == S_IFREG }

    func children(_ path: String) -> [String] {
        guard let dir = opendir(full(path)) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
            if names.count > 100_000 { break }
        }
        return names.sorted()
    }

    func read(_ path: String, limit: Int) throws(ArtifactError) -> [UInt8] {
        do { return try FileReader.read(full(path), limit: limit) } catch {
            throw ArtifactError(error == .tooLarge(limit: limit) ? .tooLarge : .unreadable, "\(shown(path)): \(error)")
        }
    }

    func machO(_ path: String, maxBlob: Int) throws(ArtifactError) -> MachOFile {
        try MachOReader.read(try FileBytes(path: full(path)), maxBlob: maxBlob)
    }
}

/// A zip archive (`.ipa`), read with ZIPFoundation entry by entry.
///
/// Limits (bad input, issue part 6; see `ZipLimits`): entries whose path is absolute or has a
/// `..` component, and symlinks, are skipped and reported (nothing is extracted, so they could
/// not escape anyway); an entry is read only up to the size its header declares and the caller's
/// limit, and streaming stops if it expands past it; the entry count, the total expanded and the
/// compression ratio of big entries are capped, so a zip bomb is refused, not expanded.
final class ZipStorage: BundleStorage {
    let archive: Archive
    let shownRoot: String
    let limits: ZipLimits
    var entries: [String: Entry] = [:]
    var folders: [String: [String]] = ["": []]
    var problems: [String] = []
    /// Bytes expanded so far, across entries.
    var expanded = 0

    init(path: String, shownRoot: String, limits: ZipLimits = .default) throws(ArtifactError) {
        self.shownRoot = shownRoot
        self.limits = limits
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ArtifactError(.badArchive, "not a readable zip archive: \(error)")
        }
        var count = 0
        var unsafe = 0
        var folderSets: [String: Set<String>] = ["": []]
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else {
                throw ArtifactError(.tooLarge, "more than \(limits.maxEntries) zip entries (limit ZipLimits.maxEntries)")
            }
            var p = entry.path
            let components = p.split(separator: "/", omittingEmptySubsequences: true)
            if p.hasPrefix("/") || p.contains("\\") || components.contains("..") {
                unsafe += 1
                if unsafe <= 3 { problems.append("zip entry \"\(p)\" has an unsafe path (absolute or with ..): skipped") }
                continue
            }
            if entry.type == .symlink { continue }
            while p.hasSuffix("/") { p.removeLast() }
            guard !p.isEmpty else { continue }
            let parts = components.map(String.init)
            // Register every folder on the way (zip files need not list folders).
            var parent = ""
            for (i, part) in parts.enumerated() {
                folderSets[parent, default: []].insert(part)
                let here = join(parent, part)
                if i < parts.count - 1 || entry.type == .directory { folderSets[here, default: []].formUnion([]) }
                parent = here
            }
            if entry.type == .file { entries[p] = entry }
        }
        if unsafe > 3 { problems.append("\(unsafe - 3) more zip entries with unsafe paths skipped") }
        folders = folderSets.mapValues { $0.sorted() }
    }

    /// Counts `declared` bytes against the archive's expansion budget before reading them.
    func account(_ declared: UInt64, _ path: String) throws(ArtifactError) {
        guard declared <= UInt64(limits.maxExpandedTotal - expanded) else {
            throw ArtifactError(.tooLarge, "\(shown(path)) would take the bytes expanded from the archive past \(limits.maxExpandedTotal) (limit ZipLimits.maxExpandedTotal): a zip bomb, not read")
        }
        expanded += Int(declared)
    }

    func shown(_ path: String) -> String { path.isEmpty ? shownRoot : shownRoot + "!" + path }
    func isDirectory(_ path: String) -> Bool { folders[path] != nil }
    func isFile(_ path: String) -> Bool { entries[path] != nil }
    func children(_ path: String) -> [String] { folders[path] ?? [] }

    private struct Stop: Error {}

    func read(_ path: String, limit: Int) throws(ArtifactError) -> [UInt8] {
        guard let entry = entries[path] else { throw ArtifactError(.unreadable, "\(shown(path)): no such zip entry") }
        let declared = entry.uncompressedSize
        guard declared <= UInt64(limit) else {
            throw ArtifactError(.tooLarge, "\(shown(path)) expands to \(declared) bytes (limit \(limit))")
        }
        try account(declared, path)
        var out: [UInt8] = []
        out.reserveCapacity(Int(declared))
        var overflow = false
        do {
            _ = try archive.extract(entry, skipCRC32: true) { data in
                if out.count + data.count > Int(declared) {
                    overflow = true
                    throw Stop()
                }
                out.append(contentsOf: data)
            }
        } catch {
            if overflow { throw ArtifactError(.tooLarge, "\(shown(path)) expands past the \(declared) bytes its header declares") }
            throw ArtifactError(.badArchive, "\(shown(path)) cannot be decompressed: \(error)")
        }
        return out
    }

    /// Streams the entry once, keeping only the ranges the Mach-O reader asks for (each widened
    /// to 64 KiB so a header brings its load commands): a 100 MB executable costs one inflate and
    /// a few hundred kilobytes of memory. A request for bytes that already streamed past (not
    /// seen in practice) is served by another pass, at most three in all.
    func machO(_ path: String, maxBlob: Int) throws(ArtifactError) -> MachOFile {
        guard let entry = entries[path] else { throw ArtifactError(.unreadable, "\(shown(path)): no such zip entry") }
        let declared = entry.uncompressedSize
        if declared >= UInt64(limits.ratioCheckMinimum), entry.compressedSize > 0, declared / entry.compressedSize > limits.maxRatio {
            throw ArtifactError(.tooLarge, "\(shown(path)) expands \(declared / entry.compressedSize) times (\(entry.compressedSize) to \(declared) bytes): a zip bomb, not read")
        }
        try account(declared, path)
        let size = Int(declared)
        let window = 64 << 10
        var wanted: [Range<Int>] = [0..<min(size, window)]
        var sparse = SparseBytes(count: size)
        for _ in 0..<3 {
            var pending: [(range: Range<Int>, bytes: [UInt8])] = wanted.map { ($0, []) }
            var position = 0
            var result: Result<MachOFile, ArtifactError>?
            var missed = false
            var overflow = false
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
            do {
                _ = try archive.extract(entry, bufferSize: 256 << 10, skipCRC32: true) { data in
                    let start = position
                    position += data.count
                    if position > size {
                        overflow = true
                        throw Stop()
                    }
                    var completed = false
                    for i in pending.indices {
                        let r = pending[i].range
                        let lo = max(r.lowerBound, start), hi = min(r.upperBound, position)
                        guard lo < hi else { continue }
                        data.withUnsafeBytes { raw in
                            let b = raw.bindMemory(to: UInt8.self)
                            pending[i].bytes.append(contentsOf: b[(lo - start)..<(hi - start)])
                        }
                        if pending[i].bytes.count == r.count { completed = true }
                    }
                    guard completed else { return }
                    for p in pending where p.bytes.count == p.range.count { sparse.pieces.append((p.range.lowerBound, p.bytes)) }
                    pending.removeAll { $0.bytes.count == $0.range.count }
                    attempt()
                    if result != nil || missed { throw Stop() }
                }
            } catch {
                if overflow { throw ArtifactError(.tooLarge, "\(shown(path)) expands past the \(size) bytes its header declares") }
                if !(error is Stop) { throw ArtifactError(.badArchive, "\(shown(path)) cannot be decompressed: \(error)") }
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

/// Bounds on reading one zip archive.
public struct ZipLimits: Sendable, Hashable {
    /// Most entries in the archive.
    public var maxEntries: Int
    /// Most bytes expanded from the archive in all (only the files read count: plists, profiles,
    /// executables).
    public var maxExpandedTotal: Int
    /// Entries of at least `ratioCheckMinimum` bytes may expand at most this many times their
    /// compressed size (code compresses 2-5 times; deflate's ceiling is about 1032).
    public var maxRatio: UInt64
    public var ratioCheckMinimum: Int

    public init(maxEntries: Int = 100_000, maxExpandedTotal: Int = 4 << 30, maxRatio: UInt64 = 200, ratioCheckMinimum: Int = 8 << 20) {
        self.maxEntries = maxEntries
        self.maxExpandedTotal = maxExpandedTotal
        self.maxRatio = maxRatio
        self.ratioCheckMinimum = ratioCheckMinimum
    }

    public static let `default` = ZipLimits()
}
