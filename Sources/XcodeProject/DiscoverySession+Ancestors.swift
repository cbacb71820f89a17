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

    func findBoundary(_ folder: String) -> String { NamedFiles.boundary(for: folder, cwd: cwd) }

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
    /// (`XcodeDiscoverer.bundleSuffixes`, `XcodeDiscoverer.specName`), and the other YAML files
    /// there that are XcodeGen specs by the walk's content test (`ancestorSpecs`).
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
                        return XcodeDiscoverer.bundleSuffixes.contains(where: ends) || ends(".yml") || ends(".yaml")
                    }
                }
                guard candidate else { continue }
                let name = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                names.append(name)
            }
            closedir(d)
            var yaml: [String] = []
            for name in names.sorted() {
                let p = dir == "/" ? "/" + name : dir + "/" + name
                if name.hasSuffix(".xcodeproj"), files.kind(p + "/project.pbxproj") != .file { continue }
                if name.hasSuffix(".xcworkspace"), files.kind(p + "/contents.xcworkspacedata") != .file { continue }
                if excluded(p) { continue }
                if XcodeGenSpec.isSpecPath(name), name != "\(XcodeDiscoverer.specName)" {
                    yaml.append(p)
                    continue
                }
                out.append(p)
            }
            out += ancestorSpecs(yaml, besides: out.filter(XcodeGenSpec.isSpecPath))
        }
        ancestorCache[dir] = out
        return out
    }

    /// Of the YAML files directly in one folder (`candidates`, not `project.yml`), the XcodeGen
    /// specs, by the test a walk applies (`XcodeGenSpec.rootSpecs`: top-level `name:` and
    /// `targets:`, not included by a spec beside it). Bounded, as a pre-commit run pays for it on
    /// every file: the first 16 candidates by name, each a regular file of at most 256 KiB
    /// (`XcodeGenSpec.ancestorSpecLimit`) whose first 4 KiB hold `name:` or `targets:`.
    func ancestorSpecs(_ candidates: [String], besides named: [String]) -> [String] {
        let plausible = candidates.prefix(16).filter { path in
            var st = stat()
            guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= XcodeGenSpec.ancestorSpecLimit else { return false }
            return Self.mayBeSpec(prefixOf: path)
        }
        guard !plausible.isEmpty else { return [] }
        return XcodeGenSpec.rootSpecs(plausible, named: named, files: files)
    }

    /// Whether the first 4 KiB of the file at `path` (read from the disk) hold `name:` or
    /// `targets:` at the start of a line. XcodeGen specs begin with `name:` by convention; one
    /// whose first 4 KiB hold neither key is missed here (a walk of its folder still finds it).
    static func mayBeSpec(prefixOf path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
        guard n > 0 else { return false }
        return String(decoding: buffer.prefix(n), as: UTF8.self).split(separator: "\n")
            .contains { $0.hasPrefix("name:") || $0.hasPrefix("targets:") }
    }
}
