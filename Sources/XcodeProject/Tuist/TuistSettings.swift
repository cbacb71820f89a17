import EntitlintCore
import PropertyList

/// Build settings as a Tuist manifest writes them: a dictionary literal
/// (`["DEVELOPMENT_TEAM": "ABCDE12345"]`), `SettingsDictionary()` with Tuist's methods
/// (`.automaticCodeSigning(devTeam:)`, `.manualCodeSigning(...)`, `.merging(...)`), a constant
/// holding one. A helper method that names a signing setting, or one not in the files read,
/// makes the layer `opaque`: the signing settings it does not state are unknown, not unset.
struct TuistSettingsLayer {
    /// Setting -> its value (nil: written, but needs evaluation) and where it is written.
    var values: [String: (value: String?, place: String)] = [:]
    /// Why settings not listed may still be set by this layer.
    var opaque: String?
    /// The xcconfig file (absolute) the configuration is based on, with where it is named.
    var xcconfig: (path: String, place: String)?

    /// Tuist methods of `SettingsDictionary` that set no signing setting.
    static let harmless: Set<String> = [
        "currentProjectVersion", "marketingVersion", "bridgingHeader", "compilationConditions", "appIcon", "swiftVersion",
        "otherSwiftFlags", "swiftCompilationMode", "swiftOptimizationLevel", "debugInformationFormat", "bitcodeEnabled",
        "otherLinkerFlags", "swiftObjcBridgingHeaderPath", "swiftActiveCompilationConditions", "swiftOptimizeObjectLifetimes",
        "enableTestability", "applicationExtensionAPIOnly", "swiftDeploymentTarget",
    ]
}

/// Each configuration's layers, outermost first (project base, project configuration, target
/// base, target configuration).
struct TuistSettings {
    var configurations: [String] = ["Debug", "Release"]
    var layers: [String: [TuistSettingsLayer]] = [:]

    /// The value of `setting` in `configuration`: the innermost layer stating it wins; a layer
    /// inside it that is opaque or bases itself on an xcconfig leaves it unknown unless the
    /// xcconfig (read by `xcconfig`) states it.
    func value(_ setting: String, in configuration: String, xcconfig: (String, String) -> ManifestFact?) -> ManifestFact {
        for layer in (layers[configuration] ?? []).reversed() {
            if let v = layer.values[setting] {
                return v.value.map { .known($0, place: v.place) } ?? .unknown("\(setting) needs evaluation", place: v.place)
            }
            if let why = layer.opaque { return .unknown(why, place: "") }
            if let x = layer.xcconfig {
                if let f = xcconfig(x.path, setting) { return f }
            }
        }
        return .unset
    }
}

extension TuistReader {
    /// The layer a settings dictionary value gives.
    func layer(_ located: Located, bindings: [String: Located], depth: Int = 0) -> TuistSettingsLayer {
        let l = definitions.resolve(located, bindings: bindings)
        var layer = TuistSettingsLayer()
        guard depth < 16 else { layer.opaque = "settings nested too deeply"; return layer }
        switch l.value {
        case .dict(let pairs, _):
            for (k, v) in pairs {
                guard let key = definitions.resolve(Located(value: k, file: l.file), bindings: bindings).value.stringValue else {
                    layer.opaque = "a setting name that needs evaluation at \(l.file):\(k.line)"
                    continue
                }
                let value = definitions.resolve(Located(value: v, file: l.file), bindings: bindings)
                layer.values[key] = (settingString(value.value, bindings: bindings, file: value.file), "\(value.file):\(v.line)")
            }
        case .call(let method, let receiver, let args, let line):
            if let receiver {
                layer = self.layer(Located(value: receiver, file: l.file), bindings: bindings, depth: depth + 1)
            } else if method != "SettingsDictionary" {
                layer.opaque = "settings built by \(method) at \(l.file):\(line)"
                return layer
            }
            let call = l.value
            let place = "\(l.file):\(line)"
            func string(_ label: String) -> String? {
                call.arg(label).flatMap { definitions.resolve(Located(value: $0, file: l.file), bindings: bindings).value.stringValue }
            }
            switch method {
            case "SettingsDictionary": break
            case "automaticCodeSigning":
                layer.values["CODE_SIGN_STYLE"] = ("Automatic", place)
                layer.values["DEVELOPMENT_TEAM"] = (string("devTeam"), place)
            case "manualCodeSigning":
                layer.values["CODE_SIGN_STYLE"] = ("Manual", place)
                if call.arg("provisioningProfileSpecifier") != nil { layer.values["PROVISIONING_PROFILE_SPECIFIER"] = (string("provisioningProfileSpecifier"), place) }
            case "merging":
                if let other = args.first?.value {
                    let o = self.layer(Located(value: other, file: l.file), bindings: bindings, depth: depth + 1)
                    layer.values.merge(o.values) { _, new in new }
                    if o.opaque != nil { layer.opaque = o.opaque }
                }
            default:
                if TuistSettingsLayer.harmless.contains(method) { break }
                if let f = definitions.function(method), !f.namesSigningSettings { break }
                layer.opaque = "settings changed by \(method) at \(place)"
            }
        default:
            if case .unknown(let why, let line) = l.value { layer.opaque = "\(why) at \(l.file):\(line)" } else { layer.opaque = "settings that need evaluation at \(l.place)" }
        }
        return layer
    }

