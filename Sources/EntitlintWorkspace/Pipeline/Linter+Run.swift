import Dispatch
public import EntitlintCore
import PropertyList
import Provisioning

/// A whole run over files and folders. Each step below is one stage; their order is the run's.
extension Linter {
    /// Runs the whole pipeline over files and folders: the inputs (`FileCollector`), the
    /// projects and built products (the discovery sources), the documents (`DocumentReader`), the
    /// units (`UnitFormer`), then `run` (rules and post-processing), and the result.
    public func lint(_ options: LintOptions) throws(UsageError) -> LintResult {
        // Built products named on the command line go to the source that takes them, the rest as usual.
        let artifactPaths = options.sourceInputs
        var options = artifactPaths.isEmpty ? options : options.without(paths: artifactPaths)
        let cwd = Paths.currentDirectory()
        options.settings.workingDirectory = cwd
        var walk = WalkReport()
        var files = try FileCollector.collect(options, refusedLinks: &walk.refusedLinks, unreadable: &walk.unreadable,
                                              nestedConfigurations: &walk.nestedFolders)
        let discovery = options.discoverProjectUnits(inputs: artifactPaths, files: &files, cwd: cwd)
        let userProfilePaths = options.userProfilePaths(standard: discovery?.units.isEmpty == false)
        let extraProfiles = try Self.extraProfiles(options, discovery: discovery) + userProfilePaths
        let allPaths = Self.withExtraProfiles(files, extraProfiles, cwd: cwd)
        let parsed = options.virtualFiles?.parse(allPaths, limits: options.limits, cwd: cwd)
            ?? DocumentReader.parseAll(allPaths, limits: options.limits, maxTotalBytes: options.maxTotalBytes, jobs: options.workers)
        let byAbs = Self.profilesByAbsolutePath(allPaths, parsed, cwd: cwd)
        var earlier = walk.findings(cwd: cwd)
        // The home folder's profiles are the developer's, not the project's: one that cannot be
        // read is not reported, and one that pairs with no unit is not named in the result.
        let userProfiles = Set(userProfilePaths.map { Paths.absolute($0, cwd: cwd) })
        var (profiles, documents) = Self.sortParsed(allPaths, parsed, findings: &earlier, quiet: userProfiles, cwd: cwd)

        let lock: LockFile?
        do { lock = try options.loadLock() } catch { throw UsageError("\(error)") }

        var planned = UnitFormer.looseUnits(documents, options: options, profiles: profiles, byAbs: byAbs, discovery: discovery, cwd: cwd)
        if let discovery, !discovery.units.isEmpty {
            planned += UnitFormer.projectUnits(discovery, options: options, profiles: profiles,
                                               walkedProfiles: Self.walkedProfiles(files, options: options, extraProfiles: extraProfiles, cwd: cwd),
                                               byAbs: byAbs, cwd: cwd)
        }
        earlier += discovery?.findings ?? []
        var checkedPaths = Discovery.withProjectPaths(allPaths.map { Paths.display($0, cwd: cwd) }, discovery)
        if let products = discovery?.built {
            planned += products.units.map { PlannedUnit($0, lineless: true) }
            earlier += products.findings
            profiles += products.profiles
            checkedPaths += products.paths
        }
        let codeIndex = discovery?.units.isEmpty == false
            ? CodeIndex.disk(limit: options.limits.maxBytes, cwd: cwd, virtualFiles: options.virtualFiles, configuration: options.configuration,
                             jobs: options.workers)
            : nil
        var plan = UnitPlan(units: planned, lock: lock, settings: options.settings, configuration: options.configuration)
        plan.namedProfiles = Self.namedProfiles(profiles, paths: options.paths + (options.profilePath.map { [$0] } ?? [])
                                                + (discovery?.namedProfiles ?? []), cwd: cwd)
        plan.codeIndex = codeIndex
        plan.projectDirectiveFiles = (discovery?.files ?? []).filter { path in
            let ext = Paths.baseName(path).split(separator: ".").last.map { $0.lowercased() } ?? ""
            return ext == "xcconfig" || ext == "yml" || ext == "yaml"
        }
        plan.earlierFindings = earlier + options.setupFindings
        let paths = options.paths
        plan.walkedFolders = { paths.map { Paths.absolute($0, cwd: cwd) }.filter { Paths.kind($0) == .directory } }
        plan.isMissing = { Paths.kind($0) == .missing }
        plan.maxFindings = options.maxFindings
        plan.jobs = options.workers
        if options.reportsChangedFamilies { plan.reportedFamilies = Self.changedFamilies(planned) }
        let (findings, omitted, units) = run(plan)

        if !userProfiles.isEmpty {
            let paired = Set(units.compactMap { $0.profile.map { Paths.absolute($0.path, cwd: cwd) } })
            profiles = profiles.filter { p in
                let abs = Paths.absolute(p.path, cwd: cwd)
                return !userProfiles.contains(abs) || paired.contains(abs)
            }
        }
        var result = LintResult(findings: findings, files: checkedPaths.count, units: units, profiles: profiles,
                                paths: checkedPaths, omittedFindings: omitted)
        result.notices = ((discovery?.notices ?? []) + Self.unresolvedNotices(units, jobs: options.workers) + Self.unsignedProfileNotices(units)
                          + (codeIndex?.notices ?? [])).sorted()
        result.nestedConfigurationFolders = walk.nestedFolders
        result.codeIndex = codeIndex
        return result
    }

