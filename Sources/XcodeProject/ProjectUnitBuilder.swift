import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// A unit a project defines, with the files it depends on (to decide which units a run's paths
/// concern: "a path to one `.entitlements` file inside a project lints the units that use it").
struct ProjectUnit {
    var unit: DiscoveredUnit
    /// Absolute paths: the entitlements file, the xcconfig files, the project file.
    var uses: Set<String>
    /// Absolute path of the entitlements file, when there is one.
    var entitlements: String?
    /// Where the unit's entitlements file lives, for "units below this folder".
    var targetKey: String
}

/// Parses each entitlements file once for all the units that use it.
final class EntitlementsCache: @unchecked Sendable {
    let files: ProjectFiles
    let limits: PlistLimits
    private var parsed: [String: Result<PlistDocument, ProjectProblem>] = [:]
    static let plistExtensions: [[UInt8]] = ["entitlements", "xcent", "plist"].map { Array($0.utf8) }

    init(files: ProjectFiles, limits: PlistLimits) {
        self.files = files
        self.limits = limits
    }

    func document(_ path: String) -> Result<PlistDocument, ProjectProblem> {
        let abs = files.absolute(path)
        if let r = parsed[abs] { return r }
        let shown = files.shown(abs)
        let result: Result<PlistDocument, ProjectProblem>
        switch files.read(abs) {
        case .failure(let why):
            result = .failure(ProjectProblem(file: shown, location: .unknown, message: "cannot parse property list: cannot read the file: \(why)"))
        case .success(let bytes):
            switch Linter.parse(bytes: bytes, path: abs, limits: limits) {
            case .entitlements(let doc): result = .success(doc)
            case .failed(let reason, let loc):
                // The reader's reason may quote the file; it is shown only for a file named as
                // entitlements or a plist. Another file a setting names is not quoted.
                let named = Linter.hasExtension(abs, in: Self.plistExtensions)
                result = .failure(ProjectProblem(file: shown, location: loc, message: "cannot parse property list: " + (named ? reason
                    : "not a property list (the file is not named .entitlements, .xcent or .plist, so none of it is shown)")))
            case .profile:
                result = .failure(ProjectProblem(file: shown, location: .unknown, message: "cannot parse property list: this is a provisioning profile, not an entitlements file"))
            }
        }
        parsed[abs] = result
        return result
    }
}

/// The settings Entitlint reads for every unit.
enum KeySetting {
    static let bundleID = "PRODUCT_BUNDLE_IDENTIFIER"
    static let team = "DEVELOPMENT_TEAM"
    static let entitlements = "CODE_SIGN_ENTITLEMENTS"
    static let specifier = "PROVISIONING_PROFILE_SPECIFIER"
    static let profile = "PROVISIONING_PROFILE"
    static let style = "CODE_SIGN_STYLE"
    static let sdkRoot = "SDKROOT"
    static let platforms = "SUPPORTED_PLATFORMS"
    static let infoPlist = "INFOPLIST_FILE"
    static let catalyst = "SUPPORTS_MACCATALYST"
    static let deriveCatalystBundleID = "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER"
    static let all = [bundleID, team, entitlements, specifier, profile, style, sdkRoot, platforms, infoPlist, catalyst, deriveCatalystBundleID]
}

/// A platform a target is signed for besides its first one: Mac Catalyst (`SUPPORTS_MACCATALYST`
/// on an iOS target) or another device platform of `SUPPORTED_PLATFORMS`. Each is its own
/// signing unit, with the settings conditioned on its SDK (`[sdk=macosx*]`).
struct PlatformVariant: Hashable {
    var sdk: String
    var isMacCatalyst: Bool

    /// How the unit's name tells it apart: `App (Release, Mac Catalyst)`.
    var label: String {
        if isMacCatalyst { return "Mac Catalyst" }
        switch sdk {
        case "macosx": return "macOS"
        case "appletvos": return "tvOS"
        case "xros": return "visionOS"
        case "watchos": return "watchOS"
        case "iphoneos": return "iOS"
        default: return sdk
        }
    }

    /// The variants besides `primary`, from the target's settings.
    static func others(primary: String?, supportedPlatforms: String?, catalyst: String?) -> [PlatformVariant] {
        var out: [PlatformVariant] = []
        let devices = ["iphoneos", "macosx", "appletvos", "xros", "watchos"]
        let listed = Set((supportedPlatforms ?? "").split(separator: " ").map { String($0).lowercased() })
        for sdk in devices where listed.contains(sdk) && sdk != primary {
            out.append(PlatformVariant(sdk: sdk, isMacCatalyst: false))
        }
        if primary == "iphoneos", catalyst?.trimmed(" \t").uppercased() == "YES", !out.contains(where: { $0.sdk == "macosx" }) {
            out.append(PlatformVariant(sdk: "macosx", isMacCatalyst: true))
        }
        return out
    }
}

