public import PropertyList
public import Provisioning

/// What the caller states about the units of a run: the flags (`--team-id`, `--bundle-id`,
/// `--profile`) and the configuration. They take precedence over what a file or profile says.
public struct StatedFacts: Sendable {
    public var configuration: Configuration?
    public var teamID: String?
    public var bundleID: String?
    public var profilePath: String?

    public init(configuration: Configuration? = nil, teamID: String? = nil, bundleID: String? = nil, profilePath: String? = nil) {
        self.configuration = configuration
        self.teamID = teamID
        self.bundleID = bundleID
        self.profilePath = profilePath
    }
}

/// Signing units from parsed documents, and the profile each is checked against.
extension Linter {

    /// Forms the signing unit of one entitlements file: flags, then the config, then the profile,
    /// then what the file itself says. The unit is named by its config app, else `fileName`
    /// (default: the file's name without extension).
    package func makeUnit(path: String, shown: String, document: PlistDocument, facts options: StatedFacts,
                          profiles: ProfileIndex, byAbs: [String: ParsedInput], cwd: String, fileName: String? = nil) -> SigningUnit {
        let config = options.configuration
        let configPath = config?.path.map { Paths.display($0, cwd: cwd) } ?? ".entitlint.yml"
        var app: Configuration.App?
        if let config, !config.apps.isEmpty {
            let abs = Paths.absolute(path, cwd: cwd)
            app = config.apps.first { Paths.absolute(config.resolve($0.entitlements), cwd: cwd) == abs }
        }
        var unit = SigningUnit(name: app?.name ?? fileName ?? Paths.stem(path), entitlementsPath: shown, document: document,
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
            profile = profiles.best(for: unit)
        }
        if let profile {
            unit.takeFacts(of: profile)
            unit.platform = profile.profile.isMacOS ? .macOS : .iOS
        }
        unit.takeTeamAsAppIDPrefix()
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
    /// specific (longest) pattern wins, then the smaller path. With no prefix known, the part
    /// after the prefix is matched against the bundle ID. One unit among many profiles: a run
    /// pairs many units through one `ProfileIndex`, built once.
    public static func bestProfile(for unit: SigningUnit, among profiles: [ProfileFile]) -> ProfileFile? {
        guard unit.bundleID != nil, !profiles.isEmpty else { return nil }
        return ProfileIndex(profiles).best(for: unit)
    }
}

extension Linter {
    /// The names of files' units when no config app names them: the file's name without
    /// extension, or, where several files share that name (`macbox/afproxy.entitlements` and
    /// `macbox/afproxy/afproxy.entitlements`), the path as shown without extension, so that the
    /// names of a run stay unique (the lock file and the report key units by name).
    package static func fileUnitNames(_ shownPaths: [String]) -> [String] {
        let stems = shownPaths.map(Paths.stem)
        var counts: [String: Int] = [:]
        for s in stems { counts[s, default: 0] += 1 }
        return zip(shownPaths, stems).map { shown, stem in
            guard counts[stem]! > 1 else { return stem }
            let base = Paths.baseName(shown)
            return String(shown.dropLast(base.count - stem.count))
        }
    }
}

