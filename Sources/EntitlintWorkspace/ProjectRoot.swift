public import EntitlintCore

/// The folders a run may read because an input names a file: an xcconfig `#include`, a base
/// configuration, an XcodeGen `include:` or path, a workspace's project, a target's entitlements
/// file, a configuration's `lock:`, `baseline:`, `profiles:` and `apps:` paths, a symlinked file
/// a folder walk meets. A path is inside when, with every symlink resolved on the actual file
/// system (`realpath(3)`), it lies in one of the folders and not in a `.git` folder (git's own
/// configuration may hold credentials: `http.extraheader`, a token in a remote's URL).
///
/// The root of an input (a path given on the command line, or the folder of the configuration)
/// is the git work tree holding it; else the folder of the configuration in use, else the current
/// folder, when the input lies below it; else the input itself (a folder) or its folder (a
/// file), or, for a project or workspace bundle and the files in it, the folder holding the
/// bundle. Paths given on the command line are the user's choice and are read wherever they are;
/// what those files name is confined.
public struct ProjectRoot: Sendable, Hashable {
    /// Absolute, symlinks resolved.
    public let folders: [String]

    public init(folders: [String]) { self.folders = folders }

    /// The roots of a run's inputs (`paths` as given; `-`, standard input, names nothing).
    /// `configurationFolder`: the folder of the configuration in use, if any.
    public init(inputs paths: [String], configurationFolder: String?, cwd: String) {
        let here = Paths.resolvingSymlinks(Paths.absolute(cwd, cwd: "/"))
        let configFolder = configurationFolder.map { Paths.resolvingSymlinks(Paths.absolute($0, cwd: cwd)) }
        var folders: [String] = []
        for path in paths where path != "-" {
            let input = Paths.resolvingSymlinks(Paths.absolute(path, cwd: cwd))
            let folder = Self.outsideBundles(Paths.kind(input) == .directory ? input : Paths.directoryName(input))
            let root = GitWorkTree.top(ofFolder: folder).map { Paths.resolvingSymlinks($0) }
                ?? [configFolder, here].compactMap { $0 }.first { Self.isBelow(input, $0) }
                ?? folder
            if !folders.contains(root) { folders.append(root) }
        }
        if let configFolder {
            let root = Self.enclosing(configFolder)
            if !folders.contains(root) { folders.append(root) }
        }
        self.folders = folders
    }

    /// `folder` (absolute), or the folder holding the outermost `.xcodeproj` or `.xcworkspace`
    /// bundle it lies in: a project named by its bundle (`App.xcodeproj`, its `project.pbxproj`)
    /// reads files beside the bundle.
    static func outsideBundles(_ folder: String) -> String {
        let parts = folder.split(separator: "/")
        guard let i = parts.firstIndex(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) else { return folder }
        return "/" + parts[..<i].joined(separator: "/")
    }

    /// The root of a folder (absolute, symlinks resolved): the git work tree holding it, else itself.
    public static func enclosing(_ folder: String) -> String {
        GitWorkTree.top(ofFolder: folder).map { Paths.resolvingSymlinks($0) } ?? folder
    }

    /// Whether `path` (usable from `cwd`) lies inside one of the folders, every symlink resolved,
    /// and outside any `.git` folder.
    public func contains(_ path: String, cwd: String = Paths.currentDirectory()) -> Bool {
        contains(resolved: Paths.resolvingSymlinks(Paths.absolute(path, cwd: cwd)))
    }

    /// `contains(_:)` for a path already absolute with every symlink resolved.
    public func contains(resolved: String) -> Bool {
        folders.contains { root in
            guard Self.isBelow(resolved, root) else { return false }
            let inside = resolved.utf8.count == root.utf8.count ? "" : String(resolved.dropFirst(root == "/" ? 1 : root.count + 1))
            return !inside.split(separator: "/").contains(".git")
        }
    }

    /// Whether `path` is `folder` or lies below it (both absolute).
    public static func isBelow(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

}
