public import EntitlintCore

/// `lint --against REV`: the reference point of `default-group-drift` taken from git instead of a
/// lock file (keychain-access-groups.md section 4: the same files at a git revision).
///
/// The units of the run are formed again from the files as they were at REV, read from git
/// (nothing is checked out or written): the entitlements files, the profiles, and the
/// configuration as it was there (the current one when it did not exist yet, or no longer parses).
/// Flags (`--team-id`, `--bundle-id`, `--profile`) apply to both sides. Each unit at REV is
/// recorded with its facts and their sources, as `entitlint lock` records it, and compared in one
/// form with the unit now (`DefaultGroupComparison`): a default symbolic on both sides (the team
/// unknown in both) is compared as written, so a run with no flags still finds a real move, and one
/// that stays symbolic on one side only is not compared: Entitlint never guesses a value.
///
/// A file git cannot give as it was at REV (over `max-file-size`, past `max-total-bytes`, or an
/// object a partial clone does not hold: nothing is fetched) is never skipped in silence: each is a
/// `parse-error` finding on the file, saying that the comparison could not be made.
public enum RevisionReference {
    public struct Reference: Sendable {
        public var lock: LockFile
        /// One `parse-error` per file of the revision that could not be read.
        public var findings: [Finding]
    }

    public static func reference(at revision: String, repository: GitRepository, options: LintOptions,
                                 knownRules: Set<String>) throws(UsageError) -> Reference {
        let commit: String
        let tree: [String]
        do {
            commit = try repository.resolve(revision)
            tree = try repository.files(at: commit)
        } catch {
            throw UsageError(error.description)
        }
        let cwd = Paths.currentDirectory()
        let configRelative = options.configuration?.path.flatMap { repository.relative(Paths.absolute($0, cwd: cwd)) }
        let wanted = tree.filter { path in
            let e = InputFiles.ext(path)
            return InputFiles.entitlementsExtensions.contains(e) || InputFiles.profileExtensions.contains(e) || path == configRelative
                || options.discoverySources.isProjectFile(path)   // the projects (Xcode, XcodeGen, ...) as they were
        }
        let files = VirtualFiles.git(repository, revision: commit, paths: wanted, exclusive: true,
                                     maxBytes: options.limits.maxBytes, maxTotalBytes: options.maxTotalBytes)

        var old = options
        old.virtualFiles = files
        old.readLock = false
        old.lock = nil
        old.parallel = false
        // The configuration as it was at REV, resolved from the same place.
        if let current = options.configuration, let path = current.path, files.contains(path, cwd: cwd),
           case .success(let bytes)? = files.bytes(path, cwd: cwd),
           let then = try? Configuration.parse(String(decoding: bytes, as: UTF8.self), path: path, knownRules: knownRules) {
            old.configuration = then
        }
        // Only what existed at REV: a file added since has nothing to compare with.
        if var config = old.configuration {
            config.apps = config.apps.filter { files.kind(config.resolve($0.entitlements), cwd: cwd) == .file }
            for i in config.apps.indices {
                if let p = config.apps[i].profile, files.kind(config.resolve(p), cwd: cwd) == .missing { config.apps[i].profile = nil }
            }
            config.profiles = config.profiles.filter { files.kind(config.resolve($0), cwd: cwd) != .missing }
            old.configuration = config
        }
        if let p = old.profilePath, files.kind(p, cwd: cwd) == .missing { old.profilePath = nil }
        old.paths = options.paths.filter { files.kind($0, cwd: cwd) != .missing }

        var lock = LockFile()
        lock.reference = "at revision \(revision)"
        guard !old.paths.isEmpty else { return Reference(lock: lock, findings: unreadable(files, revision: revision, cwd: cwd)) }
        let result = try Linter(rules: []).lint(old)
        for unit in result.units where unit.accessGroups.defaultGroup != nil {
            lock.units[unit.name] = LockFile.entry(for: unit, cwd: cwd)
        }
        lock.indexEntries()
        return Reference(lock: lock, findings: unreadable(files, revision: revision, cwd: cwd))
    }

    static func unreadable(_ files: VirtualFiles, revision: String, cwd: String) -> [Finding] {
        files.unreadable().map { path, reason in
            Finding(rule: ToolFindings.unreadablePath, severity: .error,
                    message: "cannot read this file as it was at revision \(OutputText.escape(revision)) (\(reason)): default-group-drift is not checked against it",
                    path: Paths.display(path, cwd: cwd))
        }
    }
}
