import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// Forms the units of one Xcode project: every native target that is signed as a product (apps,
/// extensions, App Clips, watch apps) or names an entitlements file, in every configuration.
struct ProjectUnitBuilder {
    let project: PBXProject
    let files: ProjectFiles
    let xcconfigs: XCConfigLoader
    let entitlements: EntitlementsCache
    let variables: [String: String]
    let catalog: SourceCatalog
    /// The project's targets by ID (the first of a repeated ID).
    let targetsByID: [String: PBXProject.Target]
    /// The project-level configurations by name (the first of a repeated name).
    let projectConfigurationsByName: [String: PBXProject.BuildConfiguration]
    var problems: [ProjectProblem] = []
    /// The target whose units are being formed: problems found meanwhile concern it.
    var currentTarget: String?
    /// The other platforms the configuration just formed is signed for.
    var variants: [PlatformVariant] = []
    /// IDs of the targets every app that embeds them embeds only outside Mac Catalyst builds.
    var notForCatalyst = Set<String>()

    init(project: PBXProject, files: ProjectFiles, xcconfigs: XCConfigLoader, entitlements: EntitlementsCache, variables: [String: String],
         catalog: SourceCatalog? = nil) {
        self.project = project
        self.files = files
        self.xcconfigs = xcconfigs
        self.entitlements = entitlements
        self.variables = variables
        self.catalog = catalog ?? SourceCatalog(files: files)
        targetsByID = Dictionary(project.targets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        projectConfigurationsByName = Dictionary(project.projectConfigurations.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    mutating func problem(_ p: ProjectProblem) {
        var p = p
        if p.target == nil { p.target = currentTarget }
        problems.append(p)
    }

    /// Assignments of a configuration's base xcconfig (a hole when it cannot be located).
    mutating func baseAssignments(_ config: PBXProject.BuildConfiguration) -> [SettingAssignment] {
        if let base = config.baseConfiguration {
            return xcconfigs.load(base, referencedFrom: (project.file, config.baseConfigurationLocation))
        }
        if let why = config.baseConfigurationProblem {
            return [.hole(why, file: project.file, location: config.baseConfigurationLocation)]
        }
        return []
    }

    /// Where a setting that is empty in one configuration is set: an assignment whose conditions
    /// this configuration does not meet, else one in an xcconfig of the run that this configuration
    /// does not read, else nowhere.
    func settingHint(_ name: String, entries: [SettingAssignment]) -> String {
        emptySettingHint(name, entries: entries, xcconfigs: xcconfigs, projectSettings: project.allSettings)
    }

    /// Hosts, target ID -> the ID of the app or watch app it runs in: who embeds whom; else which
    /// app depends on an extension. Two targets that embed each other are a problem, and neither
    /// is the other's host.
    mutating func hosts() -> [String: String] {
        let byID = targetsByID
        var host: [String: String] = [:]
        for t in project.targets where [.app, .watchApp].contains(UnitOrigin.Kind(productType: t.productType ?? "")) {
            for e in t.embeds where host[e] == nil { host[e] = t.id }
        }
        for t in project.targets where [.app, .watchApp].contains(UnitOrigin.Kind(productType: t.productType ?? "")) {
            for d in t.dependsOn where host[d] == nil {
                if let dep = byID[d], [.appExtension, .appClip, .watchApp].contains(UnitOrigin.Kind(productType: dep.productType ?? "")) {
                    host[d] = t.id
                }
            }
        }
        for (child, parent) in host where host[parent] == child {
            let a = byID[child]?.name ?? child, b = byID[parent]?.name ?? parent
            problem(ProjectProblem(file: project.file, location: byID[child]?.location ?? .unknown,
                                   message: "targets \(a) and \(b) embed each other (a reference cycle); neither is taken as the other's host"))
            host[child] = nil
        }
        return host
    }

    mutating func build() -> [ProjectUnit] {
        // Every base configuration is read first, so that a hint about a setting empty in one
        // configuration can name the xcconfig of another that sets it.
        for config in project.projectConfigurations + project.targets.flatMap(\.configurations) {
            _ = baseAssignments(config)
        }
        let byID = targetsByID
        let host = hosts()
        // Targets every app that embeds them embeds only outside Mac Catalyst builds.
        var embedders: [String: [Bool]] = [:]
        for t in project.targets {
            for e in t.embeds { embedders[e, default: []].append(t.embedsNotForCatalyst.contains(e)) }
        }
        notForCatalyst = Set(embedders.filter { !$0.value.isEmpty && $0.value.allSatisfy { $0 } }.keys)

        var out: [ProjectUnit] = []
        var bundles: [String: String] = [:]   // "targetID|config" -> bundle ID
        let projectAbs = files.absolute(project.directory)
        for target in project.targets {
            let kind = UnitOrigin.Kind(productType: target.productType ?? "")
            if UnitOrigin.Kind.isNeverSigned(productType: target.productType ?? "") { continue }
            currentTarget = ProjectProblem.targetKey(projectFile: project.file, target: target.name)
            defer { currentTarget = nil }
            for config in target.configurations {
                variants = []
                if let u = unit(target, config, kind: kind, host: host[target.id].flatMap { byID[$0] }, projectAbs: projectAbs) {
                    if let b = u.unit.bundleID?.value { bundles[target.id + "|" + config.name] = b }
                    out.append(u)
                }
                for variant in variants {
                    if let u = unit(target, config, kind: kind, host: host[target.id].flatMap { byID[$0] }, projectAbs: projectAbs, variant: variant) {
                        out.append(u)
                    }
                }
            }
        }
        // The first target of each name, as a search from the start finds it: one lookup per unit.
        var byName: [String: PBXProject.Target] = [:]
        for t in project.targets where byName[t.name] == nil { byName[t.name] = t }
        for i in out.indices {
            guard let hostName = out[i].unit.origin.hostTarget, let hostTarget = byName[hostName] else { continue }
            out[i].unit.origin.hostBundleID = bundles[hostTarget.id + "|" + out[i].unit.origin.configuration]
        }
        return out
    }

    mutating func unit(_ target: PBXProject.Target, _ config: PBXProject.BuildConfiguration, kind: UnitOrigin.Kind,
                       host: PBXProject.Target?, projectAbs: String, variant: PlatformVariant? = nil) -> ProjectUnit? {
        let projectConfig = projectConfigurationsByName[config.name]
            ?? project.defaultConfiguration.flatMap { projectConfigurationsByName[$0] }
        var entries: [SettingAssignment] = []
        var uses: Set<String> = [files.absolute(project.file)]
        if let pc = projectConfig {
            entries += baseAssignments(pc)
            if let base = pc.baseConfiguration { uses.formUnion(xcconfigs.closure(of: base)) }
            entries += pc.settings
        }
        entries += baseAssignments(config)
        if let base = config.baseConfiguration { uses.formUnion(xcconfigs.closure(of: base)) }
        entries += config.settings

        var builtins = variables
        let projectFilePath = files.absolute(project.bundlePath)
        for (k, v) in [("TARGET_NAME", target.name), ("TARGETNAME", target.name), ("PROJECT_NAME", project.name), ("PROJECT", project.name),
                       ("SRCROOT", projectAbs), ("PROJECT_DIR", projectAbs), ("SOURCE_ROOT", projectAbs),
                       ("PROJECT_FILE_PATH", projectFilePath), ("CONFIGURATION", config.name),
                       ("PRODUCT_NAME", target.productName ?? target.name)] {
            builtins[k] = v
        }
        let first = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: "", configuration: config.name))
        let supported = first.resolveForSigning(KeySetting.platforms, structural: true).value
        let sdk = variant?.sdk ?? deviceSDK(sdkRoot: first.resolveForSigning(KeySetting.sdkRoot, structural: true).value, supportedPlatforms: supported)
        if let sdk {
            builtins["PLATFORM_NAME"] = sdk
            builtins["EFFECTIVE_PLATFORM_NAME"] = variant?.isMacCatalyst == true ? "-maccatalyst" : sdk == "macosx" ? "" : "-" + sdk
        }
        let settings = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: sdk ?? "", configuration: config.name))
        var resolved: [String: ResolvedSetting] = [:]
        for name in KeySetting.all { resolved[name] = settings.resolveForSigning(name, structural: true) }
        if variant == nil {
            variants = PlatformVariant.others(primary: sdk, supportedPlatforms: resolved[KeySetting.platforms]?.value ?? supported,
                                              catalyst: resolved[KeySetting.catalyst]?.value)
            // Embedded by its app only outside Mac Catalyst (`platformFilter = ios`): no Catalyst unit.
            if notForCatalyst.contains(target.id) { variants.removeAll { $0.isMacCatalyst } }
        }

