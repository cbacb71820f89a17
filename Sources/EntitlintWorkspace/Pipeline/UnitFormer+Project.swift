import EntitlintCore
import PropertyList
import Provisioning

/// The units stage for projects: the signing unit of each unit discovery found, its facts as
/// `FactResolver` orders them and its profile.
extension UnitFormer {
    /// The discovered units, formed on `jobs` threads, in discovery order: those in scope planned
    /// for every rule within their app family, the others as context (compared with, never
    /// reported on). A unit left without a profile says why when a committed one was not assumed.
    static func projectUnits(_ discovery: Discovery, options: LintOptions, profiles: [ProfileFile], walkedProfiles: Set<String>,
                             byAbs: [String: ParsedInput], cwd: String) -> [PlannedUnit] {
        let discovered = discovery.units
        let pairing = ProjectProfiles(profiles, discovery: discovery, walked: walkedProfiles, cwd: cwd)
        return [PlannedUnit](unsafeUninitializedCapacity: discovered.count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            Parallel.forEach(discovered.count, jobs: options.workers) { i in
                let d = discovered[i]
                let candidates = pairing.candidates(for: d)
                var unit = makeProjectUnit(d, options: options, profiles: candidates, byAbs: byAbs, cwd: cwd)
                if unit.profile == nil, let why = candidates.notAssumed(d), var origin = unit.origin {
                    origin.profileNote = why
                    unit.origin = origin
                }
                (out.baseAddress! + i).initialize(to: PlannedUnit(unit, checks: d.inScope ? .all : .none, family: d.family))
            }
            initialized = discovered.count
        }
    }

    /// The signing unit of a discovered one, its facts as `FactResolver` orders them (the project's
    /// build settings in the `buildSetting` slot; one only a missing file sets is unknown). The profile: `--profile`, else the one
    /// `PROVISIONING_PROFILE` (UUID) or `PROVISIONING_PROFILE_SPECIFIER` (name) names, else the config
    /// app's, else the best match by App ID.
    static func makeProjectUnit(_ d: DiscoveredUnit, options: LintOptions, profiles: ProjectProfiles.Candidates, byAbs: [String: ParsedInput],
                         cwd: String) -> SigningUnit {
        let config = options.configuration
        let stated = options.statedFacts
        let app = stated.app(forEntitlements: d.entitlementsPath, cwd: cwd)
        var variables = config?.variables ?? [:]
        for (k, v) in d.variables { variables[k] = v }
        var unit = SigningUnit(name: d.name, entitlementsPath: d.shownPath, document: d.document, platform: d.platform,
                               variables: variables)
        var origin = d.origin
        let ent = unit.entitlements

        var facts = FactResolver()
        facts.offerStated(stated, app: app, configPath: stated.configPath(cwd: cwd))
        facts.offer(.teamID, from: .buildSetting, d.teamID)
        facts.offer(.bundleID, from: .buildSetting, d.bundleID)
        for (kind, setting) in [(FactKind.teamID, "DEVELOPMENT_TEAM"), (.bundleID, "PRODUCT_BUNDLE_IDENTIFIER")] {
            if let file = origin.unknownKeySettings[setting] {
                facts.offerUnknown(kind, from: .buildSetting, why: "\(setting) comes from \(file), which this checkout lacks")
            }
        }
        facts.offerEntitlements(ent)
        facts.apply(to: &unit, excluding: [.team])

        var profile: ProfileFile?
        if let p = options.profilePath {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] { profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof) }
        } else if let uuid = origin.profileUUID, !uuid.isEmpty {
            profile = profiles.first(uuid: uuid)
            if profile == nil { origin.profileNote = "PROVISIONING_PROFILE \(uuid): no such profile found" }
        } else if let specifier = origin.profileSpecifier, !specifier.isEmpty {
            // `TEAMID/Name` (Xcode 8 and later) or the bare name; a UUID is accepted too.
            var name = Substring(specifier)
            if let slash = specifier.firstIndex(of: "/"), String(specifier[..<slash]).isTeamIDLike { name = specifier[specifier.index(after: slash)...] }
            profile = profiles.smallestPath(named: String(name), orUUID: specifier)
            if profile == nil { origin.profileNote = "PROVISIONING_PROFILE_SPECIFIER \"\(specifier)\": no such profile found" }
        } else if let p = app?.profile.map({ config!.resolve($0) }) {
            if case .profile(let prof)? = byAbs[Paths.absolute(p, cwd: cwd)] { profile = ProfileFile(path: Paths.display(p, cwd: cwd), profile: prof) }
        }
        if profile == nil, origin.profileNote == nil {
            profile = profiles.best(for: unit)
            if profile == nil {
                origin.profileNote = origin.signingStyle == "Automatic"
                    ? "automatic signing; no matching profile on disk"
                    : "no matching profile found"
            }
        }
        if let profile {
            unit.profile = profile
            facts.offerProfile(profile)
            if unit.platform == .unknown { unit.platform = profile.profile.isMacOS ? .macOS : .iOS }
        }
        facts.apply(to: &unit)
        unit.origin = origin
        return unit
    }
}
