public import EntitlintCore
public import EntitlintWorkspace

extension ChangeRequest {
    /// Points the run at git: the staged or changed files (read from the index for `--staged`),
    /// and the units at a revision as the reference of `default-group-drift` (`--against`).
    public func prepare(_ options: inout LintOptions, explicitPaths: [String], knownRules: @autoclosure () -> Set<String>) throws(UsageError) {
        guard staged || changedSince != nil || against != nil else { return }
        if staged, changedSince != nil { throw UsageError("--staged and --changed-since cannot be used together") }
        let repository: GitRepository
        do { repository = try GitRepository.open() } catch { throw UsageError(error.description) }

        if staged || changedSince != nil {
            let cwd = Paths.currentDirectory()
            let roots = explicitPaths.map { Paths.absolute($0, cwd: cwd) }
            let sources = options.discoverySources
            let isLintable = { (path: String) -> Bool in
                let abs = repository.absolute(path)
                return (InputFiles.entitlementsExtensions.contains(Self.ext(path)) || InputFiles.isProfilePath(path)
                        || sources.isProjectFile(path) || InputFiles.isSourceFile(path))
                    && (roots.isEmpty || roots.contains { abs == $0 || abs.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
            }
            let lintable: [String]
            do {
                lintable = try staged ? repository.stagedPaths().filter(isLintable)
                    : repository.changedPaths(since: changedSince!, maxBytes: options.limits.maxBytes, accept: isLintable)
            } catch {
                throw UsageError(error.description)
            }
            options.paths = lintable.map { Paths.display(repository.absolute($0), cwd: cwd) }
            if staged {
                options.virtualFiles = VirtualFiles.git(repository, revision: nil, paths: lintable, exclusive: false,
                                                        maxBytes: options.limits.maxBytes, maxTotalBytes: options.maxTotalBytes)
            }
            // The families of the changed units are reported whole; the changed files as they
            // were (read only if the run finds something on an unchanged file of such a family).
            // A file the revision lacks (added since) reads as unreadable there.
            options.reportsChangedFamilies = true
            options.priorFiles = VirtualFiles.git(repository, revision: changedSince ?? "HEAD", paths: lintable, exclusive: false,
                                                  maxBytes: options.limits.maxBytes, maxTotalBytes: options.maxTotalBytes)
        }
        if let against {
            do {
                let reference = try RevisionReference.reference(at: against, repository: repository, options: options, knownRules: knownRules())
                options.lock = reference.lock
                options.setupFindings += reference.findings
            } catch {
                throw UsageError(error.description)
            }
        }
    }

    /// `--config-from REV`: the revision's files, read lazily (`TrustedFiles`); nil without it. A
    /// run that writes a baseline records what it finds now, so it takes no baseline from a revision.
    public func trustedFiles() throws(UsageError) -> TrustedFiles? {
        guard let configFrom else { return nil }
        if writeBaseline != nil { throw UsageError("--config-from and --write-baseline cannot be used together: a baseline is written from the working tree's configuration") }
        let repository: GitRepository
        do { repository = try GitRepository.open() } catch { throw UsageError(error.description) }
        return try TrustedFiles.at(configFrom, repository: repository)
    }

    /// The extension of a path's last component, lower-cased ("" for none).
    static func ext(_ path: String) -> String {
        let name = Paths.baseName(path)
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
