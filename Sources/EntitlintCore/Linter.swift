import Dispatch
public import PropertyList
public import Provisioning

/// inputs -> documents -> signing units -> rules -> findings (DESIGN.md section 1).
public struct Linter: Sendable {
    public var rules: [any Rule]
    public var severityOverrides: [String: Configuration.RuleSetting]

    public init(rules: [any Rule], severityOverrides: [String: Configuration.RuleSetting] = [:]) {
        self.rules = rules
        self.severityOverrides = severityOverrides
    }

    public static let entitlementsExtensions: Set<String> = ["entitlements", "xcent"]
    public static let profileExtensions: Set<String> = ["mobileprovision", "provisionprofile"]

    /// The rules that check an entitlements file on its own, needing no bundle ID, team, profile,
    /// platform or build setting: the only ones run on a file no target uses.
    public static let factFreeRules: Set<String> = [
        "parse-error", "wildcard-access-group", "empty-access-group", "non-string-access-group", "double-prefix",
        "duplicate-key", "duplicate-access-group", "comment-in-plist", "der-unencodable-value", "unused-entitlements-file",
    ]

    /// Runs the whole pipeline.
    public func lint(_ options: LintOptions) throws(UsageError) -> LintResult {
        // Built products named on the command line go to the artifact reader, the rest as usual.
        let artifactPaths = options.artifactReader.map { r in options.paths.filter { options.virtualFiles == nil && r.handles($0) } } ?? []
        let options = artifactPaths.isEmpty ? options : options.without(paths: artifactPaths)
        var refusedLinks: [String] = []
        var unreadable: [(String, String)] = []
        var nestedFolders: [String] = []
        var files = try collectFiles(options, refusedLinks: &refusedLinks, unreadable: &unreadable, nestedConfigurations: &nestedFolders)
        let cwd = Paths.currentDirectory()
        let limits = options.limits
        let discovery = discoverProjectUnits(options, files: &files, cwd: cwd)

        var extraProfiles: [String] = []
        if let p = options.profilePath { extraProfiles.append(p) }
        for app in options.configuration?.apps ?? [] {
            if let p = app.profile, let config = options.configuration { extraProfiles.append(config.resolve(p)) }
        }
        extraProfiles += try options.configuredProfiles()
        extraProfiles += try options.profileFolderPaths(standard: discovery?.units.isEmpty == false)
        for p in extraProfiles where options.kind(p) == .missing {
            throw UsageError("no such profile: \(p)")
        }
        var allPaths = files
        if !extraProfiles.isEmpty {
            let inputSet = Set(files.map { Paths.absolute($0, cwd: cwd) })
            for p in extraProfiles where !inputSet.contains(Paths.absolute(p, cwd: cwd)) { allPaths.append(p) }
            allPaths = Array(Set(allPaths)).sorted()
        }

        let parsed = options.virtualFiles?.parse(allPaths, limits: limits, cwd: cwd) ?? Self.parseAll(allPaths, limits: limits, maxTotalBytes: options.maxTotalBytes, jobs: options.workers)
        // Profiles by absolute path, for explicit pairing (`--profile`, config `profile:`).
        var byAbs: [String: ParsedInput] = [:]
        for (p, r) in zip(allPaths, parsed) {
            if case .profile = r { byAbs[Paths.absolute(p, cwd: cwd)] = r }
        }

        // A folder the walk could not read is a finding: a run over only such folders must not
        // pass as "no problems".
        var findings = unreadable.map { path, why in
            Finding(rule: "parse-error", severity: .error, message: "cannot read the folder: \(why); the files in it are not checked",
                    path: Paths.display(path, cwd: cwd))
        } + refusedLinks.map {
            Finding(rule: "parse-error", severity: .error, message: "a symbolic link that leads outside the project root: not followed, not read",
                    path: Paths.display($0, cwd: cwd), line: 0, column: 0)
        }
        var profiles: [ProfileFile] = []
        var documents: [(path: String, shown: String, doc: PlistDocument)] = []
        for (path, result) in zip(allPaths, parsed) {
            let shown = Paths.display(path, cwd: cwd)
            switch result {
            case .failed(let reason, let loc):
                findings.append(Finding(rule: "parse-error", severity: .error,
                                        message: "cannot parse \(Self.isProfilePath(path) ? "profile" : "property list"): \(reason)",
                                        path: shown, line: loc.line, column: loc.column))
            case .profile(let p):
                profiles.append(ProfileFile(path: shown, profile: p))
            case .entitlements(let doc):
                documents.append((path, shown, doc))
            }
        }

        let lock: LockFile?
        do { lock = try Self.loadLock(options) } catch { throw UsageError("\(error)") }

        // Signing units and their rules, one file per task, on every core. Each task writes its
        // unit straight into the result array (a SigningUnit is over a kilobyte: no second copy
        // of them all, which was a fifth of the peak memory on 10,000 files).
        let perUnit = UnsafeMutableBufferPointer<[Finding]>.allocate(capacity: documents.count)
        perUnit.initialize(repeating: [])
        defer { perUnit.deallocate() }
        nonisolated(unsafe) let slots = perUnit
        nonisolated(unsafe) let docs = documents
        nonisolated(unsafe) let parsedByPath = byAbs
        let knownProfiles = profiles
        let projectFolders = discovery?.units.isEmpty == false ? discovery! : Discovery()
        var units = [SigningUnit](unsafeUninitializedCapacity: documents.count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            let work: @Sendable (Int) -> Void = { i in
                let d = docs[i]
                var unit = self.makeUnit(path: d.path, shown: d.shown, document: d.doc, options: options,
                                         profiles: knownProfiles, byAbs: parsedByPath, cwd: cwd)
                if !projectFolders.projectFolders.isEmpty, projectFolders.isInProjectFolder(Paths.absolute(d.path, cwd: cwd)) {
                    unit.isUnused = true
                }
                let context = UnitContext(unit: unit, lock: lock, settings: options.settings)
                var found: [Finding] = []
                for rule in self.rules where !unit.isUnused || Self.factFreeRules.contains(type(of: rule).description.id) {
                    // Most rules find nothing: appending their empty array still made a new
                    // buffer for `found` every time.
                    let result = rule.check(context)
                    if !result.isEmpty { found += result }
                }
                slots[i] = found
                (out.baseAddress! + i).initialize(to: unit)
            }
            Parallel.forEach(documents.count, jobs: options.workers, work)
            initialized = documents.count
        }
        for found in perUnit { findings += found }
        // Profiles found by walking a folder (committed in the repository), not named by the user.
        let named = Set(options.paths.map { Paths.absolute($0, cwd: cwd) } + extraProfiles.map { Paths.absolute($0, cwd: cwd) })
        let walkedProfiles = Set(files.filter(Self.isProfilePath).map { Paths.absolute($0, cwd: cwd) }).subtracting(named)
        let project = lintProjectUnits(discovery, looseUnits: units, options: options, profiles: profiles, walkedProfiles: walkedProfiles,
                                       byAbs: byAbs, lock: lock, cwd: cwd)
        units += project.units
        findings += project.findings
        var checkedPaths = withProjectPaths(allPaths.map { Paths.display($0, cwd: cwd) }, discovery)
        if let reader = options.artifactReader, !artifactPaths.isEmpty {
            let built = lintArtifacts(artifactPaths, reader: reader, options: options, lock: lock, cwd: cwd)
            findings += built.findings
            units += built.units
            profiles += built.profiles
            checkedPaths += built.paths
        }
        findings += referenceFindings(units: units, context: project.context, lock: lock, options: options, cwd: cwd)
        findings += profileFindings(units: units, named: Self.namedProfiles(profiles, paths: options.paths + (options.profilePath.map { [$0] } ?? []), cwd: cwd),
                                    settings: options.settings)
        findings = finish(findings, documents: Self.documents(of: units), configuration: options.configuration, cwd: cwd)
        let omitted = max(0, findings.count - options.maxFindings)
        findings = Self.capped(findings, at: options.maxFindings)
        var result = LintResult(findings: findings, files: checkedPaths.count, units: units, profiles: profiles,
                                paths: checkedPaths, omittedFindings: omitted)
        result.nestedConfigurationFolders = nestedFolders
        result.codeIndex = project.codeIndex
        return result
    }

