import Dispatch
public import PropertyList
public import Provisioning

/// The options of one run: inputs, the facts given on the command line, reference points.
public struct LintOptions: Sendable {
    public var paths: [String] = ["."]
    public var profilePath: String?
    public var bundleID: String?
    public var teamID: String?
    public var configuration: Configuration?
    public var lockPath: String?
    public var limits = PlistLimits.default
    /// Bytes read from entitlements files, plists and profiles in one run (`--max-total-bytes`).
    public var maxTotalBytes = RunLimits.defaultMaxTotalBytes
    /// Findings one run reports (`--max-findings`): `Linter.capped`.
    public var maxFindings = RunLimits.defaultMaxFindings
    /// Bytes of one rendered report (`--max-output-bytes`), for the CLI's reporters.
    public var maxOutputBytes = RunLimits.defaultMaxOutputBytes
    /// Use both cores for parsing (off for deterministic single-thread checks; output is sorted either way).
    public var parallel = true
    /// Threads at most when `parallel` (`--jobs N`); 0: one per core.
    public var jobs = 0
    /// The worker count `Parallel.forEach` gets: 1 when not parallel.
    var workers: Int { parallel ? jobs : 1 }
    /// Read the lock file for `default-group-drift` (off for `entitlint lock`, which writes it).
    public var readLock = true
    /// Files read from git instead of the disk (`--staged`, `--against`); see `VirtualFiles`.
    public var virtualFiles: VirtualFiles?
    /// The reference point for `default-group-drift` when not read from a lock file (`--against`).
    public var lock: LockFile?
    /// "Now" and thresholds for time-dependent rules (`profile-expired`, `profile-expiring`, ...).
    public var settings = CheckSettings()
    /// Reads built products named in `paths` (`.app`, `.ipa`, `.xcarchive`, Mach-O); set by the CLI.
    public var artifactReader: (any ArtifactReading)?
    /// Finds the units Xcode projects and XcodeGen specs define (ProjectUnits.swift); set by the CLI.
    public var discoverer: (any UnitDiscoverer)?
    /// `--profiles DIR`: folders (or files) of profiles to pair with units, repeatable.
    public var profileFolders: [String] = []
    /// Whether runs with project units also search the standard profile folders under the home
    /// folder (`--no-user-profiles` turns it off).
    public var userProfiles = true
    /// Whether a walked folder holding its own `.entitlint.yml` is left out of this run, to be
    /// linted with that configuration (`LintResult.nestedConfigurationFolders`), as each file
    /// takes the configuration nearest to it. Off when `--config` names one for everything.
    public var nestedConfigurations = false

    public init() {}
}

/// What a file turned into.
public enum ParsedInput: Sendable {
    case entitlements(PlistDocument)
    case profile(ProvisioningProfile)
    case failed(reason: String, location: SourceLocation)
}

public struct LintResult: Sendable {
    public var findings: [Finding]
    public var files: Int
    public var units: [SigningUnit]
    public var profiles: [ProfileFile]
    /// Every file checked, as shown in findings.
    public var paths: [String] = []
    /// Findings left out past `LintOptions.maxFindings`; the last finding then says so.
    public var omittedFindings = 0
    /// Folders below a walked folder that hold their own `.entitlint.yml` (absolute, none inside
    /// another): their files were left out of this run (`LintOptions.nestedConfigurations`).
    public var nestedConfigurationFolders: [String] = []

    public init(findings: [Finding], files: Int, units: [SigningUnit], profiles: [ProfileFile], paths: [String] = [],
                omittedFindings: Int = 0) {
        self.findings = findings
        self.files = files
        self.units = units
        self.profiles = profiles
        self.paths = paths
        self.omittedFindings = omittedFindings
    }
}

extension LintResult {
    /// Adds the result of another part of the run (paths linted with another configuration).
    public mutating func merge(_ other: LintResult) {
        findings = (findings + other.findings).sorted()
        files += other.files
        units += other.units
        profiles += other.profiles
        paths += other.paths
        omittedFindings += other.omittedFindings
    }
}

