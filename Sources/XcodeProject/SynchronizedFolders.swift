import PropertyList

extension PBXReader {
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
