import EntitlintCore
import EntitlintWorkspace
import Foundation
import PropertyList
import Yams

/// XcodeGen project specs (`project.yml`; XcodeGen's `Docs/ProjectSpec.md`), read into the same
/// units as Xcode projects:
///
/// - `name`, `include` (other specs merged first: dictionaries merged, lists appended, `KEY:REPLACE`
///   replaces), `options.bundleIdPrefix` (a target without `PRODUCT_BUNDLE_IDENTIFIER` at any level
///   gets `bundleIdPrefix.TargetName`, the name stripped to letters, digits, `-` and `.`, `_` made `-`);
/// - `configs` (default `Debug` and `Release`), `configFiles` (an `.xcconfig` per configuration),
///   `settings` (a map, or `groups` / `base` / `configs`, the `configs` keys matching any
///   configuration whose name contains them, case-insensitively), `settingGroups`;
/// - `targets` with `type`, `platform`, `settings`, `configFiles`, `templates` (from
///   `targetTemplates`, `${target_name}` replaced), `dependencies` (`target:`: an app depending on an
///   extension is its host), and `entitlements`: `path` (XcodeGen writes the file there and sets
///   `CODE_SIGN_ENTITLEMENTS`) and `properties` (the file's contents). With `properties`, the
///   entitlements are read from the spec, and findings point into `project.yml`; without, from `path`.
///
/// Settings levels, lowest first: the project's config file, the project's settings, the target's
/// config file, XcodeGen's target presets that matter here (`SDKROOT` from `platform`,
/// `CODE_SIGN_ENTITLEMENTS` from `entitlements.path`), the target's settings. Multi-platform targets
/// (`platform: [iOS, macOS]`) are reported, not guessed.
enum XcodeGenSpec {
    static let maxIncludeDepth = 16

    /// A YAML node, with where it was written.
    indirect enum Value {
        case map([(key: String, keyLocation: SourceLocation, value: YNode)])
        case seq([YNode])
        case scalar(String, Scalar)
    }

    enum Scalar { case string, bool, int, float, null }

    struct YNode {
        var value: Value
        var location: SourceLocation
        var file: String

        subscript(_ key: String) -> YNode? {
            guard case .map(let entries) = value else { return nil }
            return entries.last { $0.key == key }?.value
        }

        var string: String? {
            if case .scalar(let s, let kind) = value, kind != .null { return s }
            return nil
        }

        var entries: [(key: String, keyLocation: SourceLocation, value: YNode)] {
            if case .map(let e) = value { return e }
            return []
        }

        var items: [YNode] {
            if case .seq(let s) = value { return s }
            return []
        }
    }

    /// Values a spec may hold once its aliases, includes and templates are expanded: YAML
    /// aliases share one node tree, so 483 bytes of nested aliases stand for a billion values,
    /// and a spec included ten times by each of 16 levels of includes for 10^16 specs. Each
    /// value made (converted, merged, substituted) is counted against `values`; includes are
    /// read once per file and counted against `includes`. Past either, the spec is not read.
    /// Real specs hold a few thousand values; a budget of a million still let one fuzzed spec
    /// take 10 s under the sanitizers, so the limit is a hundred thousand.
    final class Budget {
        static let maxValues = 100_000
        static let maxIncludes = 256
        var values = 0
        var includes = 0
        /// Files read, by absolute path, with what they hold (an include named twice is read once).
        var loaded: [String: YNode?] = [:]

        /// Takes `n` values; false when that passes the limit.
        func take(_ n: Int) -> Bool {
            values += n
            return values <= Self.maxValues
        }

        var exceeded: Bool { values > Self.maxValues }

        static let message = "the spec holds more than \(maxValues) values once its aliases, includes and templates are expanded (an alias or include bomb?); it is not read"
    }