    /// The first `limit` of `sorted` (in report order), then, when some are left out, one more
    /// finding that says how many, at the first one left out, with the highest severity of
    /// those left out: the exit status is the same as with all of them.
    /// `earlier`: a notice of an earlier cut, last in `sorted`, whose findings count here too.
    public static func capped(_ sorted: [Finding], at limit: Int, name: String = RunLimits.findingsName,
                              earlier: (notice: Finding, count: Int)? = nil) -> [Finding] {
        let findings = earlier == nil ? sorted[...] : sorted.dropLast()
        guard findings.count > limit else { return sorted }
        let kept = Array(findings.prefix(limit))
        let cut = findings[(findings.startIndex + limit)...]
        let first = cut.first!
        let worst = max(cut.map(\.severity).max() ?? .note, earlier?.notice.severity ?? .note)
        let count = cut.count + (earlier?.count ?? 0)
        let reason = name == RunLimits.findingsName
            ? "the run reports at most \(limit) findings"
            : "the report would pass the limit of its size"
        let notice = Finding(rule: "parse-error", severity: worst,
                             message: "\(count) more finding\(count == 1 ? " is" : "s are") not shown, from here on: \(reason) (\(RunLimits.howToRaise(name)))",
                             path: first.path, line: first.line, column: first.column)
        return kept + [notice]
    }

    func applySeverities(_ findings: [Finding]) -> [Finding] {
        let enabled = Set(rules.map { type(of: $0).description.id } + ["parse-error"])
        return findings.compactMap { f in
            var f = f
            guard enabled.contains(f.rule) else { return nil }
            switch severityOverrides[f.rule] {
            case .off?: return nil
            case .error?: f.severity = .error
            case .warning?: f.severity = .warning
            case .note?: f.severity = .note
            case nil: break
            }
            return f
        }
    }
}

extension Linter {
    /// Lints one in-memory entitlements file with the given facts: what rule examples and
    /// library users need without touching the file system.
    public func lint(entitlements bytes: [UInt8], path: String, name: String? = nil, bundleID: String? = nil,
                     teamID: String? = nil, profile: ProfileFile? = nil, lock: LockFile? = nil,
                     limits: PlistLimits = .default) -> [Finding] {
        var findings: [Finding] = []
        var documents: [String: PlistDocument] = [:]
        switch Self.parse(bytes: bytes, path: path, limits: limits) {
        case .failed(let reason, let loc):
            findings.append(Finding(rule: "parse-error", severity: .error, message: "cannot parse property list: \(reason)",
                                    path: path, line: loc.line, column: loc.column))
        case .profile:
            break
        case .entitlements(let doc):
            documents[path] = doc
            let unit = unit(document: doc, path: path, name: name, bundleID: bundleID, teamID: teamID, profile: profile)
            let context = UnitContext(unit: unit, lock: lock)
            for rule in rules {
                let result = rule.check(context)
                if !result.isEmpty { findings += result }
            }
        }
        return finish(findings, documents: documents, configuration: nil)
    }
}
