import EntitlintCore

/// What a Tuist target declares about where it runs, kept for the report (no rule reads it):
/// its destinations (the device families) and its deployment target (the minimum OS), as
/// written, each with its line; a form that needs evaluation is unknown, said with its line.
extension TuistReader {
    /// The destination names of `destinations:` (or the older `platform:`) as written: a member
    /// (`.iOS`), a list of members, a constant naming one, `Set(...)` / `Destinations(...)` of
    /// one; with where the set is written. Nil when it needs evaluation.
    func destinations(_ v: ManifestValue?, file: String, bindings: [String: Located], depth: Int = 0) -> (names: [String], place: String)? {
        // `let d = Set(d)` resolves to itself: the depth bounds the unwrapping.
        guard let v, depth < 8 else { return nil }
        let r = definitions.resolve(Located(value: v, file: file), bindings: bindings)
        switch r.value {
        case .member(let m, _): return ([m], r.place)
        case .name(let n, _): return ([String(n.split(separator: ".").last ?? "")], r.place)
        case .list(let items, _): return (items.compactMap { if case .member(let m, _) = $0 { return m } else { return nil } }, r.place)
        case .call(_, _, let args, _):
            // `Set<Destination>([...])`, `Destinations(...)`.
            if let first = args.first?.value { return destinations(first, file: r.file, bindings: bindings, depth: depth + 1) }
            return nil
        default: return nil
        }
    }

    /// Tuist's destination sets, as its `Destinations` defines them (`.iOS` is iPhone, iPad and
    /// Mac "Designed for iPad"), and its single destinations.
    static let destinationSets: [String: [String]] = [
        "iOS": ["iPhone", "iPad", "macWithiPadDesign"], "macOS": ["mac"], "watchOS": ["appleWatch"],
        "tvOS": ["appleTv"], "visionOS": ["appleVision"],
    ]
    static let singleDestinations: Set<String> = ["iPhone", "iPad", "mac", "macWithiPadDesign", "macCatalyst", "appleWatch",
                                                  "appleTv", "appleVision", "appleVisionWithiPadDesign"]

    /// The device families of a target call: its `destinations:` (sets expanded), else the
    /// `devices:` of the older `deploymentTarget: .iOS(targetVersion:devices:)`; nil when neither is written.
    func declaredFamilies(_ target: ManifestValue, file: String, bindings: [String: Located]) -> DeclaredFacts.Item? {
        if let d = target.arg("destinations") {
            let place = definitions.resolve(Located(value: d, file: file), bindings: bindings).place
            guard let (names, at) = destinations(d, file: file, bindings: bindings), !names.isEmpty else {
                return .init(value: nil, source: "destinations unknown: a value that needs evaluation (\(place))")
            }
            var out: [String] = []
            for n in names.prefix(16) {
                guard let expanded = Self.destinationSets[n] ?? (Self.singleDestinations.contains(n) ? [n] : nil) else {
                    return .init(value: nil, source: "destinations unknown: .\(n) is not a destination Entitlint knows (\(at))")
                }
                for e in expanded where !out.contains(e) { out.append(e) }
            }
            return .init(value: out.joined(separator: ", "), source: "destinations at \(at)")
        }
        guard let old = target.arg("deploymentTarget") else { return nil }
        let r = definitions.resolve(Located(value: old, file: file), bindings: bindings)
        guard let devices = r.value.arg("devices") else { return nil }
        guard let (names, at) = destinations(devices, file: r.file, bindings: bindings), !names.isEmpty else {
            return .init(value: nil, source: "deploymentTarget devices unknown: a value that needs evaluation (\(r.place))")
        }
        return .init(value: names.prefix(16).joined(separator: ", "), source: "deploymentTarget devices at \(at)")
    }

    /// The minimum OS version of a target call for one SDK: `deploymentTargets: .iOS("15.0")`,
    /// `.multiplatform(iOS: "15.0", macOS: "12.0")` (the SDK's; Mac Catalyst takes the iOS one, as
    /// Xcode derives it), the older `deploymentTarget: .iOS(targetVersion: "15.0")`. Nil when
    /// none is written for the SDK; unknown when it needs evaluation.
    func declaredMinimumOS(_ target: ManifestValue, sdk: String?, catalyst: Bool, file: String, bindings: [String: Located]) -> DeclaredFacts.Item? {
        let label = target.arg("deploymentTargets") != nil ? "deploymentTargets" : "deploymentTarget"
        guard let written = target.arg(label) else { return nil }
        let platforms = ["iphoneos": "iOS", "macosx": "macOS", "watchos": "watchOS", "appletvos": "tvOS", "xros": "visionOS"]
        let platform = catalyst ? "iOS" : sdk.flatMap { platforms[$0] }
        let r = definitions.resolve(Located(value: written, file: file), bindings: bindings)
        func unknown(_ at: String) -> DeclaredFacts.Item { .init(value: nil, source: "\(label) unknown: a value that needs evaluation (\(at))") }
        guard case .call(let callee, _, let args, _) = r.value else { return unknown(r.place) }
        let version: ManifestValue
        if callee == "multiplatform" {
            guard let platform, let v = r.value.arg(platform) else { return nil }
            version = v
        } else if Set(platforms.values).contains(callee) {
            guard callee == platform, let v = r.value.arg("targetVersion") ?? args.first?.value else { return nil }
            version = v
        } else {
            return unknown(r.place)
        }
        let v = definitions.resolve(Located(value: version, file: r.file), bindings: bindings)
        guard let s = v.value.stringValue else { return unknown(v.place) }
        return .init(value: s, source: "\(label) at \(v.place)")
    }
}
