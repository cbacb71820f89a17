import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// A fact a manifest states, with where (`Project.swift:34`), or why it is unknown.
enum ManifestFact: Sendable {
    case known(String, place: String)
    case unknown(String, place: String)
    case unset

    var value: String? { if case .known(let v, _) = self { return v } else { return nil } }
}

/// Entitlements a manifest writes in itself (Tuist's literal `.dictionary([...])`): their tree,
/// located at lines of `file` (as shown), and where they are written (`Project.swift:12`).
struct WrittenEntitlements {
    var document: PlistDocument
    var file: String
    var place: String
}

/// One target of a manifest in one configuration, as a Tuist or Bazel reader found it; turned
/// into a signing unit by `ManifestUnits`.
struct ManifestTarget {
    var name: String
    /// Where the target is written (`Project.swift:31`).
    var place: String
    var line: Int
    /// The manifest file, as shown, and the project's name.
    var projectFile: String
    var projectName: String
    var configuration: String
    var kind: UnitOrigin.Kind
    var productType: String?
    var sdk: String?
    var isMacCatalyst = false
    /// Names a variant besides the configuration (`Mac Catalyst`): `App (Release, Mac Catalyst)`.
    var variantLabel: String?
    var bundleID: ManifestFact = .unset
    var team: ManifestFact = .unset
    var signingStyle: ManifestFact = .unset
    var profileSpecifier: ManifestFact = .unset
    /// The entitlements file (absolute) with where it is named; `.unknown` when its name or its
    /// content cannot be known without evaluating the manifest.
    var entitlements: ManifestFact = .unset
    /// Entitlements the manifest writes in itself (with `entitlements` `.unset`).
    var writtenEntitlements: WrittenEntitlements?
    /// When the target names no entitlements file: what it is signed with then, for the notice
    /// (`the provisioning profile's entitlements`). Nil: signed with none, as Xcode does.
    var entitlementsFromElsewhere: String?
    /// Identifies the target among the manifests read (`Project.swift#App`, `//app:App`).
    var key: String
    /// The keys of the targets it embeds (extensions, App Clips, watch apps).
    var embeds: [String] = []
    /// Where other facts the report shows come from (`minimum_os_version` -> `app/BUILD:12`).
    var extraSources: [String: String] = [:]
    /// Device families, minimum OS, workspace, as declared, for the report (`UnitOrigin.declared`).
    var declared = DeclaredFacts()
    /// The family: the workspace (absolute path) its units are compared within.
    var family: String
}

/// Forms the signing units of manifest targets: one per target and configuration with an
/// entitlements file, or a signed product without one (empty entitlements, as Xcode signs it).
/// A target whose entitlements cannot be known forms no unit: a notice says so.
struct ManifestUnits {
    let files: ProjectFiles
    let entitlements: EntitlementsCache
    var units: [ProjectUnit] = []
    var problems: [ProjectProblem] = []
    /// The manifests (as shown) found only by the search above the files a run names alone
    /// (`NamedFiles`), and those files (absolute): the units of such a manifest are checked when
    /// they use a named file, the others are context, and their targets' problems are left out.
    var searched: Set<String> = []
    var named: Set<String> = []

    init(files: ProjectFiles, entitlements: EntitlementsCache) {
        self.files = files
        self.entitlements = entitlements
    }

    mutating func add(_ targets: [ManifestTarget]) {
        // Hosts: the targets that embed another; the one in the same configuration, else the first.
        // Only apps (and App Clips, watch apps) embed: a test bundle depending on an app is not its host.
        var hostsOf: [String: [ManifestTarget]] = [:]
        for t in targets where [.app, .appClip, .watchApp].contains(t.kind) {
            for e in t.embeds { hostsOf[e, default: []].append(t) }
        }
        for t in targets {
            let hosts = t.kind == .app ? [] : hostsOf[t.key] ?? []
            let host = hosts.first { $0.configuration == t.configuration && $0.isMacCatalyst == t.isMacCatalyst }
                ?? hosts.first { $0.configuration == t.configuration } ?? hosts.first
            if let u = unit(t, host: host) { units.append(u) }
        }
    }

