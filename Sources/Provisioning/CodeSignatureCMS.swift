internal import SwiftASN1
public import PropertyList

/// What a code-signing certificate is for, read from its subject common name.
///
/// keychain-access-groups.md does not list certificate names; these are the prefixes of the common names Apple
/// gives the certificates of each type in the developer portal ("Certificates" > certificate
/// types), as `security find-identity -v -p codesigning` lists them:
///
/// - distribution: `Apple Distribution:` (all platforms, since Xcode 11), `iPhone Distribution:`
///   (iOS Distribution, also the In-House / Enterprise one), `3rd Party Mac Developer Application:`
///   (Mac App Distribution; `Mac App Distribution:` is accepted too), `Developer ID Application:`
///   (signs apps distributed outside the Mac App Store, then notarized);
/// - development: `Apple Development:`, `iPhone Developer:` (iOS App Development),
///   `Mac Developer:` (Mac Development).
///
/// Anything else (a self-signed or company certificate, an installer certificate) is `.other`:
/// Entitlint does not guess.
public enum CertificateRole: String, Sendable, Hashable, Codable {
    case distribution, development, other

    static let distributionPrefixes = [
        "Apple Distribution:", "iPhone Distribution:", "Developer ID Application:",
        "3rd Party Mac Developer Application:", "Mac App Distribution:",
    ]
    static let developmentPrefixes = ["Apple Development:", "iPhone Developer:", "Mac Developer:"]

    public init(commonName: String?) {
        guard let name = commonName else { self = .other; return }
        if Self.distributionPrefixes.contains(where: { name.hasPrefix($0) }) {
            self = .distribution
        } else if Self.developmentPrefixes.contains(where: { name.hasPrefix($0) }) {
            self = .development
        } else {
            self = .other
        }
    }
}

extension DeveloperCertificate {
    /// Distribution, development or other, from the common name (`CertificateRole`).
    public var role: CertificateRole { CertificateRole(commonName: commonName) }
}

/// The CMS signature of a Mach-O code signature: the payload of the blob wrapper (`0xfade0b01`)
/// in slot `0x10000` (`CSSLOT_SIGNATURESLOT`) of the SuperBlob (keychain-access-groups.md section 7 gives the
/// SuperBlob; the slot number and magic are `<Security/CSCommonPriv.h>`'s).
///
/// It is a CMS SignedData (RFC 5652, the same grammar as a profile's, keychain-access-groups.md section 3) whose
/// content is detached (the CodeDirectory hash is what is signed), so there is no eContent:
///
///     SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo,
///                               certificates [0] IMPLICIT SET OF Certificate, signerInfos SET }
///     SignerInfo ::= SEQUENCE { version, sid SignerIdentifier, digestAlgorithm, ... }
///     SignerIdentifier ::= CHOICE { issuerAndSerialNumber SEQUENCE { issuer Name, serialNumber INTEGER },
///                                   subjectKeyIdentifier [0] IMPLICIT OCTET STRING }
///
/// `codesign` puts the signer's certificate and its chain (for Apple's, the WWDR intermediate and
/// the Apple Root CA) in `certificates`. An ad hoc signature (`codesign -s -`) has an empty blob
/// wrapper, or none. Nothing is verified: the linter only wants to know who signed.
public enum CodeSignatureCMS {
    /// The signer's certificate, or nil for an ad hoc signature (no bytes) or a SignedData without
    /// certificates. The signer is the certificate named by the first SignerInfo's
    /// `issuerAndSerialNumber`; failing that (a `subjectKeyIdentifier`, no match), the one
    /// certificate of the set that issued no other (the leaf), preferring one not self-signed.
    /// Damaged DER, a SignedData of the wrong shape or an unreadable certificate throws.
    public static func signingCertificate(_ bytes: [UInt8], maxElements: Int = PlistLimits.default.maxElements) throws(ProfileError) -> DeveloperCertificate? {
        guard !bytes.isEmpty else { return nil }
        guard bytes[0] == 0x30 else {
            throw ProfileError(.notCMS, "not a CMS SignedData: starts with \(ProfileDecoder.preview(bytes)), not an ASN.1 SEQUENCE (0x30)")
        }
        guard CMSSignedData.elementCount(bytes, limit: maxElements) <= maxElements else {
            throw ProfileError(.malformedCMS, "more than \(maxElements) ASN.1 elements; a code signature has a few hundred")
        }
        let parts = try CMSSignedData.signedData(bytes)
        guard let set = parts.certificates, case .constructed(let choices) = set.content else { return nil }

        var certificates: [(certificate: DeveloperCertificate, issuer: ArraySlice<UInt8>, subject: ArraySlice<UInt8>, serial: ArraySlice<UInt8>)] = []
        for (i, choice) in choices.enumerated() where choice.identifier == .sequence {   // other CertificateChoices are skipped
            do throws(DERValueError) {
                certificates.append(try DeveloperCertificate.read(choice))
            } catch {
                throw ProfileError(.malformedCMS, "certificate \(i + 1) of the signature cannot be read: \(error.reason)")
            }
        }
        guard !certificates.isEmpty else { return nil }

        // The signer named by the first SignerInfo.
        var signerInfos: ASN1NodeCollection.Iterator?
        if case .constructed(let infos) = parts.signerInfos.content { signerInfos = infos.makeIterator() }
        if let info = signerInfos?.next(), case .constructed(let fields) = info.content {
            var it = fields.makeIterator()
            _ = it.next()   // version
            if let sid = it.next(), sid.identifier == .sequence, case .constructed(let pair) = sid.content {
                var p = pair.makeIterator()
                if let issuer = p.next(), let serial = p.next(), serial.identifier == .integer, case .primitive(let serialBytes) = serial.content,
                   let match = certificates.first(where: { $0.issuer == issuer.encodedBytes && $0.serial == serialBytes }) {
                    return match.certificate
                }
            }
        }

        // Otherwise the leaf: a certificate that is no other certificate's issuer.
        let leaves = certificates.indices.filter { i in
            !certificates.indices.contains { j in j != i && certificates[j].issuer == certificates[i].subject }
        }
        let notSelfSigned = leaves.filter { certificates[$0].issuer != certificates[$0].subject }
        return certificates[notSelfSigned.first ?? leaves.first ?? 0].certificate
    }
}
