import EntitlintCore
import EntitlintWorkspace
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList

// What the parts of a spec mean: the settings of one configuration, a target with its templates,
// entitlements `properties` as a plist, the bundle ID XcodeGen generates.
extension XcodeGenSpec {
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

    /// Whether a macOS unit's configuration signs to run locally (`UnitOrigin.signsToRunLocally`),
    /// and where its `CODE_SIGN_IDENTITY` is set, as for a project: known only when the spec (or a
    /// file it reads) sets the identity and no setting it rests on is unknown; else (false, nil).
    /// XcodeGen's own setting presets are not read, so an identity only they would set is unset here.
    static func localSigning(_ settings: SettingsEvaluator, sdk: String?, isMacCatalyst: Bool, team: String?) -> (Bool, String?) {
        guard sdk == "macosx", !isMacCatalyst else { return (false, nil) }
        let identity = settings.resolveForSigning(KeySetting.identity, structural: true)
        let rest = [KeySetting.team, KeySetting.specifier, KeySetting.profile].map { settings.resolveForSigning($0, structural: true) }
        guard identity.source != nil, identity.problem == nil, rest.allSatisfy({ $0.problem == nil }) else { return (false, nil) }
        return (UnitOrigin.signsToRunLocally(identity: identity.value, team: team, profiles: rest.map(\.value)), identity.source?.place)
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

    /// A target as the spec defines it once its templates are merged in.
    struct TargetSpec { var name: String; var node: YNode; var location: SourceLocation; var kind: UnitOrigin.Kind; var type: String? }

    /// The spec's targets in order, each with its templates applied.
    static func targetSpecs(_ spec: YNode, templates: YNode?, budget: Budget) -> [TargetSpec] {
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
        return targets
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
}
