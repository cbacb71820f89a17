import EntitlintCore
import PropertyList

/// The inputs stage: the files a run reads, from the paths given, the folders walked and the
/// configuration's apps.
enum FileCollector {
    /// Collects the input files: explicit files as given, folders walked for entitlements and
    /// profiles, config apps' files; exclude globs apply to walked files. `refusedLinks` gets the symlinked files the walks met that lead
    /// outside the project root (`ProjectRoot`): not followed, not read; `unreadable` the folders
    /// a walk could not read (path and why); `nestedConfigurations` the folders left out because
    /// they hold their own configuration (`LintOptions.nestedConfigurations`).
    static func collect(_ options: LintOptions, refusedLinks: inout [String],
                             unreadable: inout [(String, String)], nestedConfigurations: inout [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        var root: ProjectRoot?
        var refused: [String] = []
        defer { refusedLinks = Array(Set(refused)).sorted() }
        var problems: [(String, String)] = []
        defer { unreadable = problems }
        var seen = Set<String>()
        let cwd = Paths.currentDirectory()
        func add(_ p: String) {
            let key = Paths.absolute(p, cwd: cwd)
            if seen.insert(key).inserted { files.append(p) }
        }
        // The files of one walk are distinct paths: the set of absolute paths is built only when
        // a second path (or a configured app) could repeat one of them.
        var deduplicating = false
        func startDeduplicating() {
            guard !deduplicating else { return }
            deduplicating = true
            seen.reserveCapacity(files.count)
            for f in files { seen.insert(Paths.absolute(f, cwd: cwd)) }
        }
        let config = options.configuration
        let configurationName = [Array(Configuration.fileName.utf8)]
        let configFolder = config?.path.map { Paths.directoryName(Paths.absolute($0, cwd: cwd)) }
        var nestedConfigFiles: [String] = []
        for path in options.paths {
            switch options.kind(path) {
            case .missing:
                throw UsageError("no such file or folder: \(path)")
            case .directory:
                var found = options.walk(path, followsLink: { link in
                    if root == nil { root = options.projectRoot(cwd: cwd) }
                    if root!.contains(link, cwd: cwd) { return true }
                    refused.append(link)
                    return false
                }, unreadable: { problems.append(($0, $1)) }) { p in
                    // The files of the discovery sources too (one walk: `DiscoverySource.walkedFiles`).
                    guard InputFiles.hasExtension(p, in: InputFiles.walkedExtensions)
                            || options.discoverySources.walks(p)
                            || (options.nestedConfigurations && InputFiles.hasBaseName(p, in: configurationName)) else { return false }
                    return !(config?.excludes(p, cwd: cwd) ?? false)
                }
                if options.nestedConfigurations {
                    // A configuration file is the run's only as the trusted revision has it, when
                    // there is one: one on disk only is not, one at the revision only is.
                    found.removeAll { p in
                        guard InputFiles.hasBaseName(p, in: configurationName) else { return false }
                        if Paths.directoryName(Paths.absolute(p, cwd: cwd)) != configFolder,
                           TrustedFiles.isFile(p, in: options.trustedFiles) { nestedConfigFiles.append(p) }
                        return true
                    }
                    if let trusted = options.trustedFiles {
                        let known = Set(nestedConfigFiles.map { Paths.absolute($0, cwd: cwd) })
                        nestedConfigFiles += trusted.configurations(below: path).filter { p in
                            Paths.directoryName(Paths.absolute(p, cwd: cwd)) != configFolder && !known.contains(Paths.absolute(p, cwd: cwd))
                                && !(config?.excludes(p, cwd: cwd) ?? false)
                        }
                    }
                }
                if files.isEmpty && !deduplicating {
                    files = found
                } else {
                    startDeduplicating()
                    found.forEach(add)
                }
            case .file, .other:
                // Excludes apply to files named explicitly too (ruff's force-exclude): a hook passes
                // every changed file. Project files are the sources' (`DiscoverySource.projectFiles`), and
                // Swift and Objective-C sources are read only as code.
                guard !options.discoverySources.isProjectFile(path), !InputFiles.isSourceFile(path), !(config?.excludes(path, cwd: cwd) ?? false) else { continue }
                if files.isEmpty && !deduplicating {
                    files = [path]
                } else {
                    startDeduplicating()
                    add(path)
                }
            }
        }
        if !nestedConfigFiles.isEmpty {
            // The outermost folders with their own configuration; their files are theirs.
            let folders = Set(nestedConfigFiles.map { Paths.directoryName(Paths.absolute($0, cwd: cwd)) + "/" })
            let outermost = folders.filter { f in !folders.contains { $0 != f && f.hasPrefix($0) } }.sorted()
            files.removeAll { p in
                let a = Paths.absolute(p, cwd: cwd)
                return outermost.contains { a.hasPrefix($0) }
            }
            seen = Set(seen.filter { a in !outermost.contains { a.hasPrefix($0) } })
            nestedConfigurations = outermost.map { String($0.dropLast()) }
        }
        if let config = options.configuration {
            for app in config.apps {
                let p = config.resolve(app.entitlements)
                // Config apps are linted when they lie below a path given on the command line.
                let abs = Paths.absolute(p)
                let covered = options.paths.contains { given in
                    let g = Paths.absolute(given)
                    return abs == g || abs.hasPrefix(g.hasSuffix("/") ? g : g + "/")
                }
                if covered {
                    guard options.kind(p) != .missing else {
                        throw UsageError("\(config.path ?? ".entitlint.yml"): app entitlements not found: \(app.entitlements)")
                    }
                    startDeduplicating()
                    add(p)
                }
            }
        }
        return files
    }
}
