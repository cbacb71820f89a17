internal import SwiftASN1
public import PropertyList

/// One element of a profile's `DeveloperCertificates` (keychain-access-groups.md section 3: an array of DER X.509
/// certificates): the signing certificates the profile allows. Only what linting and `inspect` need is
/// read, with swift-asn1 directly (RFC 5280 section 4.1):
///
///     Certificate  ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm, signatureValue }
///     TBSCertificate ::= SEQUENCE {
///         version [0] EXPLICIT Version DEFAULT v1, serialNumber INTEGER,
///         signature AlgorithmIdentifier, issuer Name, validity Validity, subject Name, ... }
///     Validity ::= SEQUENCE { notBefore Time, notAfter Time }
///     Time     ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
///     Name     ::= SEQUENCE OF SET OF SEQUENCE { type OBJECT IDENTIFIER, value ANY }
///
/// Nothing is verified (no signature, no chain): a profile's certificates say which identities
/// may sign, and when they stop being usable.
public struct DeveloperCertificate: Sendable, Hashable {
    /// Subject common name (2.5.4.3), e.g. "Apple Distribution: Example Ltd (ABCDE12345)".
    public var commonName: String?
    /// Subject organizational unit (2.5.4.11): the Team ID in Apple's certificates.
    public var organizationalUnit: String?
    /// Subject organization (2.5.4.10).
    public var organization: String?
    public var notBefore: PlistDate
    public var notAfter: PlistDate
    /// The serial number in upper-case hex.
    public var serialNumber: String

    public init(commonName: String?, organizationalUnit: String?, organization: String?, notBefore: PlistDate,
                notAfter: PlistDate, serialNumber: String) {
        self.commonName = commonName
        self.organizationalUnit = organizationalUnit
        self.organization = organization
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = serialNumber
    }

    /// The subject for messages: its common name, else its organization, else the serial.
    public var displayName: String { commonName ?? organization ?? "serial \(serialNumber)" }

    static let commonNameOID: ASN1ObjectIdentifier = [2, 5, 4, 3]
    static let organizationOID: ASN1ObjectIdentifier = [2, 5, 4, 10]
    static let organizationalUnitOID: ASN1ObjectIdentifier = [2, 5, 4, 11]

    /// Reads a DER certificate.
    public init(der bytes: [UInt8]) throws(DERValueError) {
        let root: ASN1Node
        do throws(DERValueError) { root = try DEREntitlements.parse(bytes, maxElements: 100_000) } catch {
            throw DERValueError(error.code, "not an X.509 certificate (\(bytes.count) bytes): \(error.reason)")
        }
        self = try Self.read(root).certificate
    }

    /// A certificate already parsed (one element of a CMS `certificates` set, say), with the
    /// encodings of its issuer and subject Names and the contents of its serial number INTEGER,
    /// which tell who issued whom and match a SignerInfo's `issuerAndSerialNumber`.
    static func read(_ root: ASN1Node) throws(DERValueError)
        -> (certificate: DeveloperCertificate, issuer: ArraySlice<UInt8>, subject: ArraySlice<UInt8>, serial: ArraySlice<UInt8>) {
        func children(_ node: ASN1Node?, _ what: String) throws(DERValueError) -> ASN1NodeCollection.Iterator {
            guard let node, node.identifier == .sequence, case .constructed(let c) = node.content else {
                throw DERValueError(.unexpectedShape, "not an X.509 certificate: \(what) is not a SEQUENCE")
            }
            return c.makeIterator()
        }
        var certificate = try children(root, "the certificate")
        var tbs = try children(certificate.next(), "tbsCertificate")
        var field = tbs.next()
        if let f = field, f.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) { field = tbs.next() }
        guard let serial = field, serial.identifier == .integer, case .primitive(let serialBytes) = serial.content else {
            throw DERValueError(.unexpectedShape, "not an X.509 certificate: no serialNumber")
        }
        _ = try children(tbs.next(), "signature")
        let issuerNode = tbs.next()
        _ = try children(issuerNode, "issuer")
        var validity = try children(tbs.next(), "validity")
        let notBefore = try Self.time(validity.next(), "notBefore")
        let notAfter = try Self.time(validity.next(), "notAfter")
        let subjectNode = tbs.next()
        let subject = try children(subjectNode, "subject")

        var attributes: [ASN1ObjectIdentifier: String] = [:]
        var rdns = subject
        while let rdn = rdns.next() {
            guard rdn.identifier == .set, case .constructed(let atvs) = rdn.content else { continue }
            for atv in atvs {
                guard atv.identifier == .sequence, case .constructed(let parts) = atv.content else { continue }
                var p = parts.makeIterator()
                guard let typeNode = p.next(), let type = try? ASN1ObjectIdentifier(derEncoded: typeNode),
                      let valueNode = p.next(), case .primitive(let v) = valueNode.content else { continue }
                // UTF8String, PrintableString, IA5String, TeletexString: read as UTF-8 text.
                if attributes[type] == nil, let s = String(validatingUTF8Bytes: v) { attributes[type] = s }
            }
        }
        let read = DeveloperCertificate(
            commonName: attributes[Self.commonNameOID], organizationalUnit: attributes[Self.organizationalUnitOID],
            organization: attributes[Self.organizationOID], notBefore: notBefore, notAfter: notAfter,
            serialNumber: serialBytes.map { b in
                let h = String(b, radix: 16, uppercase: true)
                return h.count == 1 ? "0" + h : h
            }.joined())
        return (read, issuerNode!.encodedBytes, subjectNode!.encodedBytes, serialBytes)
    }

    static func time(_ node: ASN1Node?, _ what: String) throws(DERValueError) -> PlistDate {
        guard let node else { throw DERValueError(.unexpectedShape, "not an X.509 certificate: no \(what)") }
        do {
            if node.identifier == .utcTime {
                let t = try UTCTime(derEncoded: node)
                return PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)
            }
            if node.identifier == .generalizedTime {
                let t = try GeneralizedTime(derEncoded: node)
                return PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)
            }
        } catch {
            throw DERValueError(.malformed, "the certificate's \(what) is not a valid time: \(CMSSignedData.reason(error))")
        }
        throw DERValueError(.unexpectedShape, "the certificate's \(what) is \(CMSSignedData.describe(node)), not a UTCTime or GeneralizedTime")
    }
}

extension ProvisioningProfile {
    /// Each element of `DeveloperCertificates`, decoded, or why it could not be (a non-`<data>`
    /// element, a damaged certificate). Empty when the key is absent.
    public var developerCertificates: [Result<DeveloperCertificate, DERValueError>] {
        guard let items = document.root.dict?["DeveloperCertificates"]?.array else { return [] }
        return items.map { item in
            guard let bytes = item.data else {
                return .failure(DERValueError(.unexpectedShape, "an element of DeveloperCertificates is a \(item.value.typeName), not <data>"))
            }
            do throws(DERValueError) { return .success(try DeveloperCertificate(der: bytes)) } catch { return .failure(error) }
        }
    }
}
