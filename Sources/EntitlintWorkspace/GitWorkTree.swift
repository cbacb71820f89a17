import EntitlintCore

/// What the git work tree around a path says about a file that is not there: whether git
/// ignores it (a per-developer file), and which submodule it belongs to. Both read only the
/// work tree's own `.gitignore` files, `$GIT_DIR/info/exclude` and `.gitmodules`; no git process.
public enum GitWorkTree {
    /// The root of the work tree holding `absolutePath` (a `.git` folder or file at or above it).
    public static func top(of absolutePath: String) -> String? {
        top(ofFolder: Paths.directoryName(absolutePath))
    }

    /// The root of the work tree holding the folder `absoluteFolder` (itself or a folder above).
    public static func top(ofFolder absoluteFolder: String) -> String? {
        var dir = absoluteFolder
        var levels = 0
        while levels < 256 {
            if Paths.kind((dir == "/" ? "" : dir) + "/.git") != .missing { return dir }
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        return nil
    }

    /// Whether git ignores `absolutePath` or one of the folders above it inside the work tree.
    public static func ignores(_ absolutePath: String) -> Bool {
        guard let top = top(of: absolutePath), let matcher = GitIgnore(walking: top, cwd: "/") else { return false }
        let rel = absolutePath.dropFirst(top == "/" ? 1 : top.count + 1)
        let parts = rel.split(separator: "/")
        var path = top
        for (i, part) in parts.enumerated() {
            path = path == "/" ? "/" + part : path + "/" + part
            if matcher.ignores(path, isDirectory: i < parts.count - 1) { return true }
        }
        return false
    }

    /// The folder of the `.gitmodules` file that lists the submodules of the repository holding
    /// `absolutePath`: the nearest one in the folders above it, up to the top of its work tree,
    /// among the folders `mayRead` allows (the project root). The nearest, not the work tree's:
    /// a project copied or vendored inside another repository keeps its own list, and what it
    /// says must not depend on where the checkout sits. Bounded to 256 folders.
    public static func modulesFolder(governing absolutePath: String, mayRead: (String) -> Bool) -> String? {
        let top = top(of: absolutePath)
        var dir = Paths.directoryName(absolutePath)
        var levels = 0
        while levels < 256, mayRead(dir) {
            if Paths.kind((dir == "/" ? "" : dir) + "/.gitmodules") == .file { return dir }
            if dir == "/" || dir == top { return nil }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        return nil
    }

    /// The path (relative to `folder`) of the submodule `absolutePath` lies in, as `folder`'s
    /// `.gitmodules` lists it (read up to 1 MiB); nil when it lists none holding the path.
    public static func submodule(containing absolutePath: String, listedIn folder: String) -> String? {
        guard let bytes = try? FileReader.read((folder == "/" ? "" : folder) + "/.gitmodules", limit: 1 << 20) else { return nil }
        let rel = String(absolutePath.dropFirst(folder == "/" ? 1 : folder.count + 1))
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let t = line.drop { $0 == " " || $0 == "\t" }
            guard t.hasPrefix("path"), let eq = t.firstIndex(of: "=") else { continue }
            guard t[t.startIndex..<eq].trimming(where: { $0 == " " || $0 == "\t" }) == "path" else { continue }
            let value = t[t.index(after: eq)...].trimming(where: { $0 == " " || $0 == "\t" })
            if !value.isEmpty, rel == value || rel.hasPrefix(value + "/") { return value }
        }
        return nil
    }
}
