import EntitlintCore
import EntitlintWorkspace

/// The files a run names alone (the entitlements file a pre-commit hook passes) and the folders
/// their projects are searched in: the file's folder and its parents, up to the git work tree's
/// root, else the current folder when the file is below it, else the file's own folder; at most
/// `maxLevels` folders, none outside the project root. The Xcode source searches these folders
/// for projects and specs, the manifest sources for their manifests; the units of a manifest found
/// that way are checked only when they use a named file, the others are context.
struct NamedFiles {
    static let maxLevels = 64

    /// Absolute paths of the files named that no source reads as a project file, nor a profile
    /// or a source file: the files a manifest's unit can use (its entitlements file).
    let paths: Set<String>
    /// The folders searched (absolute), for each named file: its folder first, then its parents.
    let chains: [[String]]

    init(_ request: DiscoveryRequest, files: ProjectFiles) {
        let projectFiles = [XcodeDiscoverer.project, TuistSource.recognised, BazelSource.recognised]
        func isProjectFile(_ path: String) -> Bool { projectFiles.contains { $0.matches(path) } }
        var paths = Set<String>()
        var chains: [[String]] = []
        for path in request.paths where path != "-" && !isProjectFile(path) && !InputFiles.isProfilePath(path) && !InputFiles.isSourceFile(path) {
            guard files.kind(path) == .file, !request.isExcluded(path) else { continue }
            let abs = files.absolute(path)
            guard paths.insert(abs).inserted else { continue }
            var chain: [String] = []
            for folder in Self.searched(above: Paths.directoryName(abs), cwd: request.cwd) {
                guard !files.isOutside(folder) else { break }
                chain.append(folder)
            }
            chains.append(chain)
        }
        self.paths = paths
        self.chains = chains
    }

    /// Every folder searched once, in the order met.
    var folders: [String] {
        var seen = Set<String>()
        return chains.joined().filter { seen.insert($0).inserted }
    }

    /// Whether the run names no file alone.
    var isEmpty: Bool { paths.isEmpty }

    /// `folder` (absolute) and its parents up to `boundary(for:cwd:)`, nearest first, at most `maxLevels`.
    static func searched(above folder: String, cwd: String) -> [String] {
        let stop = boundary(for: folder, cwd: cwd)
        guard ProjectRoot.isBelow(folder, stop) else { return [folder] }
        var out: [String] = []
        var dir = folder
        while out.count < maxLevels {
            out.append(dir)
            if dir == stop || dir == "/" { break }
            dir = Paths.directoryName(dir)
        }
        return out
    }

    /// The folder where the search for a file's project stops: the git work tree's root, else the
    /// current folder when the file is below it, else the file's own folder.
    static func boundary(for folder: String, cwd: String) -> String {
        var dir = folder
        var levels = 0
        while levels < maxLevels {
            if Paths.kind(dir == "/" ? "/.git" : dir + "/.git") != .missing { return dir }
            if dir == "/" { break }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        let base = cwd.hasSuffix("/") ? cwd : cwd + "/"
        if folder == cwd || folder.hasPrefix(base) { return cwd }
        return folder
    }
}