    /// Nil when `budget` runs out.
    static func convert(_ node: Node, file: String, depth: Int = 0, budget: Budget) -> YNode? {
        let loc = node.mark.map { SourceLocation(line: $0.line, column: $0.column) } ?? .unknown
        guard budget.take(1) else { return nil }
        guard depth < 200 else { return YNode(value: .scalar("", .null), location: loc, file: file) }
        if let mapping = node.mapping {
            var entries: [(key: String, keyLocation: SourceLocation, value: YNode)] = []
            for (k, v) in mapping {
                let kl = k.mark.map { SourceLocation(line: $0.line, column: $0.column) } ?? .unknown
                guard let value = convert(v, file: file, depth: depth + 1, budget: budget) else { return nil }
                entries.append((k.scalar?.string ?? "", kl, value))
            }
            return YNode(value: .map(entries), location: loc, file: file)
        }
        if let sequence = node.sequence {
            var items: [YNode] = []
            for item in sequence {
                guard let value = convert(item, file: file, depth: depth + 1, budget: budget) else { return nil }
                items.append(value)
            }
            return YNode(value: .seq(items), location: loc, file: file)
        }
        let text = node.scalar?.string ?? ""
        let kind: Scalar
        switch Tag.Name(rawValue: node.tag.description) {
        case .bool: kind = .bool
        case .int: kind = .int
        case .float: kind = .float
        case .null: kind = .null
        default: kind = .string
        }
        return YNode(value: .scalar(text, kind), location: loc, file: file)
    }

    /// XcodeGen's merge of an included spec (`base`) with the including one (`over`). Keys are
    /// found through an index (linear in the entries, not quadratic); each entry and item of the
    /// result is counted against `budget`, and past it nothing more is merged.
    static func merge(_ base: YNode, _ over: YNode, budget: Budget) -> YNode {
        switch (base.value, over.value) {
        case (.map(let a), .map(let b)):
            guard budget.take(a.count + b.count) else { return over }
            var out: [(key: String, keyLocation: SourceLocation, value: YNode)?] = a
            var index: [String: [Int]] = [:]
            for (i, e) in a.enumerated() { index[e.key, default: []].append(i) }
            for entry in b {
                if entry.key.hasSuffix(":REPLACE") {
                    let key = String(entry.key.dropLast(":REPLACE".count))
                    for i in index[key] ?? [] { out[i] = nil }
                    index[key] = [out.count]
                    out.append((key, entry.keyLocation, entry.value))
                } else if let i = index[entry.key]?.first {
                    out[i] = (entry.key, entry.keyLocation, merge(out[i]!.value, entry.value, budget: budget))
                } else {
                    index[entry.key] = [out.count]
                    out.append(entry)
                }
            }
            return YNode(value: .map(out.compactMap { $0 }), location: over.location, file: over.file)
        case (.seq(let a), .seq(let b)):
            guard budget.take(a.count + b.count) else { return over }
            return YNode(value: .seq(a + b), location: over.location, file: over.file)
        default:
            return over
        }
    }

