import EntitlintCore
import EntitlintWorkspace
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList

// The units of a spec: each target (one per platform of a multi-platform target) in every
// configuration and platform variant, with its settings levels, entitlements and sources.
extension XcodeGenSpec {
    static func units(specPath: String, files: ProjectFiles, xcconfigs: XCConfigLoader, entitlements: EntitlementsCache,
                      variables: [String: String], limits: PlistLimits,
                      catalog: SourceCatalog? = nil) -> ([ProjectUnit], [ProjectProblem], [String]) {
        let catalog = catalog ?? SourceCatalog(files: files)
        /// A path written in a spec, relative to the folder of the spec that wrote it (XcodeGen 2.2
        /// and later resolve an included spec's paths from its own folder), usable from here.
        func specRelative(_ node: YNode) -> String {
            let raw = node.string ?? ""
            let folder = Paths.directoryName(node.file.isEmpty ? specPath : node.file)
            return ProjectFiles.normalize(ProjectFiles.join(folder, raw))
        }
        var problems: [ProjectProblem] = []
        var read: [String] = []
        let budget = Budget()
        guard let spec = load(specPath, files: files, problems: &problems, read: &read, budget: budget) else { return ([], problems, read) }
        let shown = files.shown(specPath)
        let specFolder = Paths.directoryName(specPath)
        xcconfigs.projectFolder = specFolder
        guard let projectName = spec["name"]?.string else {
            problems.append(ProjectProblem(file: shown, location: spec.location, message: "not an XcodeGen spec: no `name`"))
            return ([], problems, read)
        }
        let projectAbs = files.absolute(specFolder)
        var configNames = spec["configs"]?.entries.map(\.key) ?? []
        if configNames.isEmpty { configNames = ["Debug", "Release"] }
        let groups = spec["settingGroups"]
        let prefix = spec["options"]?["bundleIdPrefix"]?.string
        let templates = spec["targetTemplates"]

        let targets = targetSpecs(spec, templates: templates, budget: budget)
        guard !budget.exceeded else {
            problems.append(ProjectProblem(file: shown, location: spec.location, message: Budget.message))
            return ([], problems, read)
        }
        // Entitlements files that XcodeGen writes from a target's `properties`: another target
        // naming the same file uses what is written there.
        var generated: [String: YNode] = [:]
        for t in targets {
            if let e = t.node["entitlements"], let props = e["properties"], let path = e["path"] {
                generated[files.absolute(specRelative(path))] = props
            }
        }
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let host = hosts(targets)

        func configFile(_ node: YNode?, _ config: String) -> (path: String, location: SourceLocation)? {
            guard let e = node?.entries.first(where: { $0.key == config }), e.value.string != nil else { return nil }
            return (specRelative(e.value), e.value.location)
        }

        var out: [ProjectUnit] = []
        var bundles: [String: String] = [:]
        for t in targets where !UnitOrigin.Kind.isNeverSigned(productType: t.type ?? "") {
            let targetKey = ProjectProblem.targetKey(projectFile: shown, target: t.name)
            let platformNode = t.node["platform"]
            // `supportedDestinations` (platform `auto`): XcodeGen sets SUPPORTED_PLATFORMS and
            // SUPPORTS_MACCATALYST from it; the first device destination is the primary platform.
            let destinations = (t.node["supportedDestinations"]?.items ?? []).compactMap(\.string)
            let destinationSDKs = destinations.compactMap { platformSDKs[$0] }
            let sdk = platformNode?.string.flatMap { platformSDKs[$0] } ?? destinationSDKs.first
            let entitlementsNode = t.node["entitlements"]
            let entitlementsRel = entitlementsNode?["path"]?.string
            for config in configNames {
                // The primary platform first; the variants it is also signed for (Mac Catalyst,
                // other device platforms) are found from its settings and formed after it.
                var pending: [PlatformVariant?] = [nil]
                var nextVariant = 0
                while nextVariant < pending.count {
                    let variant = pending[nextVariant]
                    nextVariant += 1
                    let unitSDK = variant?.sdk ?? sdk
                    var entries: [SettingAssignment] = []
                    var uses: Set<String> = [files.absolute(specPath)]
                    if let (p, loc) = configFile(spec["configFiles"], config) {
                        entries += xcconfigs.load(p, referencedFrom: (shown, loc))
                        uses.formUnion(xcconfigs.closure(of: p))
                    }
                    entries += settings(spec["settings"], configuration: config, groups: groups)
                    if let (p, loc) = configFile(t.node["configFiles"], config) {
                        entries += xcconfigs.load(p, referencedFrom: (shown, loc))
                        uses.formUnion(xcconfigs.closure(of: p))
                    }
                    if let sdk, let node = platformNode {
                        entries.append(SettingAssignment(name: KeySetting.sdkRoot, value: sdk, file: shown, location: node.location))
                    }
                    if entitlementsRel != nil, let node = entitlementsNode?["path"] {
                        // XcodeGen writes the path from the project folder; it is kept absolute here
                        // so that it means the same whichever spec wrote it.
                        entries.append(SettingAssignment(name: KeySetting.entitlements, value: files.absolute(specRelative(node)), file: node.file, location: node.location))
                    }
                    entries += settings(t.node["settings"], configuration: config, groups: groups)
                    var builtins = variables
                    for (k, v) in [("TARGET_NAME", t.name), ("TARGETNAME", t.name), ("PROJECT_NAME", projectName), ("PROJECT", projectName),
                                   ("SRCROOT", projectAbs), ("PROJECT_DIR", projectAbs), ("SOURCE_ROOT", projectAbs),
                                   ("CONFIGURATION", config), ("PRODUCT_NAME", t.name)] { builtins[k] = v }
                    if let unitSDK {
                        builtins["PLATFORM_NAME"] = unitSDK
                        builtins["EFFECTIVE_PLATFORM_NAME"] = variant?.isMacCatalyst == true ? "-maccatalyst" : unitSDK == "macosx" ? "" : "-" + unitSDK
                    }
                    var evaluator = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: unitSDK ?? "", configuration: config))
                    if let prefix, !evaluator.resolveForSigning(KeySetting.bundleID, structural: true).isSet, t.kind != .other {
                        entries.insert(SettingAssignment(name: KeySetting.bundleID, value: generatedBundleID(prefix: prefix, target: t.name),
                                                         file: shown, location: spec["options"]?["bundleIdPrefix"]?.location ?? .unknown), at: 0)
                        evaluator = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: unitSDK ?? "", configuration: config))
                    }
                    if variant == nil {
                        let listed = [evaluator.resolveForSigning(KeySetting.platforms, structural: true).value ?? ""] + destinationSDKs
                        let catalyst = evaluator.resolveForSigning(KeySetting.catalyst, structural: true).value ?? (destinations.contains("macCatalyst") ? "YES" : nil)
                        pending += PlatformVariant.others(primary: sdk, supportedPlatforms: listed.joined(separator: " "), catalyst: catalyst)
                            .map { Optional($0) }
                    }
                    func value(_ name: String) -> (String, SettingAssignment?)? {
                        let r = evaluator.resolveForSigning(name, structural: true)
                        if r.value == nil, let source = r.source, let why = r.problem, !why.hasPrefix("it may be set in a file"), !r.isUnknownForMissingFile {
                            var p = ProjectProblem(rule: "unresolved-variable", file: source.file, location: source.location,
                                                   message: "\(name) = \"\(OutputText.excerpt(source.value))\" (target \(t.name)) cannot be resolved: \(why)")
                            p.target = targetKey
                            problems.append(p)
                        }
                        guard let v = r.value?.trimmed(" \t"), !v.isEmpty else { return nil }
                        return (v, r.source)
                    }
                    var document: PlistDocument?
                    var entitlementsPath: String?
                    var entitlementsAbs: String?
                    var shownPath = shown
                    let rawEntitlements = value(KeySetting.entitlements)
                    if let props = entitlementsNode?["properties"] {
                        document = Self.document(props)
                        if let (raw, _) = rawEntitlements {
                            let p = ProjectFiles.normalize(ProjectFiles.join(specFolder, raw))
                            entitlementsAbs = files.absolute(p)
                            uses.insert(entitlementsAbs!)
                        }
                    } else if let (raw, _) = rawEntitlements, let props = generated[files.absolute(ProjectFiles.normalize(ProjectFiles.join(specFolder, raw)))],
                              files.kind(ProjectFiles.normalize(ProjectFiles.join(specFolder, raw))) != .file {
                        // Written by XcodeGen from another target's `properties`.
                        document = Self.document(props)
                        entitlementsAbs = files.absolute(ProjectFiles.normalize(ProjectFiles.join(specFolder, raw)))
                        uses.insert(entitlementsAbs!)
                    } else if let (raw, source) = rawEntitlements {
                        var p = ProjectFiles.normalize(ProjectFiles.join(specFolder, raw))
                        if files.isOutside(p) {
                            problems.append(ProjectProblem(file: source?.file ?? shown, location: source?.location ?? t.location,
                                                           message: "the entitlements of target \(t.name) are \(OutputText.reference(raw)), outside the project root (symbolic links resolved): not read; the target is not checked"))
                            continue
                        }
                        if files.kind(p) != .file, let variant = files.caseVariant(of: p), files.kind(variant) == .file, !files.isOutside(variant) {
                            // As Xcode on a case-insensitive volume (the macOS default) signs it.
                            var problem = ProjectProblem(file: source?.file ?? shown, location: source?.location ?? t.location,
                                                         message: "the entitlements of target \(t.name) are \(files.shown(p)), but the file is \(files.shown(variant)): the names differ only in case, which a case-insensitive volume (the macOS default) accepts; a case-sensitive volume cannot sign the target, so write the name as it is",
                                                         severity: .note)
                            problem.target = targetKey
                            problems.append(problem)
                            p = variant
                        }
                        if files.kind(p) != .file {
                            var problem = ProjectProblem(file: source?.file ?? shown, location: source?.location ?? t.location,
                                                         message: "the entitlements of target \(t.name) are \(files.shown(p)), which does not exist, and the spec gives no `properties` to generate it from; the target is not checked")
                            problem.target = targetKey
                            problems.append(problem)
                            continue
                        }
                        switch entitlements.document(p) {
                        case .failure(var problem):
                            problem.target = targetKey
                            problems.append(problem)
                            continue
                        case .success(let doc):
                            document = doc
                            entitlementsPath = p
                            entitlementsAbs = files.absolute(p)
                            shownPath = files.shown(p)
                            uses.insert(entitlementsAbs!)
                        }
                    }
                    guard t.kind.isSignedProduct || document != nil else { continue }
                    var sources: [String: String] = [:]
                    func fact(_ name: String) -> Fact<String>? {
                        guard let (v, source) = value(name) else { return nil }
                        let place = source?.place ?? shown
                        sources[name] = place
                        return Fact(v, from: .xcode("\(name) at \(place)"))
                    }
                    var bundle = fact(KeySetting.bundleID)
                    // Mac Catalyst: `maccatalyst.` before the iOS bundle ID when the spec asks Xcode to derive it.
                    if variant?.isMacCatalyst == true, let b = bundle, !b.value.hasPrefix("maccatalyst."),
                       value(KeySetting.deriveCatalystBundleID)?.0.uppercased() == "YES" {
                        bundle = Fact("maccatalyst." + b.value, from: .derived("maccatalyst. + \(b.source)"))
                    }
                    let team = fact(KeySetting.team)
                    if document == nil {
                        document = PlistDocument(root: PlistNode(.dict(PlistDictionary()), at: t.location), format: .xml)
                    }
                    let entitlementSettings = EntitlementsSettings(document: document!, evaluator: evaluator) { name in
                        emptySettingHint(name, entries: entries, xcconfigs: xcconfigs, projectSettings: [])
                    }
                    document = entitlementSettings.document
                    if variant == nil, let b = bundle?.value { bundles[t.name + "|" + config] = b }
                    var origin = UnitOrigin(projectFile: shown, projectName: projectName, target: t.name, configuration: config,
                                            productType: t.type, kind: t.kind, sdk: unitSDK,
                                            isMacCatalyst: variant?.isMacCatalyst ?? (value(KeySetting.catalyst)?.0.uppercased() == "YES"), hostTarget: host[t.name],
                                            signingStyle: value(KeySetting.style)?.0, profileSpecifier: value(KeySetting.specifier)?.0,
                                            profileUUID: value(KeySetting.profile)?.0, hasEntitlementsFile: entitlementsPath != nil || entitlementsAbs != nil,
                                            settingSources: sources)
                    origin.emptySettings = entitlementSettings.empty
                    origin.unknownSettings = entitlementSettings.unknownFiles
                    origin.unknownKeySettings = KeySetting.unknownForMissingFile { evaluator.resolveForSigning($0, structural: true) }
                    (origin.signsToRunLocally, origin.signingIdentitySource) = Self.localSigning(evaluator, sdk: unitSDK, isMacCatalyst: origin.isMacCatalyst, team: team?.value)
                    let key = files.absolute(specPath) + "#"
                    let code = catalog.withLinked(key + t.name, own: {
                        XcodeGenSources.code(target: t.node, spec: spec, specPath: specPath, catalog: catalog)
                    }, linked: {
                        LinkedCode.closure(of: t.name) { XcodeGenSources.linkedTargets(byName[$0]?.node) { byName[$0]?.type } }.compactMap { name in
                            byName[name].map { d in (key: key + name, make: { XcodeGenSources.code(target: d.node, spec: spec, specPath: specPath, catalog: catalog) }) }
                        }
                    })
                    origin.sources = XcodeGenSources.unitSources(code, target: t.node, specPath: specPath, settings: evaluator, catalog: catalog,
                                                      entitlements: entitlements)
                    let unit = DiscoveredUnit(name: "\(t.name) (\(config)\(variant.map { ", " + $0.label } ?? ""))",
                                              entitlementsPath: entitlementsPath.map(files.shown), shownPath: shownPath,
                                              document: document!, bundleID: bundle, teamID: team, platform: platform(ofSDK: unitSDK),
                                              origin: origin, variables: entitlementSettings.variables, inScope: false)
                    out.append(ProjectUnit(unit: unit, uses: uses, entitlements: entitlementsAbs, targetKey: origin.targetKey))
                }
            }
        }
        for i in out.indices {
            guard let h = out[i].unit.origin.hostTarget else { continue }
            out[i].unit.origin.hostBundleID = bundles[h + "|" + out[i].unit.origin.configuration]
        }
        // A variant meets the problems of its primary again (the same missing file, the same
        // unresolvable setting): each is reported once.
        var seen = Set<String>()
        problems = problems.filter { seen.insert("\($0.file)|\($0.location.line)|\($0.location.column)|\($0.rule)|\($0.message)").inserted }
        return (out, problems, read)
    }

    /// Target name -> the app or watch app that depends on it (an extension, an App Clip, a watch app).
    private static func hosts(_ targets: [TargetSpec]) -> [String: String] {
        var host: [String: String] = [:]
        for t in targets where t.kind == .app || t.kind == .watchApp {
            for dep in t.node["dependencies"]?.items ?? [] {
                guard let name = dep["target"]?.string, let d = targets.first(where: { $0.name == name }), d.kind != .app, d.kind != .other,
                      host[name] == nil else { continue }
                host[name] = t.name
            }
        }
        return host
    }
}
