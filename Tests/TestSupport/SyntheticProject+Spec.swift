/// One target of an XcodeGen spec written by `SyntheticProject.spec`: its keys in the order
/// XcodeGen's documentation shows them (type, platform, settings, entitlements, dependencies),
/// or with the entitlements before the settings when `entitlementsFirst` says so.
public struct SpecTarget: Sendable {
    public var name: String
    public var type: String
    public var platform: String
    /// `PRODUCT_BUNDLE_IDENTIFIER` in the target's base settings.
    public var bundleID: String?
    /// Lines below `settings:` after the base settings (`configs:` and what it holds), as written;
    /// no `settings:` key when there is neither a bundle ID nor a line.
    public var settings: [String]
    /// `entitlements: path:`; no `entitlements:` key when nil.
    public var entitlements: String?
    /// Lines below `properties:` of the entitlements, as written; no `properties:` key when empty.
    public var properties: [String]
    /// The targets named under `dependencies:`.
    public var dependencies: [String]
    /// Lines at the end of the target, as written (keys this type does not spell).
    public var more: [String]
    public var entitlementsFirst: Bool

    public init(_ name: String, type: String = "application", platform: String = "iOS", bundleID: String? = nil, settings: [String] = [],
                entitlements: String? = nil, properties: [String] = [], dependencies: [String] = [],
                more: [String] = [], entitlementsFirst: Bool = false) {
        self.name = name
        self.type = type
        self.platform = platform
        self.bundleID = bundleID
        self.settings = settings
        self.entitlements = entitlements
        self.properties = properties
        self.dependencies = dependencies
        self.more = more
        self.entitlementsFirst = entitlementsFirst
    }

    /// The target's lines, indented as a key of `targets:`.
    var lines: [String] {
        var settingsLines = settings
        if let bundleID { settingsLines.insert(contentsOf: ["  base:", "    PRODUCT_BUNDLE_IDENTIFIER: \(bundleID)"], at: 0) }
        if !settingsLines.isEmpty { settingsLines.insert("settings:", at: 0) }
        var entitlementsLines: [String] = []
        if let entitlements {
            entitlementsLines = ["entitlements:", "  path: \(entitlements)"]
            if !properties.isEmpty { entitlementsLines += ["  properties:"] + properties.map { "    " + $0 } }
        }
        var body = ["type: \(type)", "platform: \(platform)"]
        body += entitlementsFirst ? entitlementsLines + settingsLines : settingsLines + entitlementsLines
        if !dependencies.isEmpty { body += ["dependencies:"] + dependencies.map { "  - target: \($0)" } }
        body += more
        return ["  \(name):"] + body.map { "    " + $0 }
    }
}

extension SyntheticProject {
    /// The text of an XcodeGen spec (`project.yml`): `name:`, the lines of `head` as written (an
    /// include, options, a comment), the team in the base settings when `team` is not nil, then
    /// `targets:` with each target when there are any. Lines end with a newline but the last.
    public static func spec(_ name: String, head: [String] = [], team: String? = "ABCDE12345", targets: [SpecTarget]) -> String {
        var lines = ["name: \(name)"] + head
        if let team { lines += ["settings:", "  base:", "    DEVELOPMENT_TEAM: \(team)"] }
        if !targets.isEmpty { lines += ["targets:"] + targets.flatMap(\.lines) }
        return lines.joined(separator: "\n")
    }
}