    /// The spec with its includes merged in. Problems name the file and line.
    static func load(_ path: String, files: ProjectFiles, problems: inout [ProjectProblem], read: inout [String],
                     stack: [String] = [], budget: Budget = Budget()) -> YNode? {
        let abs = files.absolute(path)
        let shown = files.shown(abs)
        if let known = budget.loaded[abs], !stack.contains(abs) { return known }
        guard stack.count < maxIncludeDepth, !stack.contains(abs) else {
            problems.append(ProjectProblem(file: files.shown(stack.last ?? abs), location: .unknown,
                                           message: "include loop or nesting too deep: \((stack + [abs]).map(files.shown).joined(separator: " -> "))"))
            return nil
        }
        let bytes: [UInt8]
        switch files.read(abs) {
        case .success(let b): bytes = b
        case .failure(let why):
            problems.append(ProjectProblem(file: shown, location: .unknown, message: "cannot read the XcodeGen spec: \(why)"))
            return nil
        }
        read.append(shown)
        let text = String(decoding: bytes, as: UTF8.self)
        // Yams composes nested collections recursively: bound the nesting first.
        if let line = YAMLNestingLimit.firstLineDeeperThan(200, in: text) {
            problems.append(ProjectProblem(file: shown, location: SourceLocation(line: line, column: 0), message: "cannot parse the XcodeGen spec: nested more than 200 levels deep"))
            return nil
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            // The problem and its place, never the lines Yams quotes: an `include:` may name
            // any file of the project.
            let problem = Configuration.yamlProblem(error)
            problems.append(ProjectProblem(file: shown, location: SourceLocation(line: problem.line, column: 0),
                                           message: "cannot parse the XcodeGen spec: \(problem.text)"))
            return nil
        }
        guard let node else { return nil }
        guard var spec = convert(node, file: shown, budget: budget) else {
            problems.append(ProjectProblem(file: shown, location: .unknown, message: Budget.message))
            return nil
        }
        var includes: [YNode] = []
        if let inc = spec["include"] {
            for item in inc.items.isEmpty ? [inc] : inc.items {
                guard let rel = item.string ?? item["path"]?.string else { continue }
                budget.includes += 1
                guard budget.includes <= Budget.maxIncludes else {
                    problems.append(ProjectProblem(file: shown, location: item.location, message: "include: more than \(Budget.maxIncludes) includes in all; the settings the rest would give are unknown"))
                    break
                }
                let p = ProjectFiles.normalize(ProjectFiles.join(Paths.directoryName(path), rel))
                if files.isOutside(p) {
                    problems.append(ProjectProblem(file: shown, location: item.location,
                                                   message: "include: \(OutputText.reference(rel)) is outside the project root (symbolic links resolved): not read; the settings it would give are unknown"))
                    continue
                }
                if files.kind(p) != .file {
                    problems.append(ProjectProblem(file: shown, location: item.location, message: "include: \(files.shown(p)) does not exist; the settings it would give are unknown"))
                    continue
                }
                if let included = load(p, files: files, problems: &problems, read: &read, stack: stack + [abs], budget: budget) { includes.append(included) }
            }
        }
        if !includes.isEmpty {
            var merged = includes[0]
            for extra in includes.dropFirst() { merged = merge(merged, extra, budget: budget) }
            spec = merge(merged, spec, budget: budget)
        }
        guard !budget.exceeded else {
            problems.append(ProjectProblem(file: shown, location: .unknown, message: Budget.message))
            budget.loaded[abs] = .some(nil)
            return nil
        }
        budget.loaded[abs] = spec
        return spec
    }

    static func projectName(_ specPath: String, files: ProjectFiles) -> String? {
        var problems: [ProjectProblem] = []
        var read: [String] = []
        return load(specPath, files: files, problems: &problems, read: &read)?["name"]?.string
    }

    static let productTypes: [String: String] = [
        "application": "com.apple.product-type.application",
        "application.on-demand-install-capable": "com.apple.product-type.application.on-demand-install-capable",
        "application.messages": "com.apple.product-type.application.messages",
        "application.watchapp": "com.apple.product-type.application.watchapp",
        "application.watchapp2": "com.apple.product-type.application.watchapp2",
        "application.watchapp2-container": "com.apple.product-type.application.watchapp2-container",
        "app-extension": "com.apple.product-type.app-extension",
        "app-extension.messages": "com.apple.product-type.app-extension.messages",
        "app-extension.messages-sticker-pack": "com.apple.product-type.app-extension.messages-sticker-pack",
        "app-extension.intents-service": "com.apple.product-type.app-extension.intents-service",
        "extensionkit-extension": "com.apple.product-type.extensionkit-extension",
        "tv-app-extension": "com.apple.product-type.tv-app-extension",
        "watchkit-extension": "com.apple.product-type.watchkit-extension",
        "watchkit2-extension": "com.apple.product-type.watchkit2-extension",
        "xpc-service": "com.apple.product-type.xpc-service",
        "system-extension": "com.apple.product-type.system-extension",
        "driver-extension": "com.apple.product-type.driver-extension",
    ]

    static let platformSDKs: [String: String] = ["iOS": "iphoneos", "macOS": "macosx", "tvOS": "appletvos", "watchOS": "watchos", "visionOS": "xros"]

