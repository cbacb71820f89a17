public import EntitlintCore
import Dispatch
public import PropertyList
import Provisioning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the signing units that projects define (Xcode projects, workspaces, XcodeGen specs) for
/// the paths of a run. The `XcodeProject` module implements it; the CLI sets it on `LintOptions`.
public protocol UnitDiscoverer: Sendable {
    /// `files`: the files the run collected (entitlements and profiles as given or walked, and the
    /// project files its folder walks found: `Linter.isProjectMarker`).
    func discover(_ options: LintOptions, files: [String], cwd: String) -> Discovery
}

/// A unit as a project defines it, before the run's flags, config and profiles are applied.
public struct DiscoveredUnit: Sendable {
    /// Unique in the run: `AppOne (Release)`.
    public var name: String
    /// The entitlements file, usable from the current folder; nil when the target names none.
    public var entitlementsPath: String?
    /// What findings about the entitlements name: the entitlements file as shown, or the project
    /// file for a target without one.
    public var shownPath: String
    public var document: PlistDocument
    public var bundleID: Fact<String>?
    public var teamID: Fact<String>?
    public var platform: Platform
    public var origin: UnitOrigin
    /// Values of the build settings the entitlements refer to (`$(MY_GROUP)`).
    public var variables: [String: String]
    /// False for units that are only context for project rules (the other targets of a project
    /// when the run named one file of it): they are not linted, and findings about them are dropped.
    public var inScope: Bool
    /// The app family the unit belongs to: the workspace that names its project, else the project
    /// (or XcodeGen spec) itself, as an absolute path. Project rules compare the units of one family.
    public var family = ""

    public init(name: String, entitlementsPath: String?, shownPath: String, document: PlistDocument, bundleID: Fact<String>?,
                teamID: Fact<String>?, platform: Platform, origin: UnitOrigin, variables: [String: String], inScope: Bool) {
        self.name = name
        self.entitlementsPath = entitlementsPath
        self.shownPath = shownPath
        self.document = document
        self.bundleID = bundleID
        self.teamID = teamID
        self.platform = platform
        self.origin = origin
        self.variables = variables
        self.inScope = inScope
    }
}

/// What discovery found for a run.
public struct Discovery: Sendable {
    public var units: [DiscoveredUnit] = []
    /// Problems with the projects themselves (`parse-error`: damaged files, dangling references,
    /// missing xcconfig or entitlements files; `unresolved-variable`: settings that cannot be resolved).
    public var findings: [Finding] = []
    /// The files read for the units in scope (project files, xcconfigs, entitlements), as shown.
    public var files: [String] = []
    /// Absolute paths of the entitlements files the units use: not linted again as loose files.
    public var claimed: Set<String> = []
    /// Absolute folders of the projects, workspaces and specs found: an entitlements file below one
    /// that no unit claims is unused.
    public var projectFolders: [String] = []
    /// Absolute paths of entitlements files a project's build settings name as a choice (a
    /// variant picked by another setting): not unused, though no configuration read chose them.
    public var mentioned: Set<String> = []
    /// The folder of each project, workspace and spec read (absolute) and its family: a loose
    /// entitlements file belongs to the family of the deepest of these folders that holds it.
    public var familyFolders: [(folder: String, family: String)] = []

    /// The family of a loose file (absolute path): the deepest project folder holding it, else "".
    public func family(ofLoose absolutePath: String) -> String {
        var best: (folder: String, family: String)?
        for f in familyFolders where absolutePath.hasPrefix(f.folder == "/" ? "/" : f.folder + "/") {
            if best == nil || f.folder.utf8.count > best!.folder.utf8.count { best = f }
        }
        return best?.family ?? ""
    }

