import EntitlintCore
import EntitlintWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Where the project of a file inside one is: the projects, workspaces and specs in the file's
// folder and its parents, up to the git work tree's root or the current folder.
extension DiscoverySession {
    /// The folder where the search for a file's project stops: the git work tree's root, else the
    /// current folder when the file is below it, else the file's own folder.
    mutating func boundary(for folder: String) -> String {
        if let known = boundaryCache[folder] { return known }
        let b = findBoundary(folder)
        boundaryCache[folder] = b
        return b
    }

    func findBoundary(_ folder: String) -> String {
        var dir = folder
        var levels = 0
        while levels < 64 {
            if Paths.kind(dir == "/" ? "/.git" : dir + "/.git") != .missing { return dir }
            if dir == "/" { break }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        let base = cwd.hasSuffix("/") ? cwd : cwd + "/"
        if folder == cwd || folder.hasPrefix(base) { return cwd }
        return folder
    }

    /// Projects, workspaces and specs in `folder` (absolute) and its parents up to the boundary.
    mutating func ancestors(of folder: String, includingSelf: Bool) -> [String] {
        let stop = boundary(for: folder)
        guard folder == stop || folder.hasPrefix(stop == "/" ? "/" : stop + "/") else { return [] }
        var dir = includingSelf ? folder : Paths.directoryName(folder)
        if !includingSelf && folder == stop { return [] }
        var out: [String] = []
        while true {
            out += projectsIn(dir)
            if dir == stop || dir == "/" { break }
            dir = Paths.directoryName(dir)
        }
        return out
    }

    /// The `*.xcodeproj`, `*.xcworkspace` and `project.yml` directly in `dir`
    /// (`XcodeDiscoverer.bundleSuffixes`, `XcodeDiscoverer.specName`).
    mutating func projectsIn(_ dir: String) -> [String] {
        if let cached = ancestorCache[dir] { return cached }
        var out: [String] = []
        if let d = opendir(dir) {
            var names: [String] = []
            while let e = readdir(d) {
                // Test the name's bytes first: folders can hold thousands of entries, and only a
                // few names can be projects (a pre-commit run pays for this on every file).
                let candidate = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: UInt8.self, capacity: 256) { b -> Bool in
                        var n = 0
                        while n < 256 && b[n] != 0 { n += 1 }
                        func ends(_ suffix: StaticString) -> Bool {
                            let k = suffix.utf8CodeUnitCount
                            guard n >= k else { return false }
                            return memcmp(b + (n - k), suffix.utf8Start, k) == 0
                        }
                        let spec = XcodeDiscoverer.specName
                        return XcodeDiscoverer.bundleSuffixes.contains(where: ends) || (n == spec.utf8CodeUnitCount && ends(spec))
                    }
                }
                guard candidate else { continue }
                let name = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                names.append(name)
            }
            closedir(d)
            for name in names.sorted() {
                let p = dir == "/" ? "/" + name : dir + "/" + name
                if name.hasSuffix(".xcodeproj"), files.kind(p + "/project.pbxproj") != .file { continue }
                if name.hasSuffix(".xcworkspace"), files.kind(p + "/contents.xcworkspacedata") != .file { continue }
                if excluded(p) { continue }
                out.append(p)
            }
        }
        ancestorCache[dir] = out
        return out
    }
}
