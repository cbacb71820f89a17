import SwiftASN1

/// Builds CMS SignedData blobs around arbitrary content, for tests. Nothing is signed: the
/// certificate and signerInfos are placeholders with the right tags, which is all a reader that
/// does not verify needs.
///
///     ContentInfo ::= SEQUENCE { contentType OID, [0] EXPLICIT SignedData }
///     SignedData  ::= SEQUENCE { version INTEGER, digestAlgorithms SET,
///                       encapContentInfo SEQUENCE { eContentType OID, [0] EXPLICIT OCTET STRING },
///                       certificates [0] IMPLICIT, signerInfos SET }
struct CMSBuilder {
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    static let envelopedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 3]
    static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]

    /// The encapsulated content; nil leaves out eContent (a detached signature).
    var content: [UInt8]?
    var outerContentType = CMSBuilder.signedData
    var eContentType = CMSBuilder.data
    var includeCertificates = true
    var includeSignerInfos = true

    init(content: [UInt8]?) { self.content = content }
    init(_ text: String) { self.content = Array(text.utf8) }

    // MARK: - DER, with swift-asn1's serializer

    /// Definite lengths, one primitive OCTET STRING: what Apple ships.
    func der() -> [UInt8] {
        var s = DER.Serializer()
        try! s.appendConstructedNode(identifier: .sequence) { s in
            try s.serialize(outerContentType)
            try s.appendConstructedNode(identifier: Self.tag0) { s in
                try s.appendConstructedNode(identifier: .sequence) { s in
                    try s.serialize(1)
                    try s.appendConstructedNode(identifier: .set) { s in
                        try s.appendConstructedNode(identifier: .sequence) { s in
                            try s.serialize(Self.sha1)
                            try s.serialize(ASN1Null())
                        }
                    }
                    try s.appendConstructedNode(identifier: .sequence) { s in
                        try s.serialize(eContentType)
                        if let content {
                            try s.appendConstructedNode(identifier: Self.tag0) { s in
                                try s.serialize(ASN1OctetString(contentBytes: content[...]))
                            }
                        }
                    }
                    if includeCertificates {
                        s.appendConstructedNode(identifier: Self.tag0) { s in
                            s.serialize(ASN1Node.fakeCertificate)
                        }
                    }
                    if includeSignerInfos {
                        s.appendConstructedNode(identifier: .set) { s in
                            s.serialize(ASN1Node.fakeSignerInfo)
                        }
                    }
                }
            }
        }
        return s.serializedBytes
    }

    static let tag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    // MARK: - BER, by hand

    /// Indefinite lengths everywhere on the path to the content (`30 80 ... 00 00`) and the
    /// content as a constructed OCTET STRING (`24 80 04 .. 04 .. 00 00`) of `chunkSize` pieces,
    /// like `openssl cms -sign -stream`.
    func ber(chunkSize: Int = 512, indefinite: Bool = true) -> [UInt8] {
        tree(octets: content.map { BERNode.chunked($0, chunkSize: chunkSize, indefinite: indefinite) },
             indefinite: indefinite).encoded()
    }

    /// The whole structure as a tree, with `octets` (any OCTET STRING encoding, or something
    /// hostile) in the eContent slot.
    func tree(octets: BERNode?, indefinite: Bool = true) -> BERNode {
        let digestAlgorithms = BERNode.constructed(0x31, [
            .constructed(0x30, [.raw(Self.encode(Self.sha1)), .primitive(0x05, [])]),
        ])
        var encap: [BERNode] = [.raw(Self.encode(eContentType))]
        if let octets { encap.append(.constructed(0xA0, [octets], indefinite: indefinite)) }
        var signed: [BERNode] = [
            .primitive(0x02, [0x01]),
            digestAlgorithms,
            .constructed(0x30, encap, indefinite: indefinite),
        ]
        if includeCertificates { signed.append(.constructed(0xA0, [.raw(Self.fakeCertificateBytes)], indefinite: indefinite)) }
        if includeSignerInfos { signed.append(.constructed(0x31, [.raw(Self.fakeSignerInfoBytes)], indefinite: indefinite)) }
        return .constructed(0x30, [
            .raw(Self.encode(outerContentType)),
            .constructed(0xA0, [.constructed(0x30, signed, indefinite: indefinite)], indefinite: indefinite),
        ], indefinite: indefinite)
    }

    static func encode(_ oid: ASN1ObjectIdentifier) -> [UInt8] {
        var s = DER.Serializer()
        try! s.serialize(oid)
        return s.serializedBytes
    }

    static var fakeCertificateBytes: [UInt8] {
        var s = DER.Serializer()
        s.serialize(ASN1Node.fakeCertificate)
        return s.serializedBytes
    }

    static var fakeSignerInfoBytes: [UInt8] {
        var s = DER.Serializer()
        s.serialize(ASN1Node.fakeSignerInfo)
        return s.serializedBytes
    }
}

/// A hand-written BER element: primitive, constructed (definite or indefinite length), or bytes
/// copied as they are.
indirect enum BERNode {
    case primitive(UInt8, [UInt8])
    case constructed(UInt8, [BERNode], indefinite: Bool = false)
    case raw([UInt8])

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    func encode(into out: inout [UInt8]) {
        switch self {
        case .raw(let bytes):
            out += bytes
        case .primitive(let tag, let content):
            out.append(tag)
            out += Self.length(content.count)
            out += content
        case .constructed(let tag, let children, let indefinite):
            var inner: [UInt8] = []
            for c in children { c.encode(into: &inner) }
            out.append(tag)
            if indefinite {
                out.append(0x80)
                out += inner
                out += [0x00, 0x00]
            } else {
                out += Self.length(inner.count)
                out += inner
            }
        }
    }

    /// Definite length octets, minimal (X.690 8.1.3).
    static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var v = n
        while v > 0 { bytes.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// A constructed OCTET STRING (`24`) of primitive pieces of at most `chunkSize` bytes.
    static func chunked(_ content: [UInt8], chunkSize: Int, indefinite: Bool = true) -> BERNode {
        var pieces: [BERNode] = []
        var i = 0
        while i < content.count {
            let end = min(i + chunkSize, content.count)
            pieces.append(.primitive(0x04, Array(content[i..<end])))
            i = end
        }
        return .constructed(0x24, pieces, indefinite: indefinite)
    }
}

extension ASN1Node {
    /// A SEQUENCE shaped like nothing in particular, standing in for an X.509 certificate.
    static var fakeCertificate: ASN1Node {
        try! DER.parse([0x30, 0x0B, 0x30, 0x03, 0x02, 0x01, 0x02, 0x04, 0x04, 0x66, 0x61, 0x6B, 0x65])
    }

    /// SignerInfo-ish: version, sid, digest algorithm, signature algorithm, signature.
    static var fakeSignerInfo: ASN1Node {
        try! DER.parse([
            0x30, 0x1A,
            0x02, 0x01, 0x01,
            0x30, 0x03, 0x02, 0x01, 0x02,
            0x30, 0x07, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A,
            0x30, 0x02, 0x05, 0x00,
            0x04, 0x03, 0x73, 0x69, 0x67,
        ])
    }
}
