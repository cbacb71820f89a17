import EntitlintCore
import EntitlintWorkspace
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