/// The device SDK a unit is signed for, from `SDKROOT` (`iphoneos`, `iphoneos17.2`, `macosx`, a
/// path to an SDK) or, for `auto` and multiplatform targets, the first device platform of
/// `SUPPORTED_PLATFORMS`.
func deviceSDK(sdkRoot: String?, supportedPlatforms: String?) -> String? {
    let known = ["iphoneos", "macosx", "watchos", "appletvos", "xros", "driverkit"]
    func base(_ s: String) -> String? {
        var name = Paths.baseName(s).lowercased()
        if name.hasSuffix(".sdk") { name = String(name.dropLast(4)) }
        return known.first { name.hasPrefix($0) }
    }
    if let root = sdkRoot, !root.isEmpty, root != "auto", let b = base(root) { return b }
    let platforms = (supportedPlatforms ?? "").split(separator: " ").map(String.init)
    for candidate in known where platforms.contains(candidate) { return candidate }
    return nil
}

func platform(ofSDK sdk: String?) -> Platform {
    switch sdk {
    case "macosx"?, "driverkit"?: return .macOS
    case "iphoneos"?, "watchos"?, "appletvos"?, "xros"?: return .iOS
    default: return .unknown
    }
}

/// The variables (other than the standard signing ones) the entitlements refer to.
func referencedVariables(_ document: PlistDocument) -> [String] {
    var names: [String] = []
    func visit(_ node: PlistNode) {
        switch node.value {
        case .string(let s):
            guard s.utf8.contains(UInt8(ascii: "$")) else { return }
            for r in VariableExpander.references(in: s) where !r.isTemplate {
                let base = String(r.name.prefix { $0 != ":" })
                if !VariableExpander.standardNames.contains(base), !names.contains(base) { names.append(base) }
            }
        case .array(let items): items.forEach(visit)
        case .dict(let d): d.entries.forEach { visit($0.value) }
        default: return
        }
    }
    visit(document.root)
    return names
}

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
    var problems: [ProjectProblem] = []
    /// The target whose units are being formed: problems found meanwhile concern it.
    var currentTarget: String?
    /// The other platforms the configuration just formed is signed for.
    var variants: [PlatformVariant] = []

    init(project: PBXProject, files: ProjectFiles, xcconfigs: XCConfigLoader, entitlements: EntitlementsCache, variables: [String: String],
         catalog: SourceCatalog? = nil) {
        self.project = project
        self.files = files
        self.xcconfigs = xcconfigs
        self.entitlements = entitlements
        self.variables = variables
        self.catalog = catalog ?? SourceCatalog(files: files)
        targetsByID = Dictionary(project.targets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
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

    mutating func build() -> [ProjectUnit] {
        // Every base configuration is read first, so that a hint about a setting empty in one
        // configuration can name the xcconfig of another that sets it.
        for config in project.projectConfigurations + project.targets.flatMap(\.configurations) {
            _ = baseAssignments(config)
        }
        let byID = targetsByID
        // Hosts: who embeds whom; else which app depends on an extension.
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

        var out: [ProjectUnit] = []
        var bundles: [String: String] = [:]   // "targetID|config" -> bundle ID
        let projectAbs = files.absolute(project.directory)
        for target in project.targets {
            let kind = UnitOrigin.Kind(productType: target.productType ?? "")
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
        for i in out.indices {
            guard let hostName = out[i].unit.origin.hostTarget,
                  let hostTarget = project.targets.first(where: { $0.name == hostName }) else { continue }
            out[i].unit.origin.hostBundleID = bundles[hostTarget.id + "|" + out[i].unit.origin.configuration]
        }
        return out
    }

    mutating func unit(_ target: PBXProject.Target, _ config: PBXProject.BuildConfiguration, kind: UnitOrigin.Kind,
                       host: PBXProject.Target?, projectAbs: String, variant: PlatformVariant? = nil) -> ProjectUnit? {
        let projectConfig = project.projectConfigurations.first { $0.name == config.name }
            ?? project.projectConfigurations.first { $0.name == project.defaultConfiguration }
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
        let supported = first.resolve(KeySetting.platforms).value
        let sdk = variant?.sdk ?? deviceSDK(sdkRoot: first.resolve(KeySetting.sdkRoot).value, supportedPlatforms: supported)
        if let sdk {
            builtins["PLATFORM_NAME"] = sdk
            builtins["EFFECTIVE_PLATFORM_NAME"] = variant?.isMacCatalyst == true ? "-maccatalyst" : sdk == "macosx" ? "" : "-" + sdk
        }
        let settings = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: sdk ?? "", configuration: config.name))
        var resolved: [String: ResolvedSetting] = [:]
        for name in KeySetting.all { resolved[name] = settings.resolve(name) }
        if variant == nil {
            variants = PlatformVariant.others(primary: sdk, supportedPlatforms: resolved[KeySetting.platforms]?.value ?? supported,
                                              catalyst: resolved[KeySetting.catalyst]?.value)
        }

        let owner = "target \(target.name)"
        func report(_ name: String) {
            guard let r = resolved[name], r.value == nil, let source = r.source, let why = r.problem,
                  !why.hasPrefix("it may be set in a file") else { return }
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
            let path = ProjectFiles.normalize(ProjectFiles.join(project.directory, raw))
            let source = resolved[KeySetting.entitlements]?.source
            if files.isOutside(path) {
                problem(ProjectProblem(file: source?.file ?? project.file, location: source?.location ?? target.location,
                                       message: "CODE_SIGN_ENTITLEMENTS of \(owner) names \(OutputText.reference(raw)), outside the project root (symbolic links resolved): not read; the target is not checked"))
                return nil
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
        let entitlementSettings = EntitlementsSettings(document: document!, evaluator: settings) { name in
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
        origin.excludedFiles = target.excludedFiles.map(files.absolute)
        origin.sources = unitSources(target, config, settings: settings, infoPlist: nonEmpty(KeySetting.infoPlist))
        let discovered = DiscoveredUnit(name: "\(target.name) (\(config.name)\(variant.map { ", " + $0.label } ?? ""))", entitlementsPath: entitlementsPath.map(files.shown),
                                        shownPath: shownPath, document: document!, bundleID: bundle, teamID: team,
                                        platform: platform(ofSDK: sdk), origin: origin, variables: entitlementSettings.variables, inScope: false)
        return ProjectUnit(unit: discovered, uses: uses, entitlements: entitlementsAbs, targetKey: origin.targetKey)
    }

    /// What the unit compiles: its target's list (made once for all its configurations) and those
    /// of the framework and library targets it links, embeds or depends on (LinkedCode.swift), plus
    /// CocoaPods when this configuration's base xcconfig is a `Pods-*.xcconfig`, and its Info.plist.
    func unitSources(_ target: PBXProject.Target, _ config: PBXProject.BuildConfiguration, settings: SettingsEvaluator,
                     infoPlist: String?) -> UnitSources {
        let key = files.absolute(project.file) + "#"
        let byID = targetsByID
        let list = catalog.withLinked(key + target.id, own: { codeList(target) }, linked: {
            LinkedCode.closure(of: target.id) { id in
                guard let t = byID[id] else { return [] }
                return (t.code.linkedTargets + t.dependsOn).filter { LinkedCode.productTypes.contains(byID[$0]?.productType ?? "") }
            }.compactMap { id in byID[id].map { t in (key: key + id, make: { codeList(t) }) } }
        })
        var sources = UnitSources(files: list.files, missing: list.missing, unscanned: list.unscanned)
        if let base = config.baseConfiguration, Paths.baseName(base).hasPrefix("Pods-"), !target.code.cocoaPods {
            sources.unscanned.append("CocoaPods (\(Paths.baseName(base)))")
        }
        if let raw = infoPlist {
            catalog.addInfoPlist(ProjectFiles.normalize(ProjectFiles.join(project.directory, raw)), entitlements: entitlements,
                                 settings: settings, to: &sources)
        }
        return sources
    }

    /// The files a target's sources phases, synchronised folders and package products give.
    func codeList(_ target: PBXProject.Target) -> CodeList {
        var list = CodeList()
        var seen = Set<String>()
        for f in target.code.files { catalog.add(file: f, to: &list, seen: &seen) }
        for name in target.code.unlocatable { list.addMissing(name) }
        let excluded = Exclusions(target.excludedFiles.map(files.absolute))
        for folder in target.code.folders { catalog.add(folder: folder, excluded: excluded, to: &list, seen: &seen) }
        for p in target.code.products {
            switch p.package {
            case .local(let folder):
                list.append(catalog.product(p.product, package: folder), seen: &seen)
            case .remote(let name):
                list.append(CodeList(unscanned: ["remote Swift package \(name)"]), seen: &seen)
            case .unnamed:
                // A package added as a folder reference: the one whose manifest declares the
                // product; else, when a folder of the product's name has no Package.swift here,
                // that manifest is what is missing.
                var found: CodeList?
                for folder in project.packageFolders {
                    if case .found(let m) = catalog.manifest(folder), m.products.contains(where: { $0.name == p.product }) {
                        found = catalog.product(p.product, package: folder)
                        break
                    }
                }
                if found == nil, let folder = project.packageFolders.first(where: { Paths.baseName($0) == p.product }),
                   case .missing(let shown) = catalog.manifest(folder) {
                    found = CodeList(missing: [shown])
                }
                list.append(found ?? CodeList(unscanned: ["Swift package product \(p.product): its package is not named by the project"]), seen: &seen)
            }
        }
        if target.code.cocoaPods { list.append(CodeList(unscanned: ["CocoaPods"]), seen: &seen) }
        return list
    }
}
