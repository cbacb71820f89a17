public import PropertyList

/// `entitlint inspect FILE`: what a profile, an entitlements file, a Mach-O, an
/// `.app`, an `.xcarchive` or an `.ipa` holds, decoded, as a readable summary, as JSON, or as
/// the plist itself (what `security cms -D -i` prints for a profile, and `codesign -d
/// --entitlements :-` for a binary, on a Mac).
public struct Inspection: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case profile, entitlements, product }

    public var path: String
    public var kind: Kind
    /// Profiles: the file itself, or those embedded in a product.
    public var profiles: [ProfileSummary] = []
    /// Signing units of a product (one per bundle / binary).
    public var units: [UnitSummary] = []
    /// The entitlements of an entitlements file.
    public var entitlements: JSONValue?
    /// What could not be read (damaged binaries, profiles, zip entries).
    public var problems: [String] = []

    /// The plist bytes `--format plist` prints.
    public var plist: [UInt8] = []

    enum CodingKeys: String, CodingKey { case path, kind, profiles, units, entitlements, problems }
}

public struct ProfileSummary: Sendable, Codable, Equatable {
    public var path: String
    public var name: String?
    public var uuid: String?
    public var teamIdentifiers: [String]
    public var teamName: String?
    public var appIDName: String?
    public var applicationIdentifier: String?
    public var applicationIdentifierPrefixes: [String]
    public var kind: String
    public var platforms: [String]
    public var envelope: String
    public var creationDate: String?
    public var expirationDate: String?
    /// Whole days until `expirationDate` (negative once expired).
    public var daysLeft: Int?
    public var deviceCount: Int
    public var provisionsAllDevices: Bool
    public var certificates: [CertificateSummary]
    /// `absent`, `matches`, or what is wrong with it.
    public var derEncodedProfile: String
    public var entitlements: JSONValue
}

public struct CertificateSummary: Sendable, Codable, Equatable {
    public var subject: String?
    public var team: String?
    public var serialNumber: String?
    public var notBefore: String?
    public var notAfter: String?
    public var daysLeft: Int?
    /// Why the certificate could not be read, when it could not.
    public var problem: String?
}

public struct UnitSummary: Sendable, Codable, Equatable {
    public var name: String
    public var executable: String
    public var bundle: String
    public var bundleKind: String
    public var bundleID: String?
    public var platform: String
    public var architectures: [String]
    public var signed: Bool
    public var entitlementsSource: String
    /// `absent`, `same as slot 5`, or the first difference.
    public var derEntitlements: String
    /// How the binary was signed: `unsigned`, `ad hoc`, `distribution certificate`,
    /// `development certificate`, `other certificate`, or why the CMS signature cannot be read.
    public var signature: String
    /// The certificate that signed the binary (the signer of the CMS signature, slot `0x10000`).
    public var signingCertificate: CertificateSummary?
    public var profile: String?
    public var entitlements: JSONValue
}

/// A plist value as JSON: dates as `YYYY-MM-DDTHH:MM:SSZ` strings, data as base64 strings.
public indirect enum JSONValue: Sendable, Codable, Equatable {
    case string(String), integer(Int64), number(Double), bool(Bool), array([JSONValue]), object([String: JSONValue])

    public init(_ node: PlistNode) {
        switch node.value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = i.int64.map { .integer($0) } ?? .string(i.description)
        case .real(let r): self = .number(r)
        case .bool(let b): self = .bool(b)
        case .date(let d): self = .string(d.description)
        case .data(let d): self = .string(PlistXMLWriter.base64(d))
        case .array(let a): self = .array(a.map(JSONValue.init))
        case .dict(let d):
            var o: [String: JSONValue] = [:]
            for k in d.keys { o[k] = JSONValue(d[k]!) }
            self = .object(o)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .integer(let i): try c.encode(i)
        case .number(let d): try c.encode(d)
        case .bool(let b): try c.encode(b)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }
}