    private mutating func notice(_ t: ManifestTarget, _ message: String) {
        var p = ProjectProblem(file: t.projectFile, location: SourceLocation(line: t.line, column: 0), message: message, severity: .note)
        p.isNotice = true
        problem(t, p)
    }

    private mutating func problem(_ t: ManifestTarget, _ p: ProjectProblem) {
        var p = p
        p.target = ProjectProblem.targetKey(projectFile: t.projectFile, target: t.name)
        problems.append(p)
    }

    private mutating func unit(_ t: ManifestTarget, host: ManifestTarget?) -> ProjectUnit? {
        var sources = t.extraSources
        var document: PlistDocument?
        var path: String?
        var shownPath = t.projectFile
        let owner = "\(t.name) (\(t.configuration)\(t.variantLabel.map { ", " + $0 } ?? ""))"
        switch t.entitlements {
        case .unknown(let why, let place):
            // One notice per target: its configurations share the reason.
            notice(t, "the entitlements of \(t.name) cannot be known without evaluating the manifest (\(why), at \(place)): the target is not checked")
            return nil
        case .known(let abs, let place):
            sources["CODE_SIGN_ENTITLEMENTS"] = place
            if files.isOutside(abs) {
                problem(t, ProjectProblem(file: t.projectFile, location: SourceLocation(line: t.line, column: 0),
                                          message: "the entitlements of \(owner) name \(OutputText.reference(files.shown(abs))), outside the project root (symbolic links resolved): not read; the target is not checked"))
                return nil
            }
            guard files.kind(abs) == .file else {
                problem(t, ProjectProblem(file: t.projectFile, location: SourceLocation(line: t.line, column: 0),
                                          message: "the entitlements of \(owner) name \(files.shown(abs)), which does not exist; the target cannot be signed, and is not checked"))
                return nil
            }
            switch entitlements.document(abs) {
            case .failure(let p): problem(t, p); return nil
            case .success(let d): document = d; path = abs
            }
        case .unset:
            if let w = t.writtenEntitlements {
                // Tuist writes them out as the file the target is signed with; findings point at the manifest.
                document = w.document
                shownPath = w.file
                sources["CODE_SIGN_ENTITLEMENTS"] = w.place
                break
            }
            guard t.kind.isSignedProduct else { return nil }
            if let elsewhere = t.entitlementsFromElsewhere {
                notice(t, "\(owner) names no entitlements file: it is signed with \(elsewhere); the target is not checked")
                return nil
            }
            document = PlistDocument(root: PlistNode(.dict(PlistDictionary()), at: SourceLocation(line: t.line, column: 0)), format: .openStep)
        }
        func fact(_ f: ManifestFact, _ setting: String) -> Fact<String>? {
            switch f {
            case .known(let v, let place):
                sources[setting] = place
                return Fact(v, from: .xcode("\(setting) at \(place)"))
            case .unknown(let why, let place):
                sources[setting] = "unknown: \(why) (\(place))"
                return nil
            case .unset: return nil
            }
        }
        let bundle = fact(t.bundleID, "PRODUCT_BUNDLE_IDENTIFIER")
        let team = fact(t.team, "DEVELOPMENT_TEAM")
        let style = fact(t.signingStyle, "CODE_SIGN_STYLE")?.value
        let specifier = fact(t.profileSpecifier, "PROVISIONING_PROFILE_SPECIFIER")?.value
        var origin = UnitOrigin(projectFile: t.projectFile, projectName: t.projectName, target: t.name, configuration: t.configuration,
                                productType: t.productType, kind: t.kind, sdk: t.sdk, isMacCatalyst: t.isMacCatalyst,
                                hostTarget: host?.name, hostBundleID: host?.bundleID.value, signingStyle: style,
                                profileSpecifier: specifier, hasEntitlementsFile: path != nil || t.writtenEntitlements != nil, settingSources: sources)
        origin.declared = t.declared
        if case .unknown = t.bundleID { origin.unknownKeySettings["PRODUCT_BUNDLE_IDENTIFIER"] = t.projectFile }
        if case .unknown = t.team { origin.unknownKeySettings["DEVELOPMENT_TEAM"] = t.projectFile }
        var uses: Set<String> = [files.absolute(t.projectFile)]
        if let path { uses.insert(path) }
        uses.insert(files.absolute(shownPath))
        var unit = DiscoveredUnit(name: owner, entitlementsPath: path.map(files.shown), shownPath: path.map(files.shown) ?? shownPath,
                                  document: document!, bundleID: bundle, teamID: team, platform: platform(ofSDK: t.sdk), origin: origin,
                                  variables: [:], inScope: !searched.contains(t.projectFile) || !named.isDisjoint(with: uses))
        unit.family = t.family
        return ProjectUnit(unit: unit, uses: uses, entitlements: path, targetKey: origin.targetKey)
    }