        let owner = "target \(target.name)"
        func report(_ name: String) {
            guard let r = resolved[name], r.value == nil, let source = r.source, let why = r.problem,
                  !why.hasPrefix("it may be set in a file"), !r.isUnknownForMissingFile else { return }
            problem(ProjectProblem(rule: "unresolved-variable", file: source.file, location: source.location,
                                   message: "\(name) = \"\(OutputText.excerpt(source.value))\" (\(owner)) cannot be resolved: \(why)"))
        }

        var sources: [String: String] = [:]
        for name in KeySetting.all {
            if let s = resolved[name]?.source, resolved[name]?.value != nil { sources[name] = s.place }
        }
        func nonEmpty(_ name: String) -> String? {
            guard let v = resolved[name]?.value?.trimmed(" \t"), !v.isEmpty else { return nil }
            return v
        }
        func fact(_ name: String) -> Fact<String>? {
            guard let v = nonEmpty(name) else { return nil }
            let place = resolved[name]?.source?.place ?? project.file
            return Fact(v, from: .xcode("\(name) at \(place)"))
        }

        // The entitlements file.
        var entitlementsPath: String?
        var document: PlistDocument?
        var entitlementsAbs: String?
        if let raw = nonEmpty(KeySetting.entitlements) {
            var path = ProjectFiles.normalize(ProjectFiles.join(project.directory, raw))
            let source = resolved[KeySetting.entitlements]?.source
            if files.isOutside(path) {
                problem(ProjectProblem(file: source?.file ?? project.file, location: source?.location ?? target.location,
                                       message: "CODE_SIGN_ENTITLEMENTS of \(owner) names \(OutputText.reference(raw)), outside the project root (symbolic links resolved): not read; the target is not checked"))
                return nil
            }
            if files.kind(path) != .file, let variant = files.caseVariant(of: path), files.kind(variant) == .file, !files.isOutside(variant) {
                // Xcode on a case-insensitive volume (the macOS default) signs with the file
                // whose name differs only in case: the target is signed with it.
                problem(ProjectProblem(file: source?.file ?? project.file, location: source?.location ?? target.location,
                                       message: "CODE_SIGN_ENTITLEMENTS of \(owner) names \(files.shown(path)), but the file is \(files.shown(variant)): the names differ only in case, which a case-insensitive volume (the macOS default) accepts; a case-sensitive volume cannot sign the target, so write the name as it is",
                                       severity: .note))
                path = variant
            }
            if files.kind(path) != .file {
                problem(ProjectProblem(file: source?.file ?? project.file, location: source?.location ?? target.location,
                                       message: "CODE_SIGN_ENTITLEMENTS of \(owner) names \(files.shown(path)), which does not exist; the target cannot be signed, and is not checked"))
                return nil
            }
            switch entitlements.document(path) {
            case .failure(let p):
                problem(p)
                return nil
            case .success(let doc):
                document = doc
                entitlementsPath = path
                entitlementsAbs = files.absolute(path)
                uses.insert(entitlementsAbs!)
            }
        } else {
            report(KeySetting.entitlements)
            if resolved[KeySetting.entitlements]?.problem != nil {
                return nil   // it names a file, but which one cannot be known
            }
        }
        guard kind.isSignedProduct || document != nil else { return nil }
        for name in [KeySetting.bundleID, KeySetting.team, KeySetting.specifier, KeySetting.profile] { report(name) }