    /// Whether the loose file at `absolutePath` lies in the folders of a project found.
    public func isInProjectFolder(_ absolutePath: String) -> Bool {
        !mentioned.contains(absolutePath) && projectFolders.contains { absolutePath.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    public init() {}
}

extension LintOptions {
    /// The standard folders Xcode keeps profiles in, when they exist.
    public static func standardProfileFolders() -> [String] {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return [] }
        return ["\(home)/Library/MobileDevice/Provisioning Profiles", "\(home)/Library/Developer/Xcode/UserData/Provisioning Profiles"]
            .filter { Paths.kind($0) == .directory }
    }

    /// The profiles in `--profiles` folders (files are taken as they are), and, for runs with
    /// project units, in the standard folders (unless `--no-user-profiles`).
    func profileFolderPaths(standard: Bool) throws(UsageError) -> [String] {
        var out: [String] = []
        for folder in profileFolders {
            switch kind(folder) {
            case .directory: out += Paths.walk(folder) { Linter.isProfilePath($0) }
            case .file, .other: out.append(folder)
            case .missing: throw UsageError("--profiles: no such folder or file: \(folder)")
            }
        }
        if standard && userProfiles {
            for folder in Self.standardProfileFolders() { out += Paths.walk(folder) { Linter.isProfilePath($0) } }
        }
        return out
    }
}

extension Linter {
    /// Runs the discoverer, if any, with the project files the walk collected; they, and the
    /// entitlements files the units use, leave `files`.
    func discoverProjectUnits(_ options: LintOptions, files: inout [String], cwd: String) -> Discovery? {
        guard let discoverer = options.discoverer else { return nil }
        let discovery = discoverer.discover(options, files: files, cwd: cwd)
        files.removeAll { Linter.isProjectMarker($0) }
        if !discovery.claimed.isEmpty {
            files.removeAll { discovery.claimed.contains(Paths.absolute($0, cwd: cwd)) }
        }
        return discovery
    }

    /// The paths checked by a run: the loose ones, then the project ones not already listed.
    func withProjectPaths(_ loose: [String], _ discovery: Discovery?) -> [String] {
        guard let discovery, !discovery.files.isEmpty else { return loose }
        var seen = Set(loose)
        return loose + discovery.files.filter { seen.insert($0).inserted }
    }

    /// Forms the discovered units, runs the per-unit rules on those in scope and the project rules
    /// over every unit of the run, and folds identical findings of several configurations into one.
    func lintProjectUnits(_ discovery: Discovery?, looseUnits: [SigningUnit], options: LintOptions, profiles: [ProfileFile],
                          walkedProfiles: Set<String> = [], byAbs: [String: ParsedInput], lock: LockFile?,
                          cwd: String) -> (units: [SigningUnit], findings: [Finding], context: [SigningUnit], codeIndex: CodeIndex?) {
        guard let discovery, !discovery.units.isEmpty else { return ([], discovery?.findings ?? [], [], nil) }
        let discovered = discovery.units
        let slots = UnsafeMutableBufferPointer<(UnitContext, [Finding])?>.allocate(capacity: discovered.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        nonisolated(unsafe) let out = slots
        nonisolated(unsafe) let byPath = byAbs
        let work: @Sendable (Int) -> Void = { i in
            let d = discovered[i]
            let candidates = Self.pairable(profiles, with: d, discovery: discovery, walked: walkedProfiles, cwd: cwd)
            var unit = self.makeProjectUnit(d, options: options, profiles: candidates.profiles, byAbs: byPath, cwd: cwd)
            if unit.profile == nil, let why = candidates.notAssumed, var origin = unit.origin {
                origin.profileNote = why
                unit.origin = origin
            }
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings)
            var found: [Finding] = []
            if d.inScope {
                for rule in self.rules where rule.asProjectRule == nil { found += rule.check(context) }
            }
            out[i] = (context, found)
        }
        Parallel.forEach(discovered.count, jobs: options.workers, work)
        let codeIndex = CodeIndex.disk(limit: options.limits.maxBytes, cwd: cwd, virtualFiles: options.virtualFiles,
                                        configuration: options.configuration)
        var contexts: [UnitContext] = []
        var units: [SigningUnit] = []
        var outOfScope: [SigningUnit] = []
        var findings = discovery.findings
        var scope = Set(looseUnits.map(\.name))
        for (i, slot) in slots.enumerated() {
            guard let (context, found) = slot else { continue }
            contexts.append(context)
            if !discovered[i].inScope { outOfScope.append(context.unit) }
            if discovered[i].inScope {
                units.append(context.unit)
                scope.insert(context.unit.name)
                findings += found
            }
        }
        if !projectRules.isEmpty {
            // Project rules compare the units of one app family at a time: a run over a folder of
            // unrelated projects finds what linting each alone finds. Files no target signs with
            // take no part (they have no facts to compare).
            var families: [String: [UnitContext]] = [:]
            var order: [String] = []
            func add(_ context: UnitContext, _ family: String) {
                if families[family] == nil { order.append(family) }
                families[family, default: []].append(context)
            }
            for unit in looseUnits where !unit.isUnused {
                add(UnitContext(unit: unit, lock: lock, settings: options.settings),
                    discovery.family(ofLoose: Paths.absolute(unit.entitlementsPath, cwd: cwd)))
            }
            for (i, slot) in slots.enumerated() {
                if let (context, _) = slot {
                    // Only the units the run is about have their code scanned: a hook run over one
                    // changed file reads the sources of the targets that file concerns, no others.
                    context.codeIndex = discovered[i].inScope ? codeIndex : nil
                    add(context, discovered[i].family)
                }
            }
            for family in order { findings += runProjectRules(families[family]!, scope: scope) }
        }
        return (units, Self.foldConfigurations(findings, units: units), outOfScope, codeIndex)
    }

