internal import SwiftASN1
import PropertyList

/// Finds the encapsulated content of a CMS SignedData (RFC 5652), which in a provisioning profile
/// is the property list. Nothing is verified: signatures and certificates are only checked for
/// shape.
///
/// The grammar, from RFC 5652 sections 3 and 5.1-5.2 (keychain-access-groups.md section 3):
///
///     ContentInfo ::= SEQUENCE {
///       contentType ContentType,                      -- 1.2.840.113549.1.7.2 (signedData)
///       content [0] EXPLICIT ANY DEFINED BY contentType }
///
///     SignedData ::= SEQUENCE {
///       version CMSVersion,                           -- INTEGER
///       digestAlgorithms DigestAlgorithmIdentifiers,  -- SET
///       encapContentInfo EncapsulatedContentInfo,
///       certificates [0] IMPLICIT CertificateSet OPTIONAL,
///       crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///       signerInfos SignerInfos }                     -- SET
///
///     EncapsulatedContentInfo ::= SEQUENCE {
///       eContentType ContentType,                     -- 1.2.840.113549.1.7.1 (data)
///       eContent [0] EXPLICIT OCTET STRING OPTIONAL }
///
/// CMS is BER: lengths may be indefinite (`30 80 ... 00 00`) and the OCTET STRING may be
/// constructed (`24 80 04 .. 04 .. 00 00`, X.690 8.7.3: "the concatenation of the contents of
/// the primitive encodings"), which `openssl cms -sign -stream` produces.
///
/// Parsing is swift-asn1's: `DER.parse` first (success means envelope `.der`), then `BER.parse`,
/// which handles indefinite lengths and bounds everything: lengths are checked against the
/// remaining bytes with `Int(exactly:)` (a length near 2^63 is "truncated", not an overflow),
/// nesting deeper than 50 is rejected, and so is any byte after the outer SEQUENCE.
/// **Trailing data is an error**: no real profile has any (every one in the corpus ends with its
/// outer SEQUENCE), and bytes after a signed blob are not covered by the signature.
/// The pieces of a constructed OCTET STRING are concatenated here by a short recursion over the
/// already-parsed tree, so its depth is bounded by the same limit of 50.
///
/// One thing swift-asn1 does not bound is the number of elements: it keeps a node per element,
/// so before calling it a small walker of our own (`elementCount`, linear, no recursion, every
/// index checked) counts the headers and refuses more than `PlistLimits.maxElements`.
enum CMSSignedData {
    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    static let contextTag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
    static let contextTag1 = ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)

    /// The bytes of `eContent`, pieces concatenated, and how the blob was encoded.
    ///
    /// `maxElements` caps the number of ASN.1 elements, counted by `elementCount` before
    /// swift-asn1 parses anything: its parser keeps one node (about 100 bytes) per element, so a
    /// 16 MB file of 2-byte elements (`04 00` pieces) would otherwise cost about 1 GB. A real
    /// profile has a few hundred elements.
    static func encapsulatedContent(_ bytes: [UInt8], maxElements: Int = PlistLimits.default.maxElements) throws(ProfileError) -> (content: [UInt8], envelope: ProfileEnvelope) {
        guard !bytes.isEmpty else { throw ProfileError(.empty, "the file is empty") }
        guard bytes[0] == 0x30 else {
            throw ProfileError(.notCMS, "not a CMS SignedData: starts with \(ProfileDecoder.preview(bytes)), not an ASN.1 SEQUENCE (0x30)")
        }
        guard elementCount(bytes, limit: maxElements) <= maxElements else {
            throw ProfileError(.malformedCMS,
                "more than \(maxElements) ASN.1 elements; a real profile has a few hundred", limit: .elements)
        }

        let parts = try signedData(bytes)
        var envelope = parts.envelope
        var encapContentInfo = try children(of: parts.encapContentInfo, expecting: .sequence, "SignedData.encapContentInfo")

        // EncapsulatedContentInfo
        let eContentType = try oid(encapContentInfo.next(), "encapContentInfo.eContentType")
        guard eContentType == dataOID else {
            throw ProfileError(.unexpectedContentType,
                "encapContentInfo.eContentType is \(describe(eContentType)), expected 1.2.840.113549.1.7.1 (data)")
        }
        guard let eContentNode = encapContentInfo.next() else {
            throw ProfileError(.noContent,
                "SignedData has no encapsulated content (a detached signature): there is no property list in it")
        }
        var eContent = try children(of: eContentNode, expecting: contextTag0, "encapContentInfo.eContent [0] EXPLICIT")
        try expectEnd(&encapContentInfo, "encapContentInfo")
        guard let octetString = eContent.next() else {
            throw ProfileError(.malformedCMS, "encapContentInfo.eContent [0] EXPLICIT is empty: expected an OCTET STRING")
        }
        try expectEnd(&eContent, "encapContentInfo.eContent [0] EXPLICIT")

        var content: [UInt8] = []
        if try appendOctets(of: octetString, to: &content, "encapContentInfo.eContent") {
            envelope = .ber
        }
        guard !content.isEmpty else {
            throw ProfileError(.noContent, "the encapsulated content is empty: there is no property list in it")
        }
        return (content, envelope)
    }

    /// The parts of a SignedData that its readers use, and how it was encoded.
    struct SignedDataParts {
        var encapContentInfo: ASN1Node
        /// `certificates [0] IMPLICIT CertificateSet`, when present.
        var certificates: ASN1Node?
        var signerInfos: ASN1Node
        var envelope: ProfileEnvelope
    }

    /// Parses `bytes` (DER, else BER) and walks ContentInfo down to the fields of SignedData,
    /// checking each one's tag. Shared by the profile reader (`encapsulatedContent`) and the
    /// code-signature reader (`CodeSignatureCMS`), whose SignedData is detached.
    /// The caller has checked that `bytes` is not empty, starts with a SEQUENCE and has at most
    /// its limit of elements.
    static func signedData(_ bytes: [UInt8]) throws(ProfileError) -> SignedDataParts {
        var envelope = ProfileEnvelope.der
        let root: ASN1Node
        do {
            root = try DER.parse(bytes)
        } catch {
            do {
                root = try BER.parse(bytes)
                envelope = .ber
            } catch {
                throw malformed(error, in: bytes)
            }
        }

        // ContentInfo
        var contentInfo = try children(of: root, expecting: .sequence, "ContentInfo")
        let contentType = try oid(contentInfo.next(), "ContentInfo.contentType")
        guard contentType == signedDataOID else {
            throw ProfileError(.unexpectedContentType,
                "ContentInfo.contentType is \(describe(contentType)), expected 1.2.840.113549.1.7.2 (signedData)")
        }
        var explicitContent = try children(of: contentInfo.next(), expecting: contextTag0, "ContentInfo.content [0] EXPLICIT")
        try expectEnd(&contentInfo, "ContentInfo")

        // SignedData
        var signedData = try children(of: explicitContent.next(), expecting: .sequence, "SignedData")
        try expectEnd(&explicitContent, "ContentInfo.content [0] EXPLICIT")
        try primitive(signedData.next(), expecting: .integer, "SignedData.version")
        _ = try children(of: signedData.next(), expecting: .set, "SignedData.digestAlgorithms")
        let encapNode = signedData.next()
        _ = try children(of: encapNode, expecting: .sequence, "SignedData.encapContentInfo")
        var certificates: ASN1Node?
        var next = signedData.next()
        if let n = next, n.identifier == contextTag0 { certificates = n; next = signedData.next() }
        if let n = next, n.identifier == contextTag1 { next = signedData.next() }   // crls
        _ = try children(of: next, expecting: .set, "SignedData.signerInfos")
        try expectEnd(&signedData, "SignedData")
        return SignedDataParts(encapContentInfo: encapNode!, certificates: certificates, signerInfos: next!, envelope: envelope)
    }

    /// Counts ASN.1 headers in one linear pass (pre-order: into constructed elements, over the
    /// contents of primitive ones, past end-of-contents `00 00`), stopping once past `limit`.
    /// It validates nothing: on anything odd it stops and leaves the diagnosis to the parser.
    /// No recursion, every index checked against the end.
    static func elementCount(_ bytes: [UInt8], limit: Int) -> Int {
        let end = bytes.count
        var i = 0
        var count = 0
        while i < end, count <= limit {
            if bytes[i] == 0x00, i + 1 < end, bytes[i + 1] == 0x00 {
                i += 2
                continue
            }
            let tag = bytes[i]
            i += 1
            if tag & 0x1F == 0x1F {   // long-form tag number: base-128 bytes, last one < 0x80
                while i < end, bytes[i] & 0x80 != 0 { i += 1 }
                i += 1
            }
            guard i < end else { break }
            let first = bytes[i]
            i += 1
            count += 1
            if first == 0x80 { continue }   // indefinite: the contents follow
            var length = Int(first)
            if first > 0x80 {
                let n = Int(first & 0x7F)
                guard n <= 8, n <= end - i else { break }
                var v: UInt64 = 0
                for j in i..<(i + n) { v = v << 8 | UInt64(bytes[j]) }
                i += n
                guard let l = Int(exactly: v) else { break }
                length = l
            }
            if tag & 0x20 == 0 {   // primitive: skip the contents
                guard length <= end - i else { break }
                i += length
            }
        }
        return count
    }
}
