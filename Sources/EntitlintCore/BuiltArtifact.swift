public import PropertyList
public import Provisioning

/// What a signing unit read from a built product (a Mach-O binary inside an `.app`, `.ipa` or
/// `.xcarchive`, or a binary named on the command line) knows beyond its entitlements: where the
/// entitlements were signed, the DER copy of slot 7, the bundle around it. Nil for a unit formed
/// from a source entitlements file.
public struct BuiltArtifactFacts: Sendable, Hashable {
    /// Where the unit's entitlements were read (keychain-access-groups.md section 7).
    public enum EntitlementsSource: String, Sendable, Hashable, Codable {
        /// Slot 5 of the code signature: the XML entitlements blob `0xfade7171`.
        case codeSignatureXML = "code signature (XML, slot 5)"
        /// Only slot 7 was present: the DER entitlements blob `0xfade7172`, decoded.
        case codeSignatureDER = "code signature (DER, slot 7)"
        /// A simulator build's `__TEXT,__entitlements` section.
        case simulatorSection = "__TEXT,__entitlements section"
        /// The binary has no entitlements at all (unsigned, or signed without any).
        case none = "none"
    }

    /// What kind of bundle holds the binary.
    public enum BundleKind: String, Sendable, Hashable, Codable {
        case app, appExtension = "app extension", appClip = "App Clip", watchApp = "watch app",
             extensionKit = "extension", standaloneBinary = "binary"
    }

    /// The bundle folder as shown (`App.ipa!Payload/App.app`), or the binary for a standalone one.
    public var bundlePath: String
    public var bundleKind: BundleKind
    /// `CFBundleIdentifier` of the bundle's `Info.plist`, when read.
    public var infoPlistBundleID: String?
    public var entitlementsSource: EntitlementsSource
    /// The architectures of the binary's slices, in file order (`arm64`, `x86_64`, ...).
    public var architectures: [String]
    /// Whether the binary has a code signature (`LC_CODE_SIGNATURE`).
    public var isSigned: Bool
    /// Slot 7 (DER entitlements) decoded, when the signature has it.
    public var derEntitlements: PlistNode?
    /// Why slot 7 could not be decoded, when it could not.
    public var derEntitlementsError: String?
    /// Whether slot 5 (XML) is present; with `derEntitlements` this says whether both can be compared.
    public var hasXMLEntitlements: Bool
    /// The bundle has an embedded profile (`embedded.mobileprovision`, or
    /// `Contents/embedded.provisionprofile` on macOS), even one that could not be decoded.
    public var hasEmbeddedProfile: Bool
    /// Other slices whose signed entitlements differ from the first one's: architecture and why.
    public var sliceDisagreements: [String]
    /// The certificate that made the code signature: the signer's in the CMS signature (slot
    /// `0x10000`). Nil when the binary is unsigned, signed ad hoc (no CMS, or an empty one), or
    /// its CMS cannot be read (`signatureError`).
    public var signingCertificate: CertificateFact? = nil
    /// Why the CMS signature (slot `0x10000`) could not be read, when it could not.
    public var signatureError: String? = nil
    /// For a bundle in an iPhone app's `Watch/` folder (the watch app and the bundles nested in
    /// it): the iPhone app's bundle as shown.
    public var embeddingPhoneApp: String? = nil
    /// The concrete keychain groups the embedding iPhone app is signed with, by value: true for
    /// its App ID (`application-identifier`), false for an element of `keychain-access-groups`.
    public var embeddingPhoneAppGroups: [String: Bool] = [:]
    /// For a bundle in a watch app: whether some file of the watch app's bundle (its executable,
    /// extensions and frameworks) mentions synchronizable items (`kSecAttrSynchronizable`, a
    /// wrapper's `synchronizable`); nil when not every file of it could be read within bounds.
    public var watchMentionsSynchronizable: Bool? = nil

    /// Signed, but with no certificate: `codesign -s -`, or a linker's signature.
    public var isAdHocSigned: Bool { isSigned && signingCertificate == nil && signatureError == nil }
    /// Signed with a distribution certificate (`CertificateRole`): a release build.
    public var isSignedForDistribution: Bool { signingCertificate?.value.role == .distribution }

    public init(bundlePath: String, bundleKind: BundleKind, infoPlistBundleID: String? = nil,
                entitlementsSource: EntitlementsSource, architectures: [String] = [], isSigned: Bool = true,
                derEntitlements: PlistNode? = nil, derEntitlementsError: String? = nil, hasXMLEntitlements: Bool = true,
                hasEmbeddedProfile: Bool = false, sliceDisagreements: [String] = []) {
        self.bundlePath = bundlePath
        self.bundleKind = bundleKind
        self.infoPlistBundleID = infoPlistBundleID
        self.entitlementsSource = entitlementsSource
        self.architectures = architectures
        self.isSigned = isSigned
        self.derEntitlements = derEntitlements
        self.derEntitlementsError = derEntitlementsError
        self.hasXMLEntitlements = hasXMLEntitlements
        self.hasEmbeddedProfile = hasEmbeddedProfile
        self.sliceDisagreements = sliceDisagreements
    }
}

/// The units, embedded profiles and problems of one built product.
public struct ArtifactReadResult: Sendable {
    public var units: [SigningUnit]
    /// Every embedded profile decoded (each unit's is also in `unit.profile`).
    public var profiles: [ProfileFile]
    /// Problems with the product itself (`parse-error`: a damaged binary, zip or profile).
    public var findings: [Finding]
    /// The files checked, as shown (`App.ipa!Payload/App.app/App`, ...).
    public var paths: [String]

    public init(units: [SigningUnit] = [], profiles: [ProfileFile] = [], findings: [Finding] = [], paths: [String] = []) {
        self.units = units
        self.profiles = profiles
        self.findings = findings
        self.paths = paths
    }
}

/// `Fact<DeveloperCertificate>` spelled as a concrete type: the generic one made every run, even
/// a one-file pre-commit run with no built product, instantiate its metadata at start-up, which in
/// the static binary scans every protocol conformance record for `DeveloperCertificate: Hashable`
/// (400,000 instructions, 7% of a one-file run).
public struct CertificateFact: Sendable, Hashable {
    public var value: DeveloperCertificate
    public var source: FactSource
    public init(_ value: DeveloperCertificate, from source: FactSource) {
        self.value = value
        self.source = source
    }
}
