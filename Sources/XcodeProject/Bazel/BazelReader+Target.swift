import EntitlintCore
import EntitlintWorkspace

extension BazelReader {
    static let selectedAttributes = ["bundle_id", "entitlements", "provisioning_profile", "families", "minimum_os_version"]
    static let defaultCondition = "//conditions:default"

    /// The targets of one bundle rule call, one per configuration.
    mutating func targets(_ rule: BazelRule, _ call: Located, bindings: [String: Located], calledAt line: Int) -> [ManifestTarget] {
        func attribute(_ label: String) -> Located? {
            call.value.arg(label).map { definitions.resolve(Located(value: $0, file: call.file), bindings: bindings) }
        }
        guard let name = attribute("name")?.value.stringValue else {
            note(line, "a \(rule.kind) target whose name needs evaluation is not read")
            return []
        }
        // Configurations: the keys of the selects, in order.
        var keys: [String] = []
        var selects: [String: [(key: String, value: Located)]] = [:]
        for a in Self.selectedAttributes {
            guard let v = attribute(a), case .call("select", nil, _, _) = v.value else { continue }
            guard case .dict(let pairs, _)? = v.value.positional(0) else {
                selects[a] = []
                continue
            }
            var branches: [(String, Located)] = []
            for (k, value) in pairs.prefix(64) {
                guard let key = definitions.resolve(Located(value: k, file: v.file), bindings: bindings).value.stringValue else { continue }
                branches.append((key, definitions.resolve(Located(value: value, file: v.file), bindings: bindings)))
                if !keys.contains(key) { keys.append(key) }
            }
            selects[a] = branches
        }
        if keys.isEmpty { keys = [Self.defaultCondition] }
        var productType = rule.productType
        if rule.kind == "bundle", attribute("bundle_extension")?.value.stringValue == "systemextension" { productType = "system-extension" }
        let fullType = "com.apple.product-type." + productType
        let kind = UnitOrigin.Kind(productType: fullType)
        var embeds: [String] = []
        for a in ["extensions", "app_clips", "watch_application", "extension"] {
            guard let v = attribute(a) else { continue }
            switch v.value {
            case .string(let s, _): embeds.append(key(s))
            case .list(let items, _): embeds += items.prefix(256).compactMap { definitions.resolve(Located(value: $0, file: v.file), bindings: bindings).value.stringValue }.map(key)
            default: break
            }
        }
        var extra: [String: String] = [:]
        for a in ["families", "minimum_os_version"] {
            if let v = attribute(a) { extra[a] = v.place }
        }
        let place = "\(file.shown):\(line)"
        return keys.map { condition in
            func value(_ a: String) -> Located? {
                if let branches = selects[a] {
                    if let b = branches.first(where: { $0.key == condition }) ?? branches.first(where: { $0.key == Self.defaultCondition }) { return b.value }
                    return Located(value: .unknown("no branch of the select() for \(condition)", line: call.value.line), file: call.file)
                }
                return attribute(a)
            }
            let configuration = condition == Self.defaultCondition ? "default" : String(condition.split(separator: ":").last ?? Substring(condition))
            var t = ManifestTarget(name: name, place: place, line: line, projectFile: file.shown, projectName: key(name),
                                   configuration: configuration, kind: kind, productType: fullType, sdk: rule.sdk,
                                   key: key(name), family: root ?? package)
            t.embeds = embeds
            t.extraSources = extra
            switch value("bundle_id")?.value {
            case .string(let s, _)?: t.bundleID = .known(s, place: value("bundle_id")!.place)
            case nil, .none?: break
            default: t.bundleID = .unknown("a bundle_id that needs evaluation", place: value("bundle_id")!.place)
            }
            t.declared.deviceFamilies = declared(value("families"), "families", bindings: bindings)
            t.declared.minimumOS = declared(value("minimum_os_version"), "minimum_os_version", bindings: bindings)
            t.entitlements = fileLabel(value("entitlements"), what: "entitlements")
            let profile = fileLabel(value("provisioning_profile"), what: "provisioning_profile")
            switch profile {
            case .known(let p, let at):
                t.extraSources["provisioning_profile"] = "\(files.shown(p)) (\(at))"
                t.entitlementsFromElsewhere = "the entitlements of its provisioning profile \(files.shown(p)) (rules_apple's behaviour), which are not read as a unit"
            case .unknown(let why, let at):
                t.extraSources["provisioning_profile"] = "unknown: \(why) (\(at))"
                t.entitlementsFromElsewhere = "the entitlements of its provisioning profile (rules_apple's behaviour), which cannot be read: \(why)"
            case .unset: break
            }
            return t
        }
    }

    /// `families = ["iphone", "ipad"]` (a list of strings) or `minimum_os_version = "15.0"` (a
    /// string) as written, with its line; any other form is unknown, said with its line.
    private func declared(_ v: Located?, _ attribute: String, bindings: [String: Located]) -> DeclaredFacts.Item? {
        guard let v else { return nil }
        switch v.value {
        case .none: return nil
        case .string(let s, _) where attribute != "families":
            return .init(value: s, source: "\(attribute) at \(v.place)")
        case .list(let items, _) where attribute == "families" && items.count <= 16:
            let names = items.compactMap { definitions.resolve(Located(value: $0, file: v.file), bindings: bindings).value.stringValue }
            if names.count == items.count { return .init(value: names.joined(separator: ", "), source: "\(attribute) at \(v.place)") }
        case .unknown(let why, _):
            return .init(value: nil, source: "\(attribute) unknown: \(why) (\(v.place))")
        default: break
        }
        return .init(value: nil, source: "\(attribute) unknown: a value that needs evaluation (\(v.place))")
    }

    /// A file attribute: a label of a file of the workspace (absolute), unknown when it needs
    /// evaluation, names another repository, or names no file (a rule's output).
    private func fileLabel(_ v: Located?, what: String) -> ManifestFact {
        guard let v else { return .unset }
        switch v.value {
        case .none: return .unset
        case .string(let label, _):
            guard let path = Self.resolve(label: label, package: package, root: root, files: files) else {
                return .unknown("\(what) \(label) is outside the workspace or another repository's", place: v.place)
            }
            guard files.kind(path) == .file else { return .unknown("\(what) \(label) names no file of the workspace (a rule's output?)", place: v.place) }
            return .known(path, place: v.place)
        case .unknown(let why, _): return .unknown(why, place: v.place)
        default: return .unknown("\(what) needs evaluation", place: v.place)
        }
    }
}
