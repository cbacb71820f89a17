import EntitlintCore
import EntitlintWorkspace

extension TuistReader {
    /// Tuist's `Product` cases -> the unit kind and Xcode's product type.
    static func product(_ name: String) -> (UnitOrigin.Kind, String) {
        let type: String
        switch name {
        case "app": type = "application"
        case "appExtension": type = "app-extension"
        case "appClip": type = "application.on-demand-install-capable"
        case "watch2App": type = "application.watchapp2"
        case "watch2AppContainer": type = "application.watchapp2-container"
        case "watch2Extension": type = "watchkit2-extension"
        case "messagesExtension": type = "app-extension.messages"
        case "stickerPackExtension": type = "app-extension.messages-sticker-pack"
        case "tvTopShelfExtension": type = "tv-app-extension"
        case "extensionKitExtension": type = "extensionkit-extension"
        case "systemExtension": type = "system-extension"
        case "xpc": type = "xpc-service"
        case "commandLineTool": type = "tool"
        case "framework": type = "framework"
        case "staticFramework": type = "framework.static"
        case "staticLibrary": type = "library.static"
        case "dynamicLibrary": type = "library.dynamic"
        case "bundle": type = "bundle"
        case "unitTests": type = "bundle.unit-test"
        case "uiTests": type = "bundle.ui-testing"
        case "macro": type = "tool"
        default: type = name
        }
        let full = "com.apple.product-type." + type
        return (UnitOrigin.Kind(productType: full), full)
    }

    /// The SDK a destination set signs for: `.iOS`, `[.iPhone, .iPad]`, `.macOS`, `[.mac]`,
    /// `.watchOS`, ...; and whether it adds Mac Catalyst. Nil when it needs evaluation or mixes SDKs.
    func sdk(_ v: ManifestValue?, file: String, bindings: [String: Located]) -> (sdk: String?, catalyst: Bool)? {
        guard let members = destinations(v, file: file, bindings: bindings)?.names else { return nil }
        var sdks = Set<String>()
        var catalyst = false
        for m in members {
            switch m {
            case "iOS", "iPhone", "iPad", "iphoneos": sdks.insert("iphoneos")
            case "macOS", "mac", "macosx": sdks.insert("macosx")
            case "macCatalyst": catalyst = true
            case "macWithiPadDesign": break
            case "watchOS", "appleWatch": sdks.insert("watchos")
            case "tvOS", "appleTv": sdks.insert("appletvos")
            case "visionOS", "appleVision", "appleVisionWithiPadDesign": sdks.insert("xros")
            default: return nil
            }
        }
        guard sdks.count == 1 || (sdks.isEmpty && catalyst) else { return nil }
        return (sdks.first, catalyst)
    }

