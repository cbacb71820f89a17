public import PropertyList

/// The fields of a provisioning profile that linting needs, read from its property list
/// (keychain-access-groups.md section 3):
///
/// > Top-level keys (tolerate unknown ones): `AppIDName` (string), `ApplicationIdentifierPrefix`
/// > (array of string), `CreationDate`, `ExpirationDate` (date), `Platform` (array: `iOS`, `OSX`,
/// > `xrOS`, `visionOS`, ...), `IsXcodeManaged` (bool), `DeveloperCertificates` (array of DER X.509
/// > data), `DER-Encoded-Profile` (data: a second CMS blob, the modern source of truth),
/// > `Entitlements` (dict: the allowlist), `Name`, `ProvisionedDevices` (array of UDIDs),
/// > `ProvisionsAllDevices` (bool), `TeamIdentifier` (array), `TeamName`, `TimeToLive` (integer
/// > days), `UUID` (compare case-insensitively), `Version` (1), `PPQCheck` (bool).
///
/// Missing keys are tolerated: the field is nil, empty or false. **A known key with the wrong
/// type is ignored** as if it were missing (it is not an error): `Name` as an integer gives
/// `name == nil`, `Entitlements` as an array gives empty `entitlements`, and non-string elements
/// of a string array (`TeamIdentifier`, `Platform`, ...) are skipped. Rules that care about such
/// oddities can look at `document`. Duplicate keys follow CoreFoundation: the last one wins.
public struct ProvisioningProfile: Sendable, Hashable {
    public var name: String?
    public var uuid: String?
    public var appIDName: String?
    public var teamName: String?
    public var teamIdentifiers: [String]
    public var applicationIdentifierPrefixes: [String]
    public var platforms: [String]
    public var creationDate: PlistDate?
    public var expirationDate: PlistDate?
    public var isXcodeManaged: Bool?
    public var provisionedDevices: [String]
    public var provisionsAllDevices: Bool
    /// The allowlist (empty if absent or not a dict).
    public var entitlements: PlistDictionary
    /// Where the `Entitlements` dict starts (the line of its `<dict>`) in the embedded plist;
    /// `.unknown` if there is none or the plist is binary.
    public var entitlementsLocation: SourceLocation
    /// Inferred with the keychain-access-groups.md section 3 heuristic (see `ProfileKind`).
    public var kind: ProfileKind
    public var envelope: ProfileEnvelope
    /// The whole decoded plist (root dict).
    public var document: PlistDocument

    public var deviceCount: Int { provisionedDevices.count }

    /// `Entitlements.application-identifier` (or `com.apple.application-identifier` for macOS),
    /// e.g. "ABCDE12345.com.example.*". On macOS the `com.apple.` key is preferred and the plain
    /// one used as a fallback; elsewhere the reverse.
    public var applicationIdentifier: String?
    /// `true` when the plist's Platform contains OSX / macOS (compared case-insensitively).
    public var isMacOS: Bool

    /// The top-level keys of a profile plist. A root dict with none of them is not a profile.
    public static let knownKeys: Set<String> = [
        "AppIDName", "ApplicationIdentifierPrefix", "CreationDate", "ExpirationDate", "Platform",
        "IsXcodeManaged", "DeveloperCertificates", "DER-Encoded-Profile", "Entitlements", "Name",
        "ProvisionedDevices", "ProvisionsAllDevices", "TeamIdentifier", "TeamName", "TimeToLive",
        "UUID", "Version", "PPQCheck",
    ]

