import EntitlintCore
import PropertyList

// Where a file reference or group is: the group tree walked from child to parent, bounded in depth
// and cycle-safe; and the files Xcode 16 synchronised folders add to targets that do not hold them.
extension PBXReader {
    /// Child -> parent, over every group kind.
    mutating func parentMap() -> [String: String] {
        if let parents { return parents }
        var map: [String: String] = [:]
        for entry in objects.entries {
            guard let dict = entry.value.dict, let isa = dict["isa"]?.string,
                  isa == "PBXGroup" || isa == "PBXVariantGroup" || isa == "XCVersionGroup" else { continue }
            for child in dict["children"]?.array ?? [] {
                if let id = child.string, map[id] == nil { map[id] = entry.key }
            }
        }
        parents = map
        return map
    }

    /// Where a file reference or group is, from the current folder, following `sourceTree`:
    /// `<group>` (the parent group's folder), `SOURCE_ROOT` (the project folder), `<absolute>`.
    ///
    /// The chain of parent groups is walked with a loop, not recursion (a project may nest
    /// groups 100,000 deep), and stops at a cycle or past `maxGroupDepth` levels; the
    /// components are joined once at the end, so the cost is linear in the depth.
    mutating func path(of id: String, directory: String) -> Result<String, ReadFailure> {
        var components: [String] = []
        var seen = Set<String>()
        var current = id
        while true {
            guard seen.insert(current).inserted else { return .failure(ReadFailure("the groups holding it form a cycle (a reference cycle)")) }
            guard seen.count <= Self.maxGroupDepth else {
                return .failure(ReadFailure("it is nested in more than \(Self.maxGroupDepth) groups"))
            }
            guard let dict = objects[current]?.dict else { return .failure(ReadFailure("object \(OutputText.excerpt(current)) does not exist")) }
            let own = dict["path"]?.string ?? ""
            let tree = dict["sourceTree"]?.string ?? "<group>"
            switch tree {
            case "<absolute>":
                return .success(Self.joined(own, components))
            case "SOURCE_ROOT":
                return .success(Self.joined(ProjectFiles.join(directory, own), components))
            case "<group>":
                components.append(own)
                guard let parent = parentMap()[current] else {
                    // The main group (or an orphan): relative to the project folder.
                    return .success(Self.joined(directory, components))
                }
                current = parent
            default:
                return .failure(ReadFailure("it is relative to \(OutputText.excerpt(tree)), which only exists during a build"))
            }
        }
    }

    /// Groups a file may be nested in: far more than any real project (a few dozen), few enough
    /// that the path they make stays short.
    static let maxGroupDepth = 1_000

    /// `base` joined with `innermostFirst` reversed, normalised once.
    static func joined(_ base: String, _ innermostFirst: [String]) -> String {
        var path = base
        for part in innermostFirst.reversed() { path = ProjectFiles.join(path, part) }
        return ProjectFiles.normalize(path)
    }

    /// Files that Xcode 16 synchronised folders add to targets that do not hold the folder.
    ///
    /// A `PBXFileSystemSynchronizedRootGroup`'s `exceptions` are
    /// `PBXFileSystemSynchronizedBuildFileExceptionSet`s, one per target, whose
    /// `membershipExceptions` (paths relative to the folder) invert that target's default
    /// membership: for a target that lists the folder in its `fileSystemSynchronizedGroups` they
    /// are left out (read with the target), for any other target they are the only files of the
    /// folder it compiles (Xcode writes such a set when a file of one target's folder is ticked
    /// for another target: Threema's extensions take asset catalogs and strings from the app's
    /// `SharedResources` folder this way, and ThreemaFramework three Swift files). Only entries
    /// with a code extension are taken; a folder listed so is not walked.
    ///
    /// By target ID, paths usable from the current folder, in the order of the project's objects.
    /// At most 1,000 exception sets per folder and 100,000 entries per set, as for exclusions.
    mutating func synchronizedAdditions(members: [String: Set<String>], directory: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for entry in objects.entries {
            guard let group = entry.value.dict, group["isa"]?.string == "PBXFileSystemSynchronizedRootGroup",
                  let exceptions = group["exceptions"]?.array, !exceptions.isEmpty else { continue }
            var folder: String?
            for exceptionRef in exceptions.prefix(1_000) {
                guard let id = exceptionRef.string, let set = objects[id]?.dict,
                      set["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
                      let target = set["target"]?.string, let holds = members[target], !holds.contains(entry.key) else { continue }
                if folder == nil {
                    guard case .success(let path) = path(of: entry.key, directory: directory) else { break }
                    folder = path
                }
                for name in (set["membershipExceptions"]?.array ?? []).prefix(100_000) {
                    guard let name = name.string, SourceCatalog.isCode(name), let folder else { continue }
                    out[target, default: []].append(ProjectFiles.normalize(ProjectFiles.join(folder, name)))
                }
            }
        }
        return out
    }
}
