#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import EntitlintCore

extension Configuration {
    /// The folder a configuration may point into: the top of the git work tree holding its folder
    /// (the nearest folder above with a `.git`), else its own folder. Absolute, symlinks resolved.
    public var projectRoot: String {
        ProjectRoot.enclosing(Paths.resolvingSymlinks(Paths.absolute(baseDirectory)))
    }

    /// Refuses a path of the configuration (`lock:`, `baseline:`, `profiles:`, `apps:`'
    /// `entitlements` and `profile`) that lies outside `projectRoot`, symlinks resolved, or in its
    /// `.git` folder: a repository's configuration names files for the run to read (and for
    /// `entitlint lock` to replace), and none may reach outside the project (`../../.ssh/...`,
    /// `/etc/...`, `/` walked for profiles, or a link inside the project that leads out). The
    /// same paths given on the command line are not limited.
    public func checkPathsInsideProject() throws(ConfigError) {
        let root = projectRoot
        let confinement = ProjectRoot(folders: [root])
        var named: [(key: String, value: String, flag: String)] = []
        if let lock { named.append(("lock", lock, "--lock")) }
        if let baseline { named.append(("baseline", baseline, "--baseline")) }
        named += profiles.map { ("profiles", $0, "--profiles") }
        for app in apps {
            named.append(("apps.entitlements", app.entitlements, "a path argument"))
            if let p = app.profile { named.append(("apps.profile", p, "--profile")) }
        }
        for (key, value, flag) in named where !confinement.contains(resolve(value)) {
            throw ConfigError(path: path ?? ".entitlint.yml", line: 0,
                              reason: "\(key): \(OutputText.reference(value)) is outside the project root \(root): a configuration may only name files inside it, not in its .git folder (give \(flag) on the command line for another place)")
        }
    }
}

extension Paths {
    /// `absolute` (an absolute path) with every symlink resolved, as far as the path exists: the
    /// longest existing prefix goes through `realpath(3)`, the rest is appended as written
    /// (`absolute` has already removed `.` and `..`).
    public static func resolvingSymlinks(_ absolute: String) -> String {
        var head = absolute
        var tail: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                var out = String(cString: real)
                for part in tail.reversed() { out += (out == "/" ? "" : "/") + part }
                return out
            }
            let parent = directoryName(head)
            if parent == head { return absolute }
            tail.append(baseName(head))
            head = parent
        }
    }
}
