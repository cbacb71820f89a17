import EntitlintCore

/// Where a unit's project names its entitlements file and its profile, as the access report shows it.
enum UnitProvenance {
    /// The settings that name a unit's profile, most specific first: Xcode's specifier and UUID,
    /// rules_apple's `provisioning_profile` attribute.
    static let profileSettings = ["PROVISIONING_PROFILE_SPECIFIER", "PROVISIONING_PROFILE", "provisioning_profile"]

    /// Where the unit's entitlements file is named (`CODE_SIGN_ENTITLEMENTS at
    /// App.xcodeproj/project.pbxproj:212`, a manifest's line), and where a setting names its
    /// profile (`PROVISIONING_PROFILE_SPECIFIER at Config/App.xcconfig:4`, `provisioning_profile
    /// app/App.mobileprovision (app/BUILD:9)`); nil when the project says nothing (a loose file, a
    /// target naming no entitlements file, a profile found by its bundle ID only).
    static func of(_ o: UnitOrigin?) -> (entitlements: String?, profile: String?) {
        guard let o else { return (nil, nil) }
        func said(_ setting: String) -> String? {
            guard let place = o.settingSources[setting] else { return nil }
            // A manifest's unknown fact says why (`unknown: ...`); rules_apple's attribute names the file and its line.
            return place.hasPrefix("unknown") || setting == "provisioning_profile" ? "\(setting) \(place)" : "\(setting) at \(place)"
        }
        let entitlements = o.hasEntitlementsFile ? said("CODE_SIGN_ENTITLEMENTS") : nil
        return (entitlements, profileSettings.lazy.compactMap(said).first)
    }
}

/// What the project declares about where a report's unit runs, and the workspace listing its
/// project (`UnitOrigin.declared`), for the reader: no rule reads them. Each fact has its source
/// (`families at app/BUILD:12`); `value` is left out when it needs evaluation.
public struct AccessReportDeclared: Sendable, Codable, Hashable {
    public struct Item: Sendable, Codable, Hashable {
        public var value: String?
        public var source: String
    }

    public var deviceFamilies: Item?
    public var minimumOS: Item?
    public var workspace: Item?

    /// Label and fact, in the order the text and HTML reports show them.
    var shown: [(label: String, item: Item)] {
        [("devices", deviceFamilies), ("minimum OS", minimumOS), ("workspace", workspace)].compactMap { l, i in i.map { (l, $0) } }
    }

    func escaped() -> AccessReportDeclared {
        func e(_ i: Item?) -> Item? { i.map { Item(value: $0.value.map(OutputText.escape), source: OutputText.escape($0.source)) } }
        return AccessReportDeclared(deviceFamilies: e(deviceFamilies), minimumOS: e(minimumOS), workspace: e(workspace))
    }
}

extension UnitProvenance {
    /// The unit's declared facts, nil when the project declares none.
    static func declared(_ o: UnitOrigin?) -> AccessReportDeclared? {
        guard let d = o?.declared, !d.isEmpty else { return nil }
        func item(_ i: DeclaredFacts.Item?) -> AccessReportDeclared.Item? { i.map { .init(value: $0.value, source: $0.source) } }
        return AccessReportDeclared(deviceFamilies: item(d.deviceFamilies), minimumOS: item(d.minimumOS), workspace: item(d.workspace))
    }
}
