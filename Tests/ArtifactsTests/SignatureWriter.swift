import SwiftASN1

/// Builds the CMS signature of a code signature (slot `0x10000`) for the tests, with swift-asn1's
/// DER serializer: a SignedData with detached content, a certificate chain and one SignerInfo.
/// Nothing is really signed: keys and signatures are placeholder bytes with the right tags, which
/// is all a reader that does not verify needs (RFC 5280 section 4.1, RFC 5652 section 5).
enum SignatureWriter {
    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    static let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    static let rsaOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    static let sha256WithRSAOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 11]
    static let tag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    /// A distinguished name: (OID, value) attributes, one per RDN, in order.
    struct Name: Equatable {
        var attributes: [(ASN1ObjectIdentifier, String)]

        static func == (a: Name, b: Name) -> Bool {
            a.attributes.map { "\($0.0)=\($0.1)" } == b.attributes.map { "\($0.0)=\($0.1)" }
        }

        /// `CN=..., OU=..., O=..., C=US` as Apple's certificates order them (OU first).
        static func person(cn: String, ou: String?, o: String = "Example Ltd") -> Name {
            var a: [(ASN1ObjectIdentifier, String)] = []
            if let ou { a.append(([2, 5, 4, 11], ou)) }
            a.append(([2, 5, 4, 3], cn))
            a.append(([2, 5, 4, 10], o))
            a.append(([2, 5, 4, 6], "US"))
            return Name(attributes: a)
        }

        func serialize(into s: inout DER.Serializer) throws {
            try s.appendConstructedNode(identifier: .sequence) { s in
                for (oid, value) in attributes {
                    try s.appendConstructedNode(identifier: .set) { s in
                        try s.appendConstructedNode(identifier: .sequence) { s in
                            try s.serialize(oid)
                            try s.serialize(ASN1UTF8String(value))
                        }
                    }
                }
            }
        }
    }

    struct Certificate {
        var serial: Int
        var issuer: Name
        var subject: Name
        var notBefore = (2025, 1, 1)
        var notAfter = (2026, 12, 31)

        func der() -> [UInt8] {
            var s = DER.Serializer()
            try! s.appendConstructedNode(identifier: .sequence) { s in
                try s.appendConstructedNode(identifier: .sequence) { s in   // tbsCertificate
                    try s.appendConstructedNode(identifier: SignatureWriter.tag0) { s in try s.serialize(2) }   // v3
                    try s.serialize(serial)
                    try algorithm(SignatureWriter.sha256WithRSAOID, into: &s)
                    try issuer.serialize(into: &s)
                    try s.appendConstructedNode(identifier: .sequence) { s in
                        try s.serialize(UTCTime(year: notBefore.0, month: notBefore.1, day: notBefore.2, hours: 0, minutes: 0, seconds: 0))
                        try s.serialize(UTCTime(year: notAfter.0, month: notAfter.1, day: notAfter.2, hours: 23, minutes: 59, seconds: 59))
                    }
                    try subject.serialize(into: &s)
                    try s.appendConstructedNode(identifier: .sequence) { s in   // subjectPublicKeyInfo
                        try algorithm(SignatureWriter.rsaOID, into: &s)
                        try s.serialize(ASN1BitString(bytes: [0x30, 0x03, 0x02, 0x01, 0x05][...]))
                    }
                }
                try algorithm(SignatureWriter.sha256WithRSAOID, into: &s)
                try s.serialize(ASN1BitString(bytes: [UInt8](repeating: 0x5a, count: 32)[...]))
            }
            return s.serializedBytes
        }
    }

    static func algorithm(_ oid: ASN1ObjectIdentifier, into s: inout DER.Serializer) throws {
        try s.appendConstructedNode(identifier: .sequence) { s in
            try s.serialize(oid)
            try s.serialize(ASN1Null())
        }
    }

    static let appleRoot = Name(attributes: [([2, 5, 4, 3], "Apple Root CA"), ([2, 5, 4, 11], "Apple Certification Authority"),
                                             ([2, 5, 4, 10], "Apple Inc."), ([2, 5, 4, 6], "US")])
    static let wwdr = Name(attributes: [([2, 5, 4, 3], "Apple Worldwide Developer Relations Certification Authority"),
                                        ([2, 5, 4, 11], "G3"), ([2, 5, 4, 10], "Apple Inc."), ([2, 5, 4, 6], "US")])

    /// The leaf `cn` (team `ou`) issued by the WWDR intermediate, itself issued by the root.
    static func chain(cn: String, ou: String? = "ABCDE12345", notAfter: (Int, Int, Int) = (2026, 12, 31)) -> [Certificate] {
        [
            Certificate(serial: 0x2a, issuer: appleRoot, subject: wwdr),
            Certificate(serial: 0x1234_5678, issuer: wwdr, subject: .person(cn: cn, ou: ou), notAfter: notAfter),
            Certificate(serial: 2, issuer: appleRoot, subject: appleRoot),
        ]
    }

    /// The SignedData: `certificates` (in this order) and one SignerInfo naming the certificate
    /// `issuer` + `serial` (nil: leave out SignerInfos' content, an empty SET).
    static func signedData(certificates: [Certificate], signer: (issuer: Name, serial: Int)?) -> [UInt8] {
        signedData(certificateDER: certificates.map { $0.der() }, signer: signer)
    }

    /// The same with the certificates given as bytes (which may be anything).
    static func signedData(certificateDER certificates: [[UInt8]], signer: (issuer: Name, serial: Int)?) -> [UInt8] {
        var s = DER.Serializer()
        try! s.appendConstructedNode(identifier: .sequence) { s in
            try s.serialize(signedDataOID)
            try s.appendConstructedNode(identifier: tag0) { s in
                try s.appendConstructedNode(identifier: .sequence) { s in
                    try s.serialize(1)
                    try s.appendConstructedNode(identifier: .set) { s in
                        try s.appendConstructedNode(identifier: .sequence) { s in try s.serialize(sha256OID) }
                    }
                    try s.appendConstructedNode(identifier: .sequence) { s in try s.serialize(dataOID) }   // detached
                    if !certificates.isEmpty {
                        s.appendConstructedNode(identifier: tag0) { s in
                            for c in certificates { s.serializeRawBytes(c) }
                        }
                    }
                    try s.appendConstructedNode(identifier: .set) { s in
                        guard let signer else { return }
                        try s.appendConstructedNode(identifier: .sequence) { s in
                            try s.serialize(1)
                            try s.appendConstructedNode(identifier: .sequence) { s in
                                try signer.issuer.serialize(into: &s)
                                try s.serialize(signer.serial)
                            }
                            try s.appendConstructedNode(identifier: .sequence) { s in try s.serialize(sha256OID) }
                            try algorithm(rsaOID, into: &s)
                            try s.serialize(ASN1OctetString(contentBytes: [UInt8](repeating: 0xa5, count: 64)[...]))
                        }
                    }
                }
            }
        }
        return s.serializedBytes
    }

    /// What `codesign -s "<cn>"` writes, as far as the linter reads it: the chain, signer the leaf.
    static func signature(cn: String, ou: String? = "ABCDE12345", notAfter: (Int, Int, Int) = (2026, 12, 31)) -> [UInt8] {
        let certificates = chain(cn: cn, ou: ou, notAfter: notAfter)
        return signedData(certificates: certificates, signer: (wwdr, 0x1234_5678))
    }
}