    /// The targets one `.target(...)` call gives, one per configuration.
    mutating func read(_ call: Located, bindings: [String: Located], projectName: String, projectSettings: TuistSettings) -> [ManifestTarget] {
        let v = call.value
        let file = call.file
        func resolved(_ label: String) -> Located? { v.arg(label).map { definitions.resolve(Located(value: $0, file: file), bindings: bindings) } }
        guard let name = resolved("name")?.value.stringValue else {
            unread.add(file: file, line: v.line, valueAt: resolved("name")?.place ?? call.place)
            return []
        }
        var kind = UnitOrigin.Kind.other
        var productType: String?
        if case .member(let p, _)? = resolved("product")?.value { (kind, productType) = Self.product(p) }
        let platform = sdk(v.arg("destinations") ?? v.arg("platform"), file: file, bindings: bindings)
        let families = declaredFamilies(v, file: file, bindings: bindings)
        let bundle = string(v.arg("bundleId"), file: file, bindings: bindings)
        let (entitlementsArg, written) = entitlements(v.arg("entitlements"), file: file, bindings: bindings)
        var embeds: [String] = []
        if let deps = resolved("dependencies"), case .list(let items, _) = deps.value {
            for d in items.prefix(1024) {
                if let key = dependency(Located(value: d, file: deps.file), bindings: bindings) { embeds.append(key) }
            }
        }
        let targetSettings = settings(v.arg("settings"), file: file, bindings: bindings, outer: projectSettings)
        let line = v.line
        // Each SDK the destinations sign for; Mac Catalyst is a variant of its own, as in Xcode.
        var variants: [(sdk: String?, catalyst: Bool)] = []
        if platform?.sdk != nil || platform == nil { variants.append((platform?.sdk, false)) }
        if platform?.catalyst == true { variants.append(("macosx", true)) }
        return targetSettings.configurations.flatMap { configuration in variants.map { variant in
            func setting(_ s: String) -> ManifestFact {
                targetSettings.value(s, in: configuration) { path, setting in xcconfigValue(path, setting) }
            }
            var t = ManifestTarget(name: name, place: call.place, line: line, projectFile: manifest, projectName: projectName,
                                   configuration: configuration, kind: kind, productType: productType, sdk: variant.sdk,
                                   key: manifest + "#" + name, family: family)
            t.isMacCatalyst = variant.catalyst
            t.declared.deviceFamilies = families
            t.declared.minimumOS = declaredMinimumOS(v, sdk: variant.sdk, catalyst: variant.catalyst, file: file, bindings: bindings)
            if variant.catalyst { t.variantLabel = "Mac Catalyst" }
            t.bundleID = bundle
            if case .unset = bundle { t.bundleID = setting("PRODUCT_BUNDLE_IDENTIFIER") }
            t.team = setting("DEVELOPMENT_TEAM")
            t.signingStyle = setting("CODE_SIGN_STYLE")
            t.profileSpecifier = setting("PROVISIONING_PROFILE_SPECIFIER")
            t.entitlements = entitlementsArg
            t.writtenEntitlements = written
            // `CODE_SIGN_ENTITLEMENTS` in the settings is what Xcode signs with.
            switch setting("CODE_SIGN_ENTITLEMENTS") {
            case .known(let p, let place):
                t.writtenEntitlements = nil
                if p.isEmpty { t.entitlements = .unset; break }
                if let abs = path(.string(p, line: line), file: file, bindings: [:]) { t.entitlements = .known(abs, place: place) }
                else { t.entitlements = .unknown("CODE_SIGN_ENTITLEMENTS \(p) needs build settings", place: place) }
            case .unknown(let why, let place):
                // Settings a helper builds may set it; for a framework or a test bundle that is
                // not assumed (they are units only with entitlements), unless the manifest writes it.
                if case .unset = entitlementsArg, written == nil, kind.isSignedProduct || !place.isEmpty {
                    t.entitlements = .unknown(why, place: place.isEmpty ? call.place : place)
                }
            case .unset: break
            }
            t.embeds = embeds
            return t
        } }
    }

    /// The key of the target a dependency names: `.target(name:)` in this project,
    /// `.project(target:path:)` in the `Project.swift` of `path` (from the manifest's folder, or
    /// `.relativeToRoot`), inside the project root only; also as `TargetDependency.target(...)`.
    func dependency(_ d: Located, bindings: [String: Located]) -> String? {
        let r = definitions.resolve(d, bindings: bindings)
        guard case .call(let callee, let receiver, _, _) = r.value else { return nil }
        if let receiver { guard case .name("TargetDependency", _) = receiver else { return nil } }
        func string(_ label: String) -> String? {
            r.value.arg(label).flatMap { definitions.resolve(Located(value: $0, file: r.file), bindings: bindings).value.stringValue }
        }
        switch callee {
        case "target":
            return string("name").map { manifest + "#" + $0 }
        case "project":
            guard let target = string("target"), let p = r.value.arg("path"), let folder = path(p, file: r.file, bindings: bindings) else { return nil }
            let other = ProjectFiles.join(folder, "Project.swift")
            guard !files.isOutside(other) else { return nil }
            return files.shown(other) + "#" + target
        default: return nil
        }
    }

    /// A setting as an xcconfig (absolute path) states it: its last assignment without
    /// conditions; unknown when an include is missing or the value uses other settings.
    func xcconfigValue(_ path: String, _ setting: String) -> ManifestFact? {
        let assignments = xcconfigs.load(path, referencedFrom: (manifest, .unknown))
        var found: ManifestFact?
        for a in assignments {
            if a.hole != nil { found = .unknown("\(a.hole!)", place: a.place); continue }
            guard a.name == setting, a.conditions.isEmpty else { continue }
            let value = a.value.trimmingSpaces
            found = value.contains("$(") || value.contains("${") ? .unknown("\(setting) = \(value) needs build settings", place: a.place) : .known(value, place: a.place)
        }
        return found
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
