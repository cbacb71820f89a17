public import EntitlintCore
public import EntitlintWorkspace
public import PropertyList
import Provisioning

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

public enum Inspector {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Inspects the file or product at `path` (shown as `shown`) as of `now`.
    public static func inspect(_ path: String, shown: String, now: PlistDate, limits: PlistLimits = .default) throws(Failure) -> Inspection {
        let reader = ArtifactReader()
        if Paths.kind(path) == .missing { throw Failure(description: "no such file or folder: \(path)") }
        if reader.handles(path) {
            let r = reader.read(path, shown: shown, limits: limits)
            var out = Inspection(path: shown, kind: .product)
            out.profiles = r.profiles.map { summary($0, now: now) }
            out.units = r.units.map { summary($0, now: now) }
            out.problems = r.findings.map { "\($0.path): \($0.message)" }
            if r.units.count == 1 {
                out.plist = Array(PlistXMLWriter.document(r.units[0].document.root).utf8)
            } else {
                var all = PlistDictionary()
                for u in r.units { all.append(.init(key: u.entitlementsPath, keyLocation: .unknown, value: u.document.root)) }
                out.plist = Array(PlistXMLWriter.document(PlistNode(.dict(all))).utf8)
            }
            return out
        }
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: limits.maxBytes) } catch {
            throw Failure(description: "cannot read \(shown): \(error)")
        }
        switch Linter.parse(bytes: bytes, path: path, limits: limits) {
        case .failed(let reason, let location):
            throw Failure(description: "cannot parse \(shown)\(location.isKnown ? ":\(location.line)" : ""): \(reason)")
        case .profile(let profile):
            var out = Inspection(path: shown, kind: .profile)
            out.profiles = [summary(ProfileFile(path: shown, profile: profile), now: now)]
            if profile.envelope == .plainPlist {
                out.plist = bytes
            } else {
                out.plist = (try? ProfileDecoder.encapsulatedContent(ofCMS: bytes).content) ?? []
            }
            return out
        case .entitlements(let document):
            var out = Inspection(path: shown, kind: .entitlements)
            out.entitlements = JSONValue(document.root)
            out.plist = bytes
            return out
        }
    }

    static func summary(_ c: DeveloperCertificate, now: PlistDate) -> CertificateSummary {
        CertificateSummary(subject: c.commonName, team: c.organizationalUnit, serialNumber: c.serialNumber,
                           notBefore: c.notBefore.description, notAfter: c.notAfter.description,
                           daysLeft: now.days(until: c.notAfter), problem: nil)
    }

    static func summary(_ file: ProfileFile, now: PlistDate) -> ProfileSummary {
        let p = file.profile
        let certificates: [CertificateSummary] = p.developerCertificates.map { result in
            switch result {
            case .success(let c):
                return summary(c, now: now)
            case .failure(let e):
                return CertificateSummary(problem: e.reason)
            }
        }
        let der: String
        switch p.decodedDEREncodedProfile() {
        case nil: der = "absent"
        case .failure(let e)?: der = "cannot be decoded: \(e.reason)"
        case .success(let d)?:
            var differences: [String] = []
            for key in ["UUID", "TeamIdentifier", "Entitlements", "ProvisionedDevices", "ExpirationDate"] {
                guard var a = p.document.root.dict?[key], var b = d[key] else { continue }
                if key == "UUID", let x = a.string, let y = b.string { a = PlistNode(.string(x.uppercased())); b = PlistNode(.string(y.uppercased())) }
                differences += PlistComparison.differences(PlistNode(.dict(PlistDictionary([.init(key: key, keyLocation: .unknown, value: a)]))),
                                                           PlistNode(.dict(PlistDictionary([.init(key: key, keyLocation: .unknown, value: b)]))),
                                                           aName: "the plist", bName: "DER-Encoded-Profile", limit: 2).map(\.description)
            }
            der = differences.isEmpty ? "matches" : "differs: " + differences.joined(separator: "; ")
        }
        return ProfileSummary(
            path: file.path, name: p.name, uuid: p.uuid, teamIdentifiers: p.teamIdentifiers, teamName: p.teamName,
            appIDName: p.appIDName, applicationIdentifier: p.applicationIdentifier, applicationIdentifierPrefixes: p.applicationIdentifierPrefixes,
            kind: p.kind.rawValue, platforms: p.platforms, envelope: p.envelope.rawValue,
            creationDate: p.creationDate?.description, expirationDate: p.expirationDate?.description,
            daysLeft: p.expirationDate.map { now.days(until: $0) }, deviceCount: p.deviceCount,
            provisionsAllDevices: p.provisionsAllDevices, certificates: certificates, derEncodedProfile: der,
            entitlements: JSONValue(PlistNode(.dict(p.entitlements))))
    }

    static func summary(_ unit: SigningUnit, now: PlistDate) -> UnitSummary {
        let a = unit.artifact
        var der = "absent"
        if let e = a?.derEntitlementsError { der = "cannot be decoded: \(e)" }
        else if let d = a?.derEntitlements {
            if a?.entitlementsSource == .codeSignatureDER { der = "the only copy (no slot 5)" }
            else if let diff = PlistComparison.differences(unit.document.root, d, aName: "slot 5", bName: "slot 7", limit: 1).first {
                der = "differs: \(diff.description)"
            } else { der = "same as slot 5" }
        }
        var signature = "unsigned"
        var certificate: CertificateSummary?
        if let a, a.isSigned {
            if let e = a.signatureError {
                signature = "cannot be read: \(e)"
            } else if let c = a.signingCertificate?.value {
                signature = "\(c.role.rawValue) certificate"
                certificate = summary(c, now: now)
            } else {
                signature = "ad hoc (no certificate)"
            }
        }
        return UnitSummary(name: unit.name, executable: unit.entitlementsPath, bundle: a?.bundlePath ?? unit.entitlementsPath,
                           bundleKind: a?.bundleKind.rawValue ?? "binary", bundleID: unit.bundleID?.value, platform: unit.platform.rawValue,
                           architectures: a?.architectures ?? [], signed: a?.isSigned ?? false,
                           entitlementsSource: a?.entitlementsSource.rawValue ?? "none", derEntitlements: der,
                           signature: signature, signingCertificate: certificate,
                           profile: unit.profile?.path, entitlements: JSONValue(unit.document.root))
    }

    // MARK: - Text

    /// The readable summary.
    public static func text(_ i: Inspection) -> String {
        var s = ""
        switch i.kind {
        case .entitlements:
            s += "\(OutputText.lineStart(i.path)): entitlements\n"
            s += render(i.entitlements ?? .object([:]), indent: "  ")
        case .profile:
            for p in i.profiles { s += text(p) }
        case .product:
            s += "\(OutputText.lineStart(i.path)): built product, \(i.units.count) signing unit\(i.units.count == 1 ? "" : "s")\n"
            for u in i.units {
                s += "\n\(OutputText.lineStart(u.name)) (\(e(u.bundleKind))): \(e(u.executable))\n"
                s += "  bundle ID:     \(e(u.bundleID ?? "unknown"))\n"
                s += "  platform:      \(e(u.platform))\n"
                s += "  architectures: \(e(u.architectures.joined(separator: ", ")))\n"
                s += "  signed:        \(u.signed ? "yes" : "no")\(u.signed ? ", \(e(u.signature))" : "")\n"
                if let c = u.signingCertificate {
                    s += "  certificate:   \(e(c.subject ?? "no subject"))\(c.team.map { ", team \(e($0))" } ?? "") - expires \(e(c.notAfter ?? "?"))"
                        + (c.daysLeft.map { $0 < 0 ? " (expired \(-$0) day\($0 == -1 ? "" : "s") ago)" : " (\($0) day\($0 == 1 ? "" : "s") left)" } ?? "") + "\n"
                }
                s += "  entitlements:  from the \(e(u.entitlementsSource)); DER (slot 7): \(e(u.derEntitlements))\n"
                s += "  profile:       \(e(u.profile ?? "none embedded"))\n"
                s += render(u.entitlements, indent: "    ")
            }
            for p in i.profiles { s += "\n" + text(p) }
        }
        if !i.problems.isEmpty {
            s += "\nproblems:\n"
            for p in i.problems { s += "  \(e("\(p)"))\n" }
        }
        return s
    }

    static func text(_ p: ProfileSummary) -> String {
        var s = "\(OutputText.lineStart(p.path)): provisioning profile\n"
        func line(_ label: String, _ value: String) { s += "  " + label + String(repeating: " ", count: max(1, 15 - label.count)) + e(value) + "\n" }
        line("name:", p.name ?? "none")
        line("UUID:", p.uuid ?? "none")
        line("team:", (p.teamIdentifiers.joined(separator: ", ")) + (p.teamName.map { " (\($0))" } ?? ""))
        line("App ID:", (p.applicationIdentifier ?? "none") + (p.appIDName.map { " (\($0))" } ?? ""))
        if p.applicationIdentifierPrefixes != p.teamIdentifiers { line("App ID prefix:", p.applicationIdentifierPrefixes.joined(separator: ", ")) }
        line("kind:", p.kind)
        line("platforms:", p.platforms.joined(separator: ", "))
        line("created:", p.creationDate ?? "unknown")
        if let e = p.expirationDate, let d = p.daysLeft {
            line("expires:", "\(e) (" + (d < 0 ? "expired \(-d) day\(d == -1 ? "" : "s") ago" : "\(d) day\(d == 1 ? "" : "s") left") + ")")
        } else {
            line("expires:", "unknown")
        }
        line("devices:", p.provisionsAllDevices ? "all (ProvisionsAllDevices)" : "\(p.deviceCount)")
        line("envelope:", p.envelope)
        line("DER copy:", p.derEncodedProfile)
        s += "  certificates:  \(p.certificates.count)\n"
        for c in p.certificates {
            if let problem = c.problem { s += "    unreadable: \(e(problem))\n"; continue }
            let left = c.daysLeft.map { $0 < 0 ? "expired" : "\($0) days left" } ?? ""
            s += "    \(e(c.subject ?? "no subject")) - expires \(e(c.notAfter ?? "?")) (\(left))\n"
        }
        s += "  entitlements:\n" + render(p.entitlements, indent: "    ")
        return s
    }

    /// Strings from the file, escaped for a line of text (`OutputText.escape`).
    static func e(_ s: String) -> String { OutputText.escape(s) }

    /// `key: value` lines, nested values indented.
    static func render(_ v: JSONValue, indent: String) -> String {
        var s = ""
        func scalar(_ v: JSONValue) -> String? {
            switch v {
            case .string(let x): return "\"\(e(x))\""
            case .integer(let i): return "\(i)"
            case .number(let d): return "\(d)"
            case .bool(let b): return b ? "true" : "false"
            case .array(let a) where a.isEmpty: return "[]"
            case .object(let o) where o.isEmpty: return "{}"
            default: return nil
            }
        }
        switch v {
        case .object(let o):
            for k in o.keys.sorted() {
                if let sc = scalar(o[k]!) { s += "\(indent)\(e(k)): \(sc)\n" } else { s += "\(indent)\(e(k)):\n" + render(o[k]!, indent: indent + "  ") }
            }
        case .array(let a):
            for e in a {
                if let sc = scalar(e) { s += "\(indent)- \(sc)\n" } else { s += "\(indent)-\n" + render(e, indent: indent + "  ") }
            }
        default:
            s += indent + (scalar(v) ?? "") + "\n"
        }
        return s
    }
}
