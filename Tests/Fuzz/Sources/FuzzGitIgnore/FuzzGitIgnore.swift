import EntitlintCore
import EntitlintWorkspace
import FuzzSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point for the `.gitignore` matcher, through `GitWorkTree.ignores` (as
/// discovery asks about a file a project names): a work tree in a folder of its own
/// (`/dev/shm`, else `/tmp`) with a `.git` folder; the input, split at NUL bytes, is the root
/// `.gitignore`, then the paths asked about (one a line, at most 8, and `sub/x`; without a second
/// part, the lines of the `.gitignore` themselves), then `sub/.gitignore`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitIgnore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = fuzzInput(data, size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    tree.store(Array(parts[0]), at: ".gitignore")
    tree.store(parts.count > 2 ? Array(parts[2]) : nil, at: "sub/.gitignore")
    let asked = parts.count > 1 ? parts[1] : parts[0]
    var paths = asked.split(separator: UInt8(ascii: "\n")).prefix(8).map { String(decoding: $0, as: UTF8.self) }
    paths.append("sub/x")
    for p in paths where !p.isEmpty {
        FuzzCheck.sink &+= GitWorkTree.ignores(tree.root + "/" + p) ? 1 : 0
    }
    return 0
}

/// The work tree: created once per process, its `.gitignore` files rewritten on every run,
/// removed at exit.
final class WorkTree: @unchecked Sendable {
    let root: String

    init() {
        var st = stat()
        let base = stat("/dev/shm", &st) == 0 && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        root = "\(base)/entitlint-fuzz-gitignore-\(getpid())"
        for folder in [root, root + "/.git", root + "/sub"] { mkdir(folder, 0o700) }
        let r = root
        WorkTree.cleanup = {
            for file in [r + "/.gitignore", r + "/sub/.gitignore"] { unlink(file) }
            for folder in [r + "/sub", r + "/.git", r] { rmdir(folder) }
        }
        atexit { WorkTree.cleanup?() }
    }

    nonisolated(unsafe) static var cleanup: (() -> Void)?

    /// Writes `bytes` to `name` in the tree, or removes the file when nil.
    func store(_ bytes: [UInt8]?, at name: String) {
        let path = root + "/" + name
        guard let bytes else { unlink(path); return }
        bytes.withUnsafeBufferPointer { fuzzWriteFile(path, $0.baseAddress, $0.count) }
    }
}

let tree = WorkTree()