    /// The profiles that may be a discovered unit's, as signing pairs them: never one its target's
    /// synchronised folders exclude (`membershipExceptions`), never one in the folders of another app
    /// family of the run, and, with automatic signing, never one committed in the repository
    /// (found by walking a folder): Xcode makes and chooses its own. Profiles named on the command
    /// line, in `--profiles`, the configuration or the standard folders stay candidates.
    /// `notAssumed` says why a committed profile that matches was left out, for the report.
    static func pairable(_ profiles: [ProfileFile], with d: DiscoveredUnit, discovery: Discovery, walked: Set<String>,
                         cwd: String) -> (profiles: [ProfileFile], notAssumed: String?) {
        guard !profiles.isEmpty else { return ([], nil) }
        let excluded = Set(d.origin.excludedFiles)
        let automatic = d.origin.signingStyle == "Automatic"
        var committed: [ProfileFile] = []
        let out = profiles.filter { p in
            let abs = Paths.absolute(p.path, cwd: cwd)
            if excluded.contains(abs) { return false }
            let family = discovery.family(ofLoose: abs)
            if !family.isEmpty, family != d.family { return false }
            if automatic, walked.contains(abs) { committed.append(p); return false }
            return true
        }
        guard automatic, !committed.isEmpty, d.origin.profileUUID?.isEmpty != false, d.origin.profileSpecifier?.isEmpty != false
        else { return (out, nil) }
        var probe = SigningUnit(name: d.name, entitlementsPath: d.shownPath, document: d.document, platform: d.platform)
        probe.bundleID = d.bundleID
        guard let match = bestProfile(for: probe, among: committed) else { return (out, nil) }
        return (out, "automatic signing: Xcode chooses the profile; \(match.path), committed in the repository, is not assumed to be this target's")
    }

