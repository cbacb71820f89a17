internal import SwiftASN1

// The messages of a CMS SignedData reader: ASN.1 tags and OIDs by name, and swift-asn1's errors as
// sentences that say what is wrong with the file.

extension CMSSignedData {
    // MARK: - Messages

    static func describe(_ node: ASN1Node) -> String {
        if case .constructed = node.content {
            return "a constructed \(name(node.identifier))"
        }
        return "a primitive \(name(node.identifier))"
    }

    /// X.680 names for the universal tags that can turn up here; `[n]` for context-specific ones.
    static func name(_ identifier: ASN1Identifier) -> String {
        switch identifier.tagClass {
        case .contextSpecific: return "[\(identifier.tagNumber)]"
        case .application: return "[APPLICATION \(identifier.tagNumber)]"
        case .private: return "[PRIVATE \(identifier.tagNumber)]"
        case .universal: break
        }
        switch identifier.tagNumber {
        case 1: return "BOOLEAN"
        case 2: return "INTEGER"
        case 3: return "BIT STRING"
        case 4: return "OCTET STRING"
        case 5: return "NULL"
        case 6: return "OBJECT IDENTIFIER"
        case 10: return "ENUMERATED"
        case 12: return "UTF8String"
        case 16: return "SEQUENCE"
        case 17: return "SET"
        case 19: return "PrintableString"
        case 22: return "IA5String"
        case 23: return "UTCTime"
        case 24: return "GeneralizedTime"
        default: return "[UNIVERSAL \(identifier.tagNumber)]"
        }
    }

    static let knownOIDs: [ASN1ObjectIdentifier: String] = [
        [1, 2, 840, 113_549, 1, 7, 1]: "data",
        [1, 2, 840, 113_549, 1, 7, 2]: "signedData",
        [1, 2, 840, 113_549, 1, 7, 3]: "envelopedData",
        [1, 2, 840, 113_549, 1, 7, 4]: "signedAndEnvelopedData",
        [1, 2, 840, 113_549, 1, 7, 5]: "digestedData",
        [1, 2, 840, 113_549, 1, 7, 6]: "encryptedData",
        [1, 2, 840, 113_549, 1, 9, 16, 1, 2]: "authData",
    ]

    static func describe(_ oid: ASN1ObjectIdentifier) -> String {
        if let name = knownOIDs[oid] { return "\(oid) (\(name))" }
        return "\(oid)"
    }

    /// A swift-asn1 error as a sentence (its `description` also names swift-asn1's source line).
    static func malformed(_ error: any Error, in bytes: [UInt8]) -> ProfileError {
        guard let asn1 = error as? ASN1Error else {
            return ProfileError(.malformedCMS, "not valid BER: \(error)")
        }
        let text: String
        switch asn1.code {
        case .truncatedASN1Field:
            text = "truncated: an element runs past the end of the \(bytes.count)-byte file"
                + " (a length too large, or an indefinite length without its end-of-contents 00 00)"
        case .unsupportedFieldLength:
            text = "unsupported length: \(reason(asn1))"
        default:
            let r = reason(asn1)
            if r.hasPrefix("Excessive stack depth") {
                text = "nested more than 50 levels deep (the parser's limit)"
            } else if r.hasPrefix("Trailing unparsed data") {
                text = trailingDataMessage(bytes)
            } else if r.hasPrefix("Unable to treat"), r.hasSuffix("as a UInt") {
                text = "a length field longer than 8 bytes (\(r))"
            } else if r.hasPrefix("Excessively large field") {
                text = "a length does not fit in a signed 64-bit integer (\(r))"
            } else {
                text = r
            }
        }
        return ProfileError(.malformedCMS, "not valid BER/DER: \(text)")
    }

    /// Says how many bytes follow the outer SEQUENCE when its length is definite.
    static func trailingDataMessage(_ bytes: [UInt8]) -> String {
        if let end = definiteEnd(bytes), end < bytes.count {
            return "\(bytes.count - end) bytes of trailing data after the outer SEQUENCE, which ends at offset \(end)"
        }
        return "trailing data after the outer SEQUENCE"
    }

    /// End offset of the first TLV when its tag is one byte and its length definite, else nil.
    static func definiteEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2, bytes[0] & 0x1f != 0x1f else { return nil }
        let first = bytes[1]
        if first < 0x80 { return 2 + Int(first) }
        let n = Int(first & 0x7f)
        guard n >= 1, n <= 8, bytes.count >= 2 + n else { return nil }
        var length: UInt64 = 0
        for b in bytes[2..<(2 + n)] { length = length << 8 | UInt64(b) }
        guard let l = Int(exactly: length) else { return nil }
        let (end, overflow) = (2 + n).addingReportingOverflow(l)
        return overflow ? nil : end
    }

    /// swift-asn1 formats errors as "ASN1Error.<code>: <reason> <file>:<line>"; keep the reason.
    static func reason(_ error: any Error) -> String {
        var text = "\(error)"
        if text.hasPrefix("ASN1Error."), let colon = text.firstRange(of: ": ") {
            text = String(text[colon.upperBound...])
            if let space = text.lastIndex(of: " "), text[text.index(after: space)...].contains(".swift:") {
                text = String(text[..<space])
            }
        }
        return text.isEmpty ? "\(error)" : text
    }
}