    /// The settings of a `Settings` node for one configuration, in XcodeGen's order: groups, base, configs.
    static func settings(_ node: YNode?, configuration: String, groups: YNode?, depth: Int = 0) -> [SettingAssignment] {
        guard let node, depth < 16 else { return [] }
        let entries = node.entries
        // XcodeGen reads a map with `groups`, `base` or `configs` as the structured form (other keys ignored).
        let structured = entries.contains { ["groups", "base", "configs"].contains($0.key) }
        func assignments(_ map: YNode) -> [SettingAssignment] {
            map.entries.compactMap { e in
                guard let (name, conditions) = SettingAssignment.splitKey(e.key) else { return nil }
                let value: String
                switch e.value.value {
                case .scalar(let s, let kind):
                    value = kind == .bool ? (["true", "yes", "on"].contains(s.lowercased()) ? "YES" : "NO") : s
                case .seq(let items): value = items.compactMap(\.string).joined(separator: " ")
                case .map: return nil
                }
                return SettingAssignment(name: name, conditions: conditions, value: value, file: e.value.file, location: e.keyLocation)
            }
        }
        guard structured else { return assignments(node) }
        var out: [SettingAssignment] = []
        for g in node["groups"]?.items ?? [] {
            if let name = g.string { out += settings(groups?[name], configuration: configuration, groups: groups, depth: depth + 1) }
        }
        if let base = node["base"] { out += assignments(base) }
        for e in node["configs"]?.entries ?? [] where configuration.lowercased().contains(e.key.lowercased()) {
            out += settings(e.value, configuration: configuration, groups: groups, depth: depth + 1)
        }
        return out
    }

    /// The target with its templates merged in (`${target_name}` replaced).
    static func applyTemplates(_ target: YNode, name: String, templates: YNode?, budget: Budget) -> YNode {
        let names = target["templates"]?.items.compactMap(\.string) ?? []
        guard !names.isEmpty, let templates else { return target }
        var merged: YNode?
        for n in names {
            guard !budget.exceeded else { break }
            guard let t = templates[n] else { continue }
            let replaced = substitute(t, "${target_name}", name, budget: budget)
            merged = merged.map { merge($0, replaced, budget: budget) } ?? replaced
        }
        return merged.map { merge($0, target, budget: budget) } ?? target
    }

    /// `node` with `token` replaced by `value` in every key and scalar; each value made is
    /// counted against `budget` (past it, the rest is left as it is).
    static func substitute(_ node: YNode, _ token: String, _ value: String, budget: Budget) -> YNode {
        guard budget.take(1) else { return node }
        var n = node
        switch node.value {
        case .scalar(let s, let kind): n.value = .scalar(s.replacingOccurrences(of: token, with: value), kind)
        case .seq(let items): n.value = .seq(items.map { substitute($0, token, value, budget: budget) })
        case .map(let entries): n.value = .map(entries.map { ($0.key.replacingOccurrences(of: token, with: value), $0.keyLocation, substitute($0.value, token, value, budget: budget)) })
        }
        return n
    }

    /// Entitlements `properties` as a plist document whose locations point into the spec.
    static func document(_ node: YNode) -> PlistDocument {
        func plist(_ n: YNode, depth: Int) -> PlistNode {
            guard depth < 200 else { return PlistNode(.string(""), at: n.location) }
            switch n.value {
            case .map(let entries):
                var d = PlistDictionary()
                for e in entries { d.append(.init(key: e.key, keyLocation: e.keyLocation, value: plist(e.value, depth: depth + 1))) }
                return PlistNode(.dict(d), at: n.location)
            case .seq(let items):
                return PlistNode(.array(items.map { plist($0, depth: depth + 1) }), at: n.location)
            case .scalar(let s, let kind):
                switch kind {
                case .bool: return PlistNode(.bool(["true", "yes", "on"].contains(s.lowercased())), at: n.location)
                case .int: if let v = Int64(s) { return PlistNode(.integer(.signed(v)), at: n.location) }
                case .float: if let v = Double(s) { return PlistNode(.real(v), at: n.location) }
                default: break
                }
                return PlistNode(.string(s), at: n.location)
            }
        }
        return PlistDocument(root: plist(node, depth: 0), format: .xml)
    }