public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}

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

    /// Whether `path` ends in `.ext` for one of `exts` (ASCII, case-insensitive), without
    /// allocating.
    public static func hasExtension(_ path: String, in exts: [[UInt8]]) -> Bool {
        func check(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            for e in exts where b.count > e.count {
                let start = b.count - e.count
                guard b[start - 1] == UInt8(ascii: ".") else { continue }
                var ok = true
                for (k, c) in e.enumerated() {
                    var x = b[start + k]
                    if x >= 65 && x <= 90 { x += 32 }
                    if x != c { ok = false; break }
                }
                if ok { return true }
            }
            return false
        }
        // Over the contiguous bytes: indexing `utf8` generically costs several times more.
        if let answer = path.utf8.withContiguousStorageIfAvailable(check) { return answer }
        return Array(path.utf8).withUnsafeBufferPointer(check)
    }

    static let walkedExtensions: [[UInt8]] = (entitlementsExtensions.sorted() + profileExtensions.sorted()).map { Array($0.utf8) }

    static func ext(_ path: String) -> String {
        let b = Paths.baseName(path)
        guard let dot = b.lastIndex(of: ".") else { return "" }
        return String(b[b.index(after: dot)...]).lowercased()
    }

    public static func isProfilePath(_ path: String) -> Bool { hasExtension(path, in: profileExtensionBytes) }
    /// `profileExtensions` as bytes, from literals: building the Set first would cost a pre-commit
    /// run the Swift runtime's scan for `String: Hashable` (ProfilePathTests checks they agree).
    static let profileExtensionBytes: [[UInt8]] = [Array("mobileprovision".utf8), Array("provisionprofile".utf8)]

    /// `project.pbxproj`, `*.xcconfig`, `project.yml` and `contents.xcworkspacedata`: project files,
    /// read by the discoverer (`LintOptions.discoverer`), never as loose property lists. Swift and
    /// Objective-C sources too: named on the command line (a hook passes the changed ones), they
    /// bring the targets that compile them into the run, and are read only as code.
    public static func isProjectFile(_ path: String) -> Bool {
        let base = Paths.baseName(path)
        if base == "project.pbxproj" || base == "project.yml" || base == "contents.xcworkspacedata" { return true }
        return ext(path) == "xcconfig" || isSourceFile(path)
    }

    /// `.swift`, `.m`, `.mm` and `.h`: what the code rules scan.
    public static func isSourceFile(_ path: String) -> Bool {
        switch ext(path) {
        case "swift", "m", "mm", "h": return true
        default: return false
        }
    }

    /// Parses one file's bytes as what its name says it is.
    public static func parse(bytes: [UInt8], path: String, limits: PlistLimits) -> ParsedInput {
        if isProfilePath(path) {
            do {
                return .profile(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        // Decide by content when the name does not say: a DER/BER SEQUENCE is a CMS profile, and a
        // plist with the top-level keys of a profile is a decoded profile (`security cms -D` output).
        if bytes.first == 0x30 {
            do {
                return .profile(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        do {
            let doc = try PropertyListReader.parse(bytes, limits: limits)
            if let root = doc.root.dict, root["Entitlements"]?.dict != nil,
               root["UUID"] != nil || root["TeamIdentifier"] != nil || root["ProvisionedDevices"] != nil,
               let profile = try? ProvisioningProfile(document: doc, envelope: .plainPlist) {
                return .profile(profile)
            }
            return .entitlements(doc)
        } catch {
            return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
        }
    }

    public static func parse(path: String, limits: PlistLimits) -> ParsedInput {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path, limit: limits.maxBytes)
        } catch {
            return .failed(reason: "cannot read the file: \(error)", location: .unknown)
        }
        return parse(bytes: bytes, path: path, limits: limits)
    }

    /// Collects the input files: explicit files as given, folders walked for entitlements and
    /// profiles, config apps' files; exclude globs apply to walked files.
    public func collectFiles(_ options: LintOptions) throws(UsageError) -> [String] {
        var refused: [String] = []
        var unreadable: [(String, String)] = []
        var nested: [String] = []
        return try collectFiles(options, refusedLinks: &refused, unreadable: &unreadable, nestedConfigurations: &nested)
    }

    /// `collectFiles(_:)`; `refusedLinks` gets the symlinked files the walks met that lead
    /// outside the project root (`ProjectRoot`): not followed, not read; `unreadable` the folders
    /// a walk could not read (path and why); `nestedConfigurations` the folders left out because
    /// they hold their own configuration (`LintOptions.nestedConfigurations`).
    public func collectFiles(_ options: LintOptions, refusedLinks: inout [String],
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
                    // Project files too when projects are discovered (one walk: ProjectUnits.swift).
                    guard Linter.hasExtension(p, in: Linter.walkedExtensions)
                            || (options.discoverer != nil && Linter.isProjectMarker(p))
                            || (options.nestedConfigurations && Paths.baseName(p) == Configuration.fileName) else { return false }
                    return !(config?.excludes(p, cwd: cwd) ?? false)
                }
                if options.nestedConfigurations {
                    found.removeAll { p in
                        guard Paths.baseName(p) == Configuration.fileName else { return false }
                        if Paths.directoryName(Paths.absolute(p, cwd: cwd)) != configFolder { nestedConfigFiles.append(p) }
                        return true
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
                // every changed file. Xcode project files are not read yet.
                guard !Self.isProjectFile(path), !(config?.excludes(path, cwd: cwd) ?? false) else { continue }
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

    /// Runs the whole pipeline.
    /// The rules that check an entitlements file on its own, needing no bundle ID, team, profile,
    /// platform or build setting: the only ones run on a file no target uses.
    public static let factFreeRules: Set<String> = [
        "parse-error", "wildcard-access-group", "empty-access-group", "non-string-access-group", "double-prefix",
        "duplicate-key", "duplicate-access-group", "comment-in-plist", "der-unencodable-value", "unused-entitlements-file",
    ]

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

    /// The reference rules once every unit of the run is known: each unit renamed since the
    /// reference against the entry it pairs with (its name's entry was checked with the unit),
    /// and the entries of a lock file that no unit pairs with, among those the run covered: an
    /// entry whose file was read in the run, or whose file is gone from a folder the run walked
    /// (a path from the lock is looked up only there, never opened);
    /// an entry that records no file, when the run walked the lock file's folder. `context`:
    /// units formed only to be compared with (a project's other targets), never reported on.
    func referenceFindings(units: [SigningUnit], context: [SigningUnit], lock: LockFile?, options: LintOptions, cwd: String) -> [Finding] {
        guard let lock, !lock.units.isEmpty else { return [] }
        let referenceRules = rules.compactMap { $0.asReferenceRule }
        guard !referenceRules.isEmpty else { return [] }
        let units = units.filter { !$0.isUnused }
        let all = units + context
        let (renamed, unpaired) = lock.pair(units, all: Set(all.map(\.name)), cwd: cwd)
        var out: [Finding] = []
        for unit in units {
            guard let name = renamed[unit.name], let entry = lock.units[name] else { continue }
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings, lockEntry: (name, entry))
            for rule in referenceRules { out += rule.check(context) }
        }
        out = Self.foldConfigurations(out, units: units)
        guard lock.reference == nil, !unpaired.isEmpty else { return out }
        let read = Set(all.map { Paths.absolute($0.entitlementsPath, cwd: cwd) })
        let walked = options.paths.map { Paths.absolute($0, cwd: cwd) }.filter { Paths.kind($0) == .directory }
        func isWalked(_ path: String) -> Bool { walked.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") } }
        let covered = unpaired.filter { name in
            if let file = lock.file(of: lock.units[name]!, cwd: cwd) {
                return read.contains(file) || (isWalked(file) && Paths.kind(file) == .missing)
            }
            return lock.path.map { isWalked(Paths.absolute(Paths.directoryName($0), cwd: cwd)) } ?? false
        }
        guard !covered.isEmpty else { return out }
        for rule in referenceRules { out += rule.check(unpaired: covered, in: lock) }
        return out
    }

    /// The lock file when neither `--lock` nor the configuration's `lock:` names one:
    /// `entitlint.lock` beside the configuration, else in the current folder.
    public static func defaultLockPath(_ configuration: Configuration?) -> String {
        configuration?.resolve("entitlint.lock") ?? "entitlint.lock"
    }

    static func loadLock(_ options: LintOptions) throws -> LockFile? {
        guard options.readLock else { return nil }
        if let lock = options.lock { return lock }
        if let p = options.lockPath { return try LockFile.load(path: p) }
        if let c = options.configuration, let p = c.lock {
            let resolved = c.resolve(p)
            return Paths.kind(resolved) == .file ? try LockFile.load(path: resolved) : nil
        }
        let standard = Self.defaultLockPath(options.configuration)
        if Paths.kind(standard) == .file { return try LockFile.load(path: standard) }
        return nil
    }

    /// Forms the signing unit of one entitlements file: flags, then the config, then the profile,
    /// then what the file itself says.
    func makeUnit(path: String, shown: String, document: PlistDocument, options: LintOptions,
                  profiles: [ProfileFile], byAbs: [String: ParsedInput], cwd: String) -> SigningUnit {
        let config = options.configuration
        let configPath = config?.path.map { Paths.display($0, cwd: cwd) } ?? ".entitlint.yml"
        var app: Configuration.App?
        if let config, !config.apps.isEmpty {
            let abs = Paths.absolute(path, cwd: cwd)
            app = config.apps.first { Paths.absolute(config.resolve($0.entitlements), cwd: cwd) == abs }
        }
        var unit = SigningUnit(name: app?.name ?? Paths.stem(path), entitlementsPath: shown, document: document,
                               variables: config?.variables ?? [:])
        let ent = unit.entitlements

        // Team ID.
        if let t = options.teamID { unit.teamID = Fact(t, from: .flag("--team-id")) }
        else if let t = app?.team { unit.teamID = Fact(t, from: .config(configPath)) }
        else if let t = config?.team { unit.teamID = Fact(t, from: .config(configPath)) }
        // Bundle ID.
        if let b = options.bundleID { unit.bundleID = Fact(b, from: .flag("--bundle-id")) }
        else if let b = app?.bundleID { unit.bundleID = Fact(b, from: .config(configPath)) }

        // Facts the file states itself: a literal application-identifier `PREFIX.bundle`.
        let appIDKey = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        if let appID = ent[appIDKey]?.string, !appID.containsASCII(sequence: "$("), !appID.containsASCII(sequence: "${"),
           let dot = appID.firstIndex(of: "."), String(appID[..<dot]).isTeamIDLike {
            let prefix = String(appID[..<dot])
            let bundle = String(appID[appID.index(after: dot)...])
            if unit.bundleID == nil, !bundle.isEmpty, !bundle.containsASCII("*") {
                unit.bundleID = Fact(bundle, from: .entitlements(key: appIDKey))
            }
            unit.appIDPrefix = Fact(prefix, from: .entitlements(key: appIDKey))
        }

        // Profile: the flag, the config app's, else the best match among the inputs.
        var profile: ProfileFile?
        if let p = options.profilePath ?? app?.profile.map({ config!.resolve($0) }) {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] {
                profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof)
            }
        } else {
            profile = Self.bestProfile(for: unit, among: profiles)
        }
        if let profile {
            unit.profile = profile
            let prof = profile.profile
            if let prefix = prof.applicationIdentifierPrefixes.first {
                unit.appIDPrefix = Fact(prefix, from: .profile(profile.path))
            }
            if unit.teamID == nil, let team = prof.teamIdentifiers.first {
                unit.teamID = Fact(team, from: .profile(profile.path))
            }
            if unit.bundleID == nil, let pattern = prof.applicationIdentifier, !pattern.containsASCII("*"),
               let dot = pattern.firstIndex(of: ".") {
                unit.bundleID = Fact(String(pattern[pattern.index(after: dot)...]), from: .profile(profile.path))
            }
            unit.platform = prof.isMacOS ? .macOS : .iOS
        }
        if unit.appIDPrefix == nil, let team = unit.teamID {
            unit.appIDPrefix = Fact(team.value, from: .derived("App ID prefix taken to be the Team ID (\(team.source))"))
        }
        if unit.teamID == nil, let t = ent["com.apple.developer.team-identifier"]?.string, t.isTeamIDLike {
            unit.teamID = Fact(t, from: .entitlements(key: "com.apple.developer.team-identifier"))
            if unit.appIDPrefix == nil {
                unit.appIDPrefix = Fact(t, from: .derived("App ID prefix taken to be the Team ID (com.apple.developer.team-identifier)"))
            }
        }
        if unit.platform == .unknown {
            if ent["com.apple.application-identifier"] != nil || ent["com.apple.security.app-sandbox"] != nil
                || ent["com.apple.developer.team-identifier"] != nil && ent["application-identifier"] == nil {
                unit.platform = .macOS
            } else if ent["application-identifier"] != nil || ent["aps-environment"] != nil {
                unit.platform = .iOS
            }
        }
        return unit
    }

    /// The profile whose `application-identifier` pattern covers the unit's App ID; the most
    /// specific (longest) pattern wins. With no prefix known, the part after the prefix is
    /// matched against the bundle ID.
    public static func bestProfile(for unit: SigningUnit, among profiles: [ProfileFile]) -> ProfileFile? {
        guard let bundle = unit.bundleID?.value else { return nil }
        var best: (ProfileFile, Int)?
        for p in profiles {
            guard let pattern = p.profile.applicationIdentifier, let dot = pattern.firstIndex(of: ".") else { continue }
            let prefix = String(pattern[..<dot])
            if let known = unit.appIDPrefix?.value, known != prefix { continue }
            let rest = String(pattern[pattern.index(after: dot)...])
            guard ProfileAllowlist.allows(pattern: rest, value: bundle) else { continue }
            let score = rest.hasSuffix("*") ? rest.count - 1 : rest.count + 1000
            if best == nil || score > best!.1 || (score == best!.1 && p.path < best!.0.path) { best = (p, score) }
        }
        return best?.0
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