        var team = fact(KeySetting.team)
        if team == nil, resolved[KeySetting.team]?.isSet != true, let t = target.developmentTeam {
            team = Fact(t.value, from: .xcode("TargetAttributes DevelopmentTeam at \(project.file):\(t.location.line)"))
            sources[KeySetting.team] = "\(project.file):\(t.location.line) (TargetAttributes)"
        }
        var bundle = fact(KeySetting.bundleID)
        // Mac Catalyst: `maccatalyst.` before the iOS bundle ID when the project asks Xcode to derive it.
        if variant?.isMacCatalyst == true, let b = bundle, !b.value.hasPrefix("maccatalyst."),
           nonEmpty(KeySetting.deriveCatalystBundleID)?.uppercased() == "YES" {
            bundle = Fact("maccatalyst." + b.value, from: .derived("maccatalyst. + \(b.source)"))
        }
        let shownPath: String
        if let entitlementsPath {
            shownPath = files.shown(entitlementsPath)
        } else {
            // No entitlements file: findings about the unit point at its bundle ID, else the target.
            let source = resolved[KeySetting.bundleID]?.source
            shownPath = source?.file ?? project.file
            document = PlistDocument(root: PlistNode(.dict(PlistDictionary()), at: source?.location ?? target.location), format: .openStep)
        }
        let names = entitlementsAbs.map { entitlements.referencedVariables($0, in: document!) }
        let entitlementSettings = EntitlementsSettings(document: document!, evaluator: settings, names: names) { name in
            settingHint(name, entries: entries)
        }
        document = entitlementSettings.document
        let style = nonEmpty(KeySetting.style) ?? target.provisioningStyle
        var origin = UnitOrigin(projectFile: project.file, projectName: project.name, target: target.name, configuration: config.name,
                                productType: target.productType, kind: kind, sdk: sdk,
                                isMacCatalyst: variant?.isMacCatalyst ?? (nonEmpty(KeySetting.catalyst)?.uppercased() == "YES"),
                                hostTarget: host?.name,
                                signingStyle: style, profileSpecifier: nonEmpty(KeySetting.specifier), profileUUID: nonEmpty(KeySetting.profile),
                                hasEntitlementsFile: entitlementsPath != nil, settingSources: sources)
        origin.emptySettings = entitlementSettings.empty
        origin.unknownSettings = entitlementSettings.unknownFiles
        origin.unknownKeySettings = KeySetting.unknownForMissingFile { resolved[$0] }
        origin.excludedFiles = target.excludedFiles.map(files.absolute)
        origin.sources = unitSources(target, config, settings: settings, infoPlist: nonEmpty(KeySetting.infoPlist))
        if sdk == "macosx", variant?.isMacCatalyst != true {
            // Known only when every setting it rests on is, a file that cannot be read (a
            // per-developer xcconfig) counting as one that may set it: an unknown one leaves it false.
            let identity = settings.resolveForSigning(KeySetting.identity)
            let rest = [KeySetting.team, KeySetting.specifier, KeySetting.profile].map { settings.resolveForSigning($0) }
            if identity.source != nil, identity.problem == nil, rest.allSatisfy({ $0.problem == nil }) {
                origin.signsToRunLocally = UnitOrigin.signsToRunLocally(identity: identity.value, team: team?.value, profiles: rest.map(\.value))
                origin.signingIdentitySource = identity.source?.place
            }
        }
        let discovered = DiscoveredUnit(name: "\(target.name) (\(config.name)\(variant.map { ", " + $0.label } ?? ""))", entitlementsPath: entitlementsPath.map(files.shown),
                                        shownPath: shownPath, document: document!, bundleID: bundle, teamID: team,
                                        platform: platform(ofSDK: sdk), origin: origin, variables: entitlementSettings.variables, inScope: false)
        return ProjectUnit(unit: discovered, uses: uses, entitlements: entitlementsAbs, targetKey: origin.targetKey)
    }
}
