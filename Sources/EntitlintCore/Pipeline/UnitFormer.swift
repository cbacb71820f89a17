import PropertyList
import Provisioning

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

    /// The configuration's path as facts from it name it.
    public func configPath(cwd: String) -> String {
        configuration?.path.map { Paths.display($0, cwd: cwd) } ?? ".entitlint.yml"
    }

    /// The configuration's `apps:` entry for the entitlements file at `path`, if any.
    public func app(forEntitlements path: String?, cwd: String) -> Configuration.App? {
        guard let config = configuration, !config.apps.isEmpty, let path else { return nil }
        let abs = Paths.absolute(path, cwd: cwd)
        return config.apps.first { Paths.absolute(config.resolve($0.entitlements), cwd: cwd) == abs }
    }
}

extension FactResolver {
    /// What the caller states: the flags, then the configuration app of the unit's file, then
    /// the configuration's `team:`.
    package mutating func offerStated(_ stated: StatedFacts, app: Configuration.App?, configPath: String) {
        offer(.teamID, from: .flag, stated.teamID.map { Fact($0, from: .flag("--team-id")) })
        offer(.bundleID, from: .flag, stated.bundleID.map { Fact($0, from: .flag("--bundle-id")) })
        offer(.teamID, from: .configApp, app?.team.map { Fact($0, from: .config(configPath)) })
        offer(.bundleID, from: .configApp, app?.bundleID.map { Fact($0, from: .config(configPath)) })
        offer(.teamID, from: .config, stated.configuration?.team.map { Fact($0, from: .config(configPath)) })
    }
}

/// The units stage for files: the signing unit of each parsed entitlements document, its facts
/// (`FactResolver`), and the profile it is checked against. Project units are formed from what
/// discovery read (`UnitFormer+Project.swift` in the workspace).
public enum UnitFormer {
    /// The folder the in-memory entry points resolve relative paths against: their documents
    /// are in no folder, and against `/` a relative path stays as written.
    public static let inMemoryFolder = "/"

    /// Forms the signing unit of one entitlements file, its facts as `FactResolver` orders them.
    /// The unit is named by its config app, else `fileName`
    /// (default: the file's name without extension).
    package static func makeUnit(path: String, shown: String, document: PlistDocument, facts options: StatedFacts,
                          profiles: ProfileIndex, byAbs: [String: ParsedInput], cwd: String, fileName: String? = nil, pairedWith given: ProfileFile? = nil) -> SigningUnit {
        let config = options.configuration
        let app = options.app(forEntitlements: path, cwd: cwd)
        var unit = SigningUnit(name: app?.name ?? fileName ?? Paths.stem(path), entitlementsPath: shown, document: document,
                               variables: config?.variables ?? [:])
        let ent = unit.entitlements
        var facts = FactResolver()
        facts.offerStated(options, app: app, configPath: options.configPath(cwd: cwd))
        facts.offerEntitlements(ent)
        facts.apply(to: &unit, excluding: [.team])

        // Profile: the flag, the config app's, else the best match among the inputs.
        var profile: ProfileFile?
        if let p = options.profilePath ?? app?.profile.map({ config!.resolve($0) }) {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] {
                profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof)
            }
        } else {
            profile = profiles.best(for: unit)
        }
        // `given`: a profile the caller pairs the unit with even when its App ID does not match
        // (a rule example's); it states no bundle ID then.
        var matched = true
        if profile == nil, let given {
            profile = given
            matched = false
        }
        if let profile {
            unit.profile = profile
            facts.offerProfile(profile, bundle: matched)
            unit.platform = profile.profile.isMacOS ? .macOS : .iOS
        }
        facts.apply(to: &unit)
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