    /// A setting's value: a string, `.string("...")`, or `"$(inherited)"`-free text; nil when it needs evaluation.
    private func settingString(_ v: ManifestValue, bindings: [String: Located], file: String) -> String? {
        switch v {
        case .string(let s, _): return s
        case .call("string", nil, let args, _):
            return args.first.flatMap { definitions.resolve(Located(value: $0.value, file: file), bindings: bindings).value.stringValue }
        default: return nil
        }
    }

    /// `.settings(base:configurations:debug:release:)` (or `Settings.settings(...)`), over the
    /// layers given from outside (the project's, for a target).
    func settings(_ value: ManifestValue?, file: String, bindings: [String: Located], outer: TuistSettings?) -> TuistSettings {
        var result = outer ?? TuistSettings()
        guard let value else { return result }
        let l = definitions.resolve(Located(value: value, file: file), bindings: bindings)
        guard case .call(let name, _, _, _) = l.value, name == "settings" || name == "Settings" else {
            var opaque = TuistSettingsLayer()
            opaque.opaque = "settings that need evaluation at \(l.place)"
            for c in result.configurations { result.layers[c, default: []].append(opaque) }
            return result
        }
        let base = l.value.arg("base").map { layer(Located(value: $0, file: l.file), bindings: bindings) } ?? TuistSettingsLayer()
        var perConfiguration: [(String, TuistSettingsLayer)] = []
        if let debug = l.value.arg("debug") { perConfiguration.append(("Debug", layer(Located(value: debug, file: l.file), bindings: bindings))) }
        if let release = l.value.arg("release") { perConfiguration.append(("Release", layer(Located(value: release, file: l.file), bindings: bindings))) }
        if let list = l.value.arg("configurations") {
            let resolved = definitions.resolve(Located(value: list, file: l.file), bindings: bindings)
            if case .list(let items, _) = resolved.value {
                var names: [String] = []
                for item in items.prefix(64) {
                    let c = definitions.resolve(Located(value: item, file: resolved.file), bindings: bindings)
                    guard let (name, layer) = configuration(c, bindings: bindings) else { continue }
                    names.append(name)
                    perConfiguration.append((name, layer))
                }
                if outer == nil, !names.isEmpty { result.configurations = names }
            } else {
                var opaque = TuistSettingsLayer()
                opaque.opaque = "configurations that need evaluation at \(resolved.place)"
                for c in result.configurations { perConfiguration.append((c, opaque)) }
            }
        }
        for c in result.configurations {
            // An xcconfig is below the settings of its own level, as in Xcode: the base settings
            // and the configuration's settings are written into the configuration over it.
            for (name, layer) in perConfiguration where name == c && layer.xcconfig != nil {
                var x = TuistSettingsLayer()
                x.xcconfig = layer.xcconfig
                result.layers[c, default: []].append(x)
            }
            result.layers[c, default: []].append(base)
            for (name, var layer) in perConfiguration where name == c {
                layer.xcconfig = nil
                result.layers[c, default: []].append(layer)
            }
        }
        return result
    }

    /// `.debug(name: "Beta", settings: [...], xcconfig: "Config.xcconfig")`, `.release(...)`.
    private func configuration(_ c: Located, bindings: [String: Located]) -> (String, TuistSettingsLayer)? {
        guard case .call(let kind, _, _, _) = c.value, kind == "debug" || kind == "release" else { return nil }
        let nameValue = c.value.arg("name").map { definitions.resolve(Located(value: $0, file: c.file), bindings: bindings).value }
        var name = kind == "debug" ? "Debug" : "Release"
        switch nameValue {
        case .string(let s, _)?: name = s
        case .member(let m, _)?: name = m == "debug" ? "Debug" : m == "release" ? "Release" : m
        case .call("configuration", nil, let args, _)?: if let s = args.first?.value.stringValue { name = s }
        default: break
        }
        var layer = c.value.arg("settings").map { self.layer(Located(value: $0, file: c.file), bindings: bindings) } ?? TuistSettingsLayer()
        if let x = c.value.arg("xcconfig") {
            if let path = self.path(x, file: c.file, bindings: bindings) { layer.xcconfig = (path, "\(c.file):\(x.line)") }
            else { layer.opaque = "an xcconfig path that needs evaluation at \(c.file):\(x.line)" }
        }
        return (name, layer)
    }
}