    /// `bundleIdPrefix.Name`, the name reduced as XcodeGen reduces it.
    static func generatedBundleID(prefix: String, target: String) -> String {
        let cleaned = String(target.compactMap { c -> Character? in
            if c == "_" { return "-" }
            return c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == ".") ? c : nil
        })
        return prefix + "." + cleaned
    }

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

        struct TargetSpec { var name: String; var node: YNode; var location: SourceLocation; var kind: UnitOrigin.Kind; var type: String? }
        var targets: [TargetSpec] = []
        for e in spec["targets"]?.entries ?? [] {
            let node = applyTemplates(e.value, name: e.key, templates: templates, budget: budget)
            let name = node["name"]?.string ?? e.key
            let type = node["type"]?.string.map { productTypes[$0] ?? "com.apple.product-type." + $0 }
            let kind = UnitOrigin.Kind(productType: type ?? "")
            // A multi-platform target: XcodeGen makes one target per platform, `Name_iOS`, with
            // `${platform}` replaced in its definition.
            if let platforms = node["platform"], case .seq(let items) = platforms.value {
                for item in items {
                    guard let p = item.string else { continue }
                    var one = substitute(node, "${platform}", p, budget: budget)
                    if case .map(var entries) = one.value {
                        entries.removeAll { $0.key == "platform" }
                        entries.append((key: "platform", keyLocation: item.location, value: item))
                        one.value = .map(entries)
                    }
                    targets.append(TargetSpec(name: "\(name)_\(p)", node: one, location: e.keyLocation, kind: kind, type: type))
                }
                continue
            }
            targets.append(TargetSpec(name: name, node: node, location: e.keyLocation, kind: kind, type: type))
        }
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
        var host: [String: String] = [:]
        for t in targets where t.kind == .app || t.kind == .watchApp {
            for dep in t.node["dependencies"]?.items ?? [] {
                guard let name = dep["target"]?.string, let d = targets.first(where: { $0.name == name }), d.kind != .app, d.kind != .other,
                      host[name] == nil else { continue }
                host[name] = t.name
            }
        }

        func configFile(_ node: YNode?, _ config: String) -> (path: String, location: SourceLocation)? {
            guard let e = node?.entries.first(where: { $0.key == config }), e.value.string != nil else { return nil }
            return (specRelative(e.value), e.value.location)
        }

        var out: [ProjectUnit] = []
        var bundles: [String: String] = [:]
        for t in targets {
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
                    if let prefix, !evaluator.resolve(KeySetting.bundleID).isSet, t.kind != .other {
                        entries.insert(SettingAssignment(name: KeySetting.bundleID, value: generatedBundleID(prefix: prefix, target: t.name),
                                                         file: shown, location: spec["options"]?["bundleIdPrefix"]?.location ?? .unknown), at: 0)
                        evaluator = SettingsEvaluator(entries: entries, builtins: builtins, context: SettingContext(sdk: unitSDK ?? "", configuration: config))
                    }
                    if variant == nil {
                        let listed = [evaluator.resolve(KeySetting.platforms).value ?? ""] + destinationSDKs
                        let catalyst = evaluator.resolve(KeySetting.catalyst).value ?? (destinations.contains("macCatalyst") ? "YES" : nil)
                        pending += PlatformVariant.others(primary: sdk, supportedPlatforms: listed.joined(separator: " "), catalyst: catalyst)
                            .map { Optional($0) }
                    }
                    func value(_ name: String) -> (String, SettingAssignment?)? {
                        let r = evaluator.resolve(name)
                        if r.value == nil, let source = r.source, let why = r.problem, !why.hasPrefix("it may be set in a file") {
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
                        let p = ProjectFiles.normalize(ProjectFiles.join(specFolder, raw))
                        if files.isOutside(p) {
                            problems.append(ProjectProblem(file: source?.file ?? shown, location: source?.location ?? t.location,
                                                           message: "the entitlements of target \(t.name) are \(OutputText.reference(raw)), outside the project root (symbolic links resolved): not read; the target is not checked"))
                            continue
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
                    let key = files.absolute(specPath) + "#"
                    let code = catalog.withLinked(key + t.name, own: {
                        Self.code(target: t.node, spec: spec, specPath: specPath, catalog: catalog)
                    }, linked: {
                        LinkedCode.closure(of: t.name) { Self.linkedTargets(byName[$0]?.node) { byName[$0]?.type } }.compactMap { name in
                            byName[name].map { d in (key: key + name, make: { Self.code(target: d.node, spec: spec, specPath: specPath, catalog: catalog) }) }
                        }
                    })
                    origin.sources = Self.unitSources(code, target: t.node, specPath: specPath, settings: evaluator, catalog: catalog,
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
}