    /// The discovery of the units formed: names unique in the run (a target name two manifests
    /// share is qualified by its project), the entitlements files claimed, the problems.
    func discovery(folders: [(folder: String, family: String)], read: [String]) -> Discovery {
        var d = Discovery()
        var counts: [String: Set<String>] = [:]
        for u in units { counts[u.unit.name, default: []].insert(u.unit.origin.projectFile) }
        for u in units {
            var unit = u.unit
            if counts[unit.name]!.count > 1 { unit.name = "\(unit.origin.projectFile)/\(unit.name)" }
            d.units.append(unit)
            if let e = u.entitlements, unit.inScope { d.claimed.insert(e) }
        }
        let scoped = inScope()
        var seen = Set<ProjectProblem>()
        for var p in problems where reports(p, inScope: scoped) {
            p.target = nil
            guard seen.insert(p).inserted else { continue }
            if p.isNotice {
                d.notices.append(Notice(message: p.message, path: p.file, line: p.location.line, column: p.location.column))
            } else {
                d.findings.append(Finding(rule: p.rule, severity: p.severity ?? (ToolFindings.contains(p.rule) ? .error : .warning), message: p.message,
                                          path: p.file, line: p.location.line, column: p.location.column))
            }
        }
        for f in folders where !d.projectFolders.contains(f.folder) {
            d.projectFolders.append(f.folder)
            d.familyFolders.append(f)
        }
        var seenFiles = Set<String>()
        // A manifest found above a named file is read for the run when a unit of it uses the file.
        d.files = (read.filter { !searched.contains($0) || scoped.manifests.contains($0) } + units.filter(\.unit.inScope).compactMap { $0.entitlements.map(files.shown) })
            .filter { seenFiles.insert($0).inserted }
        return d
    }

    /// Of the manifests found above a named file (`searched`), those with a unit in scope, and the
    /// targets (`ProjectProblem.targetKey`) of those units.
    private func inScope() -> (targets: Set<String>, manifests: Set<String>) {
        var out = (targets: Set<String>(), manifests: Set<String>())
        for u in units where u.unit.inScope && searched.contains(u.unit.origin.projectFile) {
            out.targets.insert(ProjectProblem.targetKey(projectFile: u.unit.origin.projectFile, target: u.unit.origin.target))
            out.manifests.insert(u.unit.origin.projectFile)
        }
        return out
    }

    /// Whether a run reports `p`, a problem of a target (`ProjectProblem.target`) of a manifest
    /// found above a named file: when a unit of the manifest uses the file, only the problems of
    /// that unit's target; when none does, the notices (a target whose entitlements are unknown
    /// may use it), not the findings of targets that do not concern the file. Every other problem.
    private func reports(_ p: ProjectProblem, inScope: (targets: Set<String>, manifests: Set<String>)) -> Bool {
        guard let key = p.target, let manifest = key.split(separator: "\t").first.map(String.init), searched.contains(manifest) else { return true }
        return inScope.manifests.contains(manifest) ? inScope.targets.contains(key) : p.isNotice
    }
}