    /// Reads the profile fields from a decoded property list.
    ///
    /// - Throws: `.notAProfile` when the root is not a dict, or the dict has none of
    ///   `knownKeys` (an entitlements file or some other plist named `.mobileprovision`).
    public init(document: PlistDocument, envelope: ProfileEnvelope = .plainPlist) throws(ProfileError) {
        guard let root = document.root.dict else {
            throw ProfileError(.notAProfile,
                "the property list's root is \(Self.article(document.root.value.typeName)), not a dict: not a provisioning profile",
                at: document.root.location)
        }
        guard root.keys.contains(where: { Self.knownKeys.contains($0) }) else {
            let shown = root.keys.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            throw ProfileError(.notAProfile,
                "the property list has none of the provisioning profile keys (UUID, Name, TeamIdentifier, Entitlements, ...)"
                    + (shown.isEmpty ? ": its root dict is empty" : "; its keys start with \(shown)"),
                at: document.root.location)
        }

        let entitlementsNode = root["Entitlements"]
        let entitlements = entitlementsNode?.dict
        let platforms = Self.strings(root["Platform"])
        let isMacOS = platforms.contains { p in
            let lower = p.lowercased()
            return lower == "osx" || lower == "macos"
        }
        let devices = root["ProvisionedDevices"]
        let provisionsAllDevices = root["ProvisionsAllDevices"]?.bool ?? false

        self.init(
            name: root["Name"]?.string,
            uuid: root["UUID"]?.string,
            appIDName: root["AppIDName"]?.string,
            teamName: root["TeamName"]?.string,
            teamIdentifiers: Self.strings(root["TeamIdentifier"]),
            applicationIdentifierPrefixes: Self.strings(root["ApplicationIdentifierPrefix"]),
            platforms: platforms,
            creationDate: root["CreationDate"]?.date,
            expirationDate: root["ExpirationDate"]?.date,
            isXcodeManaged: root["IsXcodeManaged"]?.bool,
            provisionedDevices: Self.strings(devices),
            provisionsAllDevices: provisionsAllDevices,
            entitlements: entitlements ?? PlistDictionary(),
            entitlementsLocation: entitlements != nil ? entitlementsNode!.location : .unknown,
            kind: ProfileKind.infer(
                hasDeviceList: devices?.array != nil,
                provisionsAllDevices: provisionsAllDevices,
                getTaskAllow: entitlements.flatMap { Self.getTaskAllow($0, isMacOS: isMacOS) },
                isMacOS: isMacOS),
            envelope: envelope,
            document: document,
            isMacOS: isMacOS)
    }

    /// Builds a profile from its parts, for tests and for callers that assemble one by hand.
    /// `kind`, `applicationIdentifier` and `isMacOS` are derived from the other fields when nil
    /// (`kind` treats a non-empty `provisionedDevices` as the device list).
    public init(
        name: String? = nil,
        uuid: String? = nil,
        appIDName: String? = nil,
        teamName: String? = nil,
        teamIdentifiers: [String] = [],
        applicationIdentifierPrefixes: [String] = [],
        platforms: [String] = [],
        creationDate: PlistDate? = nil,
        expirationDate: PlistDate? = nil,
        isXcodeManaged: Bool? = nil,
        provisionedDevices: [String] = [],
        provisionsAllDevices: Bool = false,
        entitlements: PlistDictionary = PlistDictionary(),
        entitlementsLocation: SourceLocation = .unknown,
        kind: ProfileKind? = nil,
        envelope: ProfileEnvelope = .plainPlist,
        document: PlistDocument? = nil,
        applicationIdentifier: String? = nil,
        isMacOS: Bool? = nil
    ) {
        let macOS = isMacOS ?? platforms.contains { ["osx", "macos"].contains($0.lowercased()) }
        self.name = name
        self.uuid = uuid
        self.appIDName = appIDName
        self.teamName = teamName
        self.teamIdentifiers = teamIdentifiers
        self.applicationIdentifierPrefixes = applicationIdentifierPrefixes
        self.platforms = platforms
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.isXcodeManaged = isXcodeManaged
        self.provisionedDevices = provisionedDevices
        self.provisionsAllDevices = provisionsAllDevices
        self.entitlements = entitlements
        self.entitlementsLocation = entitlementsLocation
        self.kind = kind ?? ProfileKind.infer(
            hasDeviceList: !provisionedDevices.isEmpty,
            provisionsAllDevices: provisionsAllDevices,
            getTaskAllow: Self.getTaskAllow(entitlements, isMacOS: macOS),
            isMacOS: macOS)
        self.envelope = envelope
        self.document = document ?? PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml)
        self.applicationIdentifier = applicationIdentifier ?? Self.applicationIdentifier(entitlements, isMacOS: macOS)
        self.isMacOS = macOS
    }

    // MARK: - Helpers

    /// The string elements of an array node; anything else is skipped.
    static func strings(_ node: PlistNode?) -> [String] {
        node?.array?.compactMap(\.string) ?? []
    }

    static func applicationIdentifier(_ entitlements: PlistDictionary, isMacOS: Bool) -> String? {
        let plain = entitlements["application-identifier"]?.string
        let apple = entitlements["com.apple.application-identifier"]?.string
        return isMacOS ? apple ?? plain : plain ?? apple
    }

    static func getTaskAllow(_ entitlements: PlistDictionary, isMacOS: Bool) -> Bool? {
        let plain = entitlements["get-task-allow"]?.bool
        let apple = entitlements["com.apple.security.get-task-allow"]?.bool
        return isMacOS ? apple ?? plain : plain ?? apple
    }

    static func article(_ typeName: String) -> String {
        switch typeName {
        case "array", "integer": return "an \(typeName)"
        case "true", "false": return "<\(typeName)/>"
        default: return "a \(typeName)"
        }
    }
}
