import EntitlintCore
import EntitlintWorkspace
public import PropertyList
import Provisioning

/// Builds the `Inspection` of a file or built product: a product (Mach-O, `.app`, `.xcarchive`,
/// `.ipa`) is read by `ArtifactReader`, a profile or entitlements file by `DocumentReader.parse`, each
/// within `limits`; what cannot be read is a `Failure` or, inside a product, a listed problem.
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
        switch DocumentReader.parse(bytes: bytes, path: path, limits: limits) {
        case .failed(let reason, let location):
            throw Failure(description: "cannot parse \(shown)\(location.isKnown ? ":\(location.line)" : ""): \(reason)")
        case .unread(let reason, _):
            throw Failure(description: "cannot parse \(shown): \(reason)")
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
}
