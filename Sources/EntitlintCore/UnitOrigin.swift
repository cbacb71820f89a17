/// Where a signing unit comes from when a project defines it (an Xcode project or an XcodeGen spec):
/// one target in one build configuration, with what the project says about it. Loose entitlements
/// files have no origin.
public struct UnitOrigin: Sendable, Hashable {
    /// What the target builds, from its product type.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case app
        case appExtension = "app-extension"
        case appClip = "app-clip"
        case watchApp = "watch-app"
        /// Frameworks, tools, test bundles: units only when they have entitlements.
        case other

        /// Product types (`com.apple.product-type.*`) as Xcode writes them in `project.pbxproj`.
        public init(productType: String) {
            let t = productType.hasPrefix("com.apple.product-type.") ? String(productType.dropFirst("com.apple.product-type.".count)) : productType
            switch t {
            case "application", "application.messages":
                self = .app
            case "application.on-demand-install-capable":
                self = .appClip
            case "application.watchapp", "application.watchapp2", "application.watchapp2-container":
                self = .watchApp
            default:
                if t.hasPrefix("app-extension") || t.hasPrefix("extensionkit-extension") || t.hasPrefix("watchkit")
                    || t == "tv-app-extension" || t == "xpc-service" || t == "system-extension" || t == "driver-extension" {
                    self = .appExtension
                } else {
                    self = .other
                }
            }
        }

        /// Whether targets of this kind are signed as something a user installs or an app embeds
        /// (units even without an entitlements file).
        public var isSignedProduct: Bool { self != .other }

        /// Product types that are never code signed, so never carry entitlements: a static
        /// library is an archive of object files linked into something else. A
        /// `CODE_SIGN_ENTITLEMENTS` such a target inherits from the project or an xcconfig is
        /// applied to nothing.
        public static func isNeverSigned(productType: String) -> Bool {
            productType == "com.apple.product-type.library.static" || productType == "com.apple.product-type.objfile"
        }
    }

    /// The project file (`App.xcodeproj/project.pbxproj`, `project.yml`), as shown in findings.
    public var projectFile: String
    /// The project's name (`App` for `App.xcodeproj`).
    public var projectName: String
    public var target: String
    public var configuration: String
    /// `com.apple.product-type.application`, or XcodeGen's `application`.
    public var productType: String?
    public var kind: Kind
    /// The SDK the unit is signed for (`iphoneos`, `macosx`, `watchos`, ...), when known.
    public var sdk: String?
    /// `SUPPORTS_MACCATALYST = YES`: the target also builds for Mac Catalyst.
    public var isMacCatalyst: Bool
    /// The app target that embeds this one (extensions, watch apps, App Clips), and its bundle ID in
    /// the same configuration.
    public var hostTarget: String?
    public var hostBundleID: String?
    /// `CODE_SIGN_STYLE`: `Automatic` or `Manual`.
    public var signingStyle: String?
    /// `PROVISIONING_PROFILE_SPECIFIER` (a profile name, possibly `TEAMID/Name`) and `PROVISIONING_PROFILE` (a UUID).
    public var profileSpecifier: String?
    public var profileUUID: String?
    /// False when the target names no entitlements file: its entitlements are empty, and findings
    /// about it point into the project.
    public var hasEntitlementsFile: Bool
    /// Where the settings that matter came from: `PRODUCT_BUNDLE_IDENTIFIER` -> `Config/App.xcconfig:3`.
    public var settingSources: [String: String]
    /// Build settings the entitlements use (directly or through other settings) that are empty
    /// in this configuration, each with where it is, or could be, set: a setting no level
    /// defines is the empty string, as in Xcode (keychain-access-groups.md section 2.1).
    public var emptySettings: [String: String] = [:]
    /// Build settings the entitlements use that no committed file sets while a file this
    /// configuration reads is missing (a per-developer or generated xcconfig): name -> that file,
    /// as shown. Unknown, not empty: rules leave their references alone.
    public var unknownSettings: [String: String] = [:]
    /// The signing settings (`DEVELOPMENT_TEAM`, `PRODUCT_BUNDLE_IDENTIFIER`) that no committed file
    /// sets while a file this configuration reads is missing: name -> that file, as shown. The
    /// fact they give is unknown, not absent (`FactResolver.offerUnknown`).
    public var unknownKeySettings: [String: String] = [:]
    /// The configuration signs "to run locally": `CODE_SIGN_IDENTITY` is `-`, and no team and no
    /// profile is set (none unknown either), so the build gets no provisioning profile. False
    /// whenever a setting it rests on cannot be known.
    public var signsToRunLocally = false
    /// Where `CODE_SIGN_IDENTITY` is set, as shown (`App.xcodeproj/project.pbxproj:212`).
    public var signingIdentitySource: String?
    /// Why the unit has no profile, for the report (`automatic signing; no matching profile on disk`).
    public var profileNote: String?
    /// Absolute paths of files the target's synchronised folders exclude from it
    /// (`membershipExceptions`): a profile among them is not the target's.
    public var excludedFiles: [String] = []
    /// What the target compiles (UnitSources.swift), when the project says.
    public var sources: UnitSources?
    /// Its device families, minimum OS and workspace as the project declares them, for the report.
    public var declared = DeclaredFacts()

    public init(projectFile: String, projectName: String, target: String, configuration: String, productType: String? = nil,
                kind: Kind, sdk: String? = nil, isMacCatalyst: Bool = false, hostTarget: String? = nil, hostBundleID: String? = nil,
                signingStyle: String? = nil, profileSpecifier: String? = nil, profileUUID: String? = nil,
                hasEntitlementsFile: Bool = true, settingSources: [String: String] = [:], profileNote: String? = nil) {
        self.projectFile = projectFile
        self.projectName = projectName
        self.target = target
        self.configuration = configuration
        self.productType = productType
        self.kind = kind
        self.sdk = sdk
        self.isMacCatalyst = isMacCatalyst
        self.hostTarget = hostTarget
        self.hostBundleID = hostBundleID
        self.signingStyle = signingStyle
        self.profileSpecifier = profileSpecifier
        self.profileUUID = profileUUID
        self.hasEntitlementsFile = hasEntitlementsFile
        self.settingSources = settingSources
        self.profileNote = profileNote
    }

    /// Whether settings sign to run locally: `identity` (`CODE_SIGN_IDENTITY` as resolved) is
    /// `-`, and `team` and every profile setting are unset or empty. Callers pass nil for unset
    /// values and do not call this when one of them cannot be known.
    public static func signsToRunLocally(identity: String?, team: String?, profiles: [String?]) -> Bool {
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" }
        func trimmed(_ s: String) -> String { String(String(s.drop(while: blank).reversed()).drop(while: blank).reversed()) }
        func isEmpty(_ s: String?) -> Bool { s.map { trimmed($0).isEmpty } ?? true }
        guard identity.map(trimmed) == "-", isEmpty(team) else { return false }
        return profiles.allSatisfy(isEmpty)
    }

    /// Identifies the target across its configurations: `App.xcodeproj/project.pbxproj#AppOne`.
    public var targetKey: String { projectFile + "#" + target }
}

extension SigningUnit {
    /// The target a unit belongs to, for counting who claims a group: the project target, or for a
    /// loose entitlements file the unit itself.
    public var targetKey: String { origin?.targetKey ?? "unit:" + name }
}