    /// For each loose entitlements file (no target read here signs with it) that uses settings
    /// nothing known expands, one notice naming them: unknown, not wrong.
    /// One unit per task on `jobs` threads (0: one per core), in unit order.
    static func unresolvedNotices(_ units: [SigningUnit], jobs: Int = 0) -> [Notice] {
        let slots = UnsafeMutableBufferPointer<Notice?>.allocate(capacity: units.count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize(); slots.deallocate() }
        nonisolated(unsafe) let out = slots
        Parallel.forEach(units.count, jobs: jobs) { i in
            // Fields read in place: copying a whole unit costs a retain per field.
            guard units[i].origin == nil, units[i].artifact == nil, !units[i].isUnused else { return }
            let refs = units[i].unresolvedReferences()
            guard let first = refs.first else { return }
            let names = refs.prefix(6).map { OutputText.excerpt($0.text) }.joined(separator: ", ") + (refs.count > 6 ? " and \(refs.count - 6) more" : "")
            out[i] = Notice(message: "this file uses \(names), which no project read here sets (the build that signs it, CMake, Bazel, Tuist or a script, may): what is built from \(refs.count == 1 ? "it is" : "them is") not checked; give the values under `variables:` in .entitlint.yml to check it",
                            path: units[i].entitlementsPath, line: first.location.line, column: first.location.column)
        }
        return slots.compactMap { $0 }
    }

    /// For each profile a unit is paired with that is a bare property list (no CMS envelope: no
    /// signature at all), one notice: its facts are used as written, not as Apple vouched for them.
    static func unsignedProfileNotices(_ units: [SigningUnit]) -> [Notice] {
        var seen = Set<String>()
        var out: [Notice] = []
        for unit in units {
            guard let p = unit.profile, p.profile.envelope == .plainPlist, seen.insert(p.path).inserted else { continue }
            out.append(Notice(message: "this profile is not signed (a bare property list, not Apple's signed envelope): its facts are used as written, though no device or upload would accept it",
                              path: p.path))
        }
        return out
    }

    /// What the folder walks met besides the files they collected.
    private struct WalkReport {
        var refusedLinks: [String] = []
        var unreadable: [(String, String)] = []
        var nestedFolders: [String] = []

        /// A folder the walk could not read is a finding: a run over only such folders must not
        /// pass as "no problems". So is a link leading out of the project.
        func findings(cwd: String) -> [Finding] {
            unreadable.map { path, why in
                Finding(rule: ToolFindings.unreadablePath, severity: .error, message: "cannot read the folder: \(why); the files in it are not checked",
                        path: Paths.display(path, cwd: cwd))
            } + refusedLinks.map {
                Finding(rule: ToolFindings.linkOutsideRoot, severity: .error, message: "a symbolic link that leads outside the project root: not followed, not read",
                        path: Paths.display($0, cwd: cwd), line: 0, column: 0)
            }
        }
    }

