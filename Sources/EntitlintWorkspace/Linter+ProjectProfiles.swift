import EntitlintCore
import Provisioning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The profiles of a run with project units, and the facts and profile of each discovered unit.

extension LintOptions {
    /// The standard folders Xcode keeps profiles in, when they exist.
    public static func standardProfileFolders() -> [String] {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return [] }
        return ["\(home)/Library/MobileDevice/Provisioning Profiles", "\(home)/Library/Developer/Xcode/UserData/Provisioning Profiles"]
            .filter { Paths.kind($0) == .directory }
    }

    /// Whether the run is on a CI service (`CI` or `GITHUB_ACTIONS` set and not empty): there the
    /// home folder is the runner's, not the developer's, and its profiles are not the project's.
    public static func isContinuousIntegration(_ environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> Bool {
        ["CI", "GITHUB_ACTIONS"].contains { environment($0).map { !$0.isEmpty } ?? false }
    }

    /// The profiles of the standard folders under the home folder this run searches: for runs with
    /// project units, unless `--no-user-profiles` or on CI (`isContinuousIntegration`).
    func userProfilePaths(standard: Bool) -> [String] {
        guard standard, userProfiles, !Self.isContinuousIntegration() else { return [] }
        var out: [String] = []
        for folder in Self.standardProfileFolders() { out += Paths.walk(folder) { Linter.isProfilePath($0) } }
        return out
    }

    /// The profiles in `--profiles` folders (files are taken as they are).
    func profileFolderPaths() throws(UsageError) -> [String] {
        var out: [String] = []
        for folder in profileFolders {
            switch kind(folder) {
            case .directory: out += Paths.walk(folder) { Linter.isProfilePath($0) }
            case .file, .other: out.append(folder)
            case .missing: throw UsageError("--profiles: no such folder or file: \(folder)")
            }
        }
        return out
    }
}

extension Linter {
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