    /// The signing unit of a discovered one. Facts, first match wins: the flags, then the project's
    /// build settings, then the config (`apps:` entry for the entitlements file, then `team:`), then
    /// the profile, then the entitlements file itself. The profile: `--profile`, else the one
    /// `PROVISIONING_PROFILE` (UUID) or `PROVISIONING_PROFILE_SPECIFIER` (name) names, else the config
    /// app's, else the best match by App ID.
    func makeProjectUnit(_ d: DiscoveredUnit, options: LintOptions, profiles: [ProfileFile], byAbs: [String: ParsedInput],
                         cwd: String) -> SigningUnit {
        let config = options.configuration
        let configPath = config?.path.map { Paths.display($0, cwd: cwd) } ?? ".entitlint.yml"
        var app: Configuration.App?
        if let config, !config.apps.isEmpty, let path = d.entitlementsPath {
            let abs = Paths.absolute(path, cwd: cwd)
            app = config.apps.first { Paths.absolute(config.resolve($0.entitlements), cwd: cwd) == abs }
        }
        var variables = config?.variables ?? [:]
        for (k, v) in d.variables { variables[k] = v }
        var unit = SigningUnit(name: d.name, entitlementsPath: d.shownPath, document: d.document, platform: d.platform,
                               variables: variables)
        var origin = d.origin
        let ent = unit.entitlements

        if let t = options.teamID { unit.teamID = Fact(t, from: .flag("--team-id")) }
        else if let t = d.teamID { unit.teamID = t }
        else if let t = app?.team { unit.teamID = Fact(t, from: .config(configPath)) }
        else if let t = config?.team { unit.teamID = Fact(t, from: .config(configPath)) }
        if let b = options.bundleID { unit.bundleID = Fact(b, from: .flag("--bundle-id")) }
        else if let b = d.bundleID { unit.bundleID = b }
        else if let b = app?.bundleID { unit.bundleID = Fact(b, from: .config(configPath)) }

        // A literal `PREFIX.bundle` application-identifier in the file.
        let appIDKey = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        if let appID = ent[appIDKey]?.string, !appID.containsASCII(sequence: "$("), !appID.containsASCII(sequence: "${"),
           let dot = appID.firstIndex(of: "."), String(appID[..<dot]).isTeamIDLike {
            let bundle = String(appID[appID.index(after: dot)...])
            if unit.bundleID == nil, !bundle.isEmpty, !bundle.containsASCII("*") {
                unit.bundleID = Fact(bundle, from: .entitlements(key: appIDKey))
            }
            unit.appIDPrefix = Fact(String(appID[..<dot]), from: .entitlements(key: appIDKey))
        }

        var profile: ProfileFile?
        if let p = options.profilePath {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] { profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof) }
        } else if let uuid = origin.profileUUID, !uuid.isEmpty {
            profile = profiles.first { $0.profile.uuid?.lowercased() == uuid.lowercased() }
            if profile == nil { origin.profileNote = "PROVISIONING_PROFILE \(uuid): no such profile found" }
        } else if let specifier = origin.profileSpecifier, !specifier.isEmpty {
            // `TEAMID/Name` (Xcode 8 and later) or the bare name; a UUID is accepted too.
            var name = Substring(specifier)
            if let slash = specifier.firstIndex(of: "/"), String(specifier[..<slash]).isTeamIDLike { name = specifier[specifier.index(after: slash)...] }
            profile = profiles.filter { $0.profile.name == String(name) || $0.profile.uuid?.lowercased() == specifier.lowercased() }
                .min { $0.path < $1.path }
            if profile == nil { origin.profileNote = "PROVISIONING_PROFILE_SPECIFIER \"\(specifier)\": no such profile found" }
        } else if let p = app?.profile.map({ config!.resolve($0) }) {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] { profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof) }
        }
        if profile == nil, origin.profileNote == nil {
            profile = Self.bestProfile(for: unit, among: profiles)
            if profile == nil {
                origin.profileNote = origin.signingStyle == "Automatic"
                    ? "automatic signing; no matching profile on disk"
                    : "no matching profile found"
            }
        }
        if let profile {
            unit.takeFacts(of: profile)
            if unit.platform == .unknown { unit.platform = profile.profile.isMacOS ? .macOS : .iOS }
        }
        unit.takeTeamAsAppIDPrefix()
        unit.origin = origin
        return unit
    }
}
