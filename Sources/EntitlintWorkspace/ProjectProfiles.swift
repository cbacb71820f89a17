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
        for folder in Self.standardProfileFolders() { out += Paths.walk(folder) { InputFiles.isProfilePath($0) } }
        return out
    }

    /// The profiles in `--profiles` folders (files are taken as they are).
    func profileFolderPaths() throws(UsageError) -> [String] {
        var out: [String] = []
        for folder in profileFolders {
            switch kind(folder) {
            case .directory: out += Paths.walk(folder) { InputFiles.isProfilePath($0) }
            case .file, .other: out.append(folder)
            case .missing: throw UsageError("--profiles: no such folder or file: \(folder)")
            }
        }
        return out
    }
}

/// The profiles of a run with project units, indexed once for every discovered unit: split by the
/// app family of the folder each lies in and by whether the run found it by walking a folder of
/// the repository, each part a `ProfileIndex`. A unit's candidates are the parts of its own
/// family and of no family (and the walked ones only without automatic signing), less the files
/// its target's synchronised folders exclude; pairing one costs a few index lookups, not a pass
/// over every profile (which also looked up each profile's family again for every unit).
struct ProjectProfiles {
    struct Group: Hashable { var family: String; var walked: Bool }
    let groups: [Group: ProfileIndex]

    init(_ profiles: [ProfileFile], discovery: Discovery, walked: Set<String>, cwd: String) {
        var members: [Group: [Int]] = [:]
        var keys: [String] = []
        for (i, p) in profiles.enumerated() {
            let abs = Paths.absolute(p.path, cwd: cwd)
            keys.append(abs)
            members[Group(family: discovery.family(ofLoose: abs), walked: walked.contains(abs)), default: []].append(i)
        }
        groups = members.mapValues { list in ProfileIndex(list.map { profiles[$0] }, ranks: list, keys: list.map { keys[$0] }) }
    }

    /// The profiles that may be `d`'s, as signing pairs them: never one its target's synchronised
    /// folders exclude (`membershipExceptions`), never one in the folders of another app family of
    /// the run, and, with automatic signing, never one committed in the repository (found by
    /// walking a folder): Xcode makes and chooses its own. Profiles named on the command line, in
    /// `--profiles`, the configuration or the standard folders stay candidates.
    func candidates(for d: DiscoveredUnit) -> Candidates {
        let automatic = d.origin.signingStyle == "Automatic"
        let families = d.family.isEmpty ? [""] : ["", d.family]
        var usable: [ProfileIndex] = []
        var committed: [ProfileIndex] = []
        for family in families {
            if let g = groups[Group(family: family, walked: false)] { usable.append(g) }
            if let g = groups[Group(family: family, walked: true)] { if automatic { committed.append(g) } else { usable.append(g) } }
        }
        return Candidates(indexes: usable, committed: committed, excluded: Set(d.origin.excludedFiles))
    }

    /// One unit's candidates: the queries of `ProfileIndex` over the parts it may use.
    struct Candidates {
        let indexes: [ProfileIndex]
        let committed: [ProfileIndex]
        let excluded: Set<String>

        static func pick(_ matches: [(ProfileIndex, ProfileIndex.Match)], by better: (ProfileIndex.Match, ProfileIndex.Match) -> Bool) -> ProfileFile? {
            var best: (ProfileIndex, ProfileIndex.Match)?
            for m in matches where best == nil || better(m.1, best!.1) { best = m }
            return best.map { $0.0.profiles[$0.1.position] }
        }

        /// `UnitFormer.bestProfile` over the candidates (or the committed profiles left out).
        func best(for unit: SigningUnit, committed useCommitted: Bool = false) -> ProfileFile? {
            var work = 0
            let matches = (useCommitted ? committed : indexes).compactMap { i in i.best(for: unit, excluding: excluded, work: &work).map { (i, $0) } }
            return Self.pick(matches) { a, b in a.beats(b) }
        }

        /// The first candidate, in the run's order, whose UUID is `uuid` (ignoring case).
        func first(uuid: String) -> ProfileFile? {
            Self.pick(indexes.compactMap { i in i.first(uuid: uuid, excluding: excluded).map { (i, $0) } }) { a, b in a.rank < b.rank }
        }

        /// The candidate of the smallest path whose name is `name` or whose UUID is `uuid`.
        func smallestPath(named name: String, orUUID uuid: String) -> ProfileFile? {
            Self.pick(indexes.compactMap { i in i.smallestPath(named: name, orUUID: uuid, excluding: excluded).map { (i, $0) } }) { a, b in
                a.path != b.path ? a.path < b.path : a.rank < b.rank
            }
        }

        /// Why a committed profile that matches was left out (automatic signing), for the report.
        func notAssumed(_ d: DiscoveredUnit) -> String? {
            guard !committed.isEmpty, d.origin.profileUUID?.isEmpty != false, d.origin.profileSpecifier?.isEmpty != false else { return nil }
            var probe = SigningUnit(name: d.name, entitlementsPath: d.shownPath, document: d.document, platform: d.platform)
            probe.bundleID = d.bundleID
            guard let match = best(for: probe, committed: true) else { return nil }
            return "automatic signing: Xcode chooses the profile; \(match.path), committed in the repository, is not assumed to be this target's"
        }
    }
}