    /// The profiles read besides the inputs: `--profile`, the configuration apps' `profile:`,
    /// its `profiles:`, the `--profiles` folders and (for a run with project units) the standard
    /// folders. A missing one is a usage error.
    private static func extraProfiles(_ options: LintOptions, discovery: Discovery?) throws(UsageError) -> [String] {
        var extraProfiles: [String] = []
        if let p = options.profilePath { extraProfiles.append(p) }
        for app in options.configuration?.apps ?? [] {
            if let p = app.profile, let config = options.configuration { extraProfiles.append(config.resolve(p)) }
        }
        extraProfiles += try options.configuredProfiles()
        extraProfiles += try options.profileFolderPaths()
        for p in extraProfiles where options.kind(p) == .missing {
            throw UsageError("no such profile: \(p)")
        }
        return extraProfiles
    }

    /// The files to parse: the collected ones, plus the extra profiles not among them (sorted then).
    private static func withExtraProfiles(_ files: [String], _ extraProfiles: [String], cwd: String) -> [String] {
        guard !extraProfiles.isEmpty else { return files }
        var allPaths = files
        let inputSet = Set(files.map { Paths.absolute($0, cwd: cwd) })
        for p in extraProfiles where !inputSet.contains(Paths.absolute(p, cwd: cwd)) { allPaths.append(p) }
        return Array(Set(allPaths)).sorted()
    }

    /// Profiles by absolute path, for explicit pairing (`--profile`, config `profile:`).
    private static func profilesByAbsolutePath(_ paths: [String], _ parsed: [ParsedInput], cwd: String) -> [String: ParsedInput] {
        var byAbs: [String: ParsedInput] = [:]
        for (p, r) in zip(paths, parsed) {
            if case .profile = r { byAbs[Paths.absolute(p, cwd: cwd)] = r }
        }
        return byAbs
    }

    /// The parsed files as profiles and entitlements documents; a file that failed is a finding.
    private static func sortParsed(_ paths: [String], _ parsed: [ParsedInput], findings: inout [Finding], quiet: Set<String> = [], cwd: String)
        -> (profiles: [ProfileFile], documents: [(path: String, shown: String, doc: PlistDocument)]) {
        var profiles: [ProfileFile] = []
        var documents: [(path: String, shown: String, doc: PlistDocument)] = []
        for (path, result) in zip(paths, parsed) {
            let shown = Paths.display(path, cwd: cwd)
            switch result {
            case .failed(let reason, let loc):
                if !quiet.isEmpty, quiet.contains(Paths.absolute(path, cwd: cwd)) { continue }
                findings.append(Finding(rule: ToolFindings.parseError, severity: .error,
                                        message: "cannot parse \(InputFiles.isProfilePath(path) ? "profile" : "property list"): \(reason)",
                                        path: shown, line: loc.line, column: loc.column))
            case .unread(let reason, let rule):
                if !quiet.isEmpty, quiet.contains(Paths.absolute(path, cwd: cwd)) { continue }
                findings.append(Finding(rule: rule, severity: .error,
                                        message: "cannot parse \(InputFiles.isProfilePath(path) ? "profile" : "property list"): \(reason)", path: shown))
            case .profile(let p):
                profiles.append(ProfileFile(path: shown, profile: p))
            case .entitlements(let doc):
                documents.append((path, shown, doc))
            }
        }
        return (profiles, documents)
    }

    /// Profiles found by walking a folder (committed in the repository), not named by the user.
    private static func walkedProfiles(_ files: [String], options: LintOptions, extraProfiles: [String], cwd: String) -> Set<String> {
        let named = Set(options.paths.map { Paths.absolute($0, cwd: cwd) } + extraProfiles.map { Paths.absolute($0, cwd: cwd) })
        return Set(files.filter(InputFiles.isProfilePath).map { Paths.absolute($0, cwd: cwd) }).subtracting(named)
    }
}

extension Linter {
    /// The profiles among `profiles` that were named as files on the command line (`paths`),
    /// compared by absolute path.
    static func namedProfiles(_ profiles: [ProfileFile], paths: [String], cwd: String) -> [ProfileFile] {
        let named = Set(paths.map { Paths.absolute($0, cwd: cwd) })
        return profiles.filter { named.contains(Paths.absolute($0.path, cwd: cwd)) }
    }
}
