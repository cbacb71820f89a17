public import PropertyList

/// Reads `.mobileprovision` / `.provisionprofile` files.
///
/// A profile is a CMS SignedData whose encapsulated content is a property list (keychain-access-groups.md
/// section 3); some files with these names are bare property lists, empty, or junk (section 6).
/// The wrapper is chosen from the **first byte only**, never by searching the bytes for `<?xml`:
///
/// - `0x30` (an ASN.1 SEQUENCE): CMS, see `CMSSignedData`;
/// - `<`, a byte-order mark (`EF BB BF`, `FE FF`, `FF FE`, `00 00 FE FF`), XML whitespace, or
///   `bplist`: a property list, envelope `.plainPlist`;
/// - no bytes: `.empty`; anything else: `.notCMS`.
///
/// The limits in `PlistLimits` apply to the embedded plist; `maxBytes` also bounds the whole file.
/// `DER-Encoded-Profile` (a nested CMS in modern profiles) is left in `document`, not decoded.
public enum ProfileDecoder {
    /// Decodes a CMS-wrapped (DER or BER) or plain-plist profile.
    public static func decode(_ bytes: [UInt8], limits: PlistLimits = .default) throws(ProfileError) -> ProvisioningProfile {
        guard let first = bytes.first else {
            throw ProfileError(.empty, "the file is empty: not a provisioning profile")
        }
        let plist: [UInt8]
        let envelope: ProfileEnvelope
        if first == 0x30 {
            guard bytes.count <= limits.maxBytes else {
                throw ProfileError(.malformedCMS,
                    "the file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
            }
            (plist, envelope) = try CMSSignedData.encapsulatedContent(bytes, maxElements: limits.maxElements)
        } else if looksLikePropertyList(bytes) {
            (plist, envelope) = (bytes, .plainPlist)
        } else {
            throw ProfileError(.notCMS, "not a CMS SignedData profile nor a property list: starts with \(preview(bytes))")
        }

        let document: PlistDocument
        do {
            document = try PropertyListReader.parse(plist, limits: limits)
        } catch {
            let what = envelope == .plainPlist ? "the property list" : "the property list inside the CMS"
            throw ProfileError(.invalidPlist, "\(what) is invalid: \(error.reason)", at: error.location, limit: error.limit)
        }
        return try ProvisioningProfile(document: document, envelope: envelope)
    }

    /// Just the encapsulated content of a CMS SignedData (OID 1.2.840.113549.1.7.2 ->
    /// encapContentInfo (1.2.840.113549.1.7.1) -> [0] EXPLICIT OCTET STRING, constructed pieces
    /// concatenated).
    public static func encapsulatedContent(ofCMS bytes: [UInt8]) throws(ProfileError) -> (content: [UInt8], envelope: ProfileEnvelope) {
        try CMSSignedData.encapsulatedContent(bytes)
    }

    /// Whether the first bytes can start a property list: `<`, a BOM, XML whitespace, `bplist`.
    static func looksLikePropertyList(_ bytes: [UInt8]) -> Bool {
        func starts(with prefix: [UInt8]) -> Bool {
            bytes.count >= prefix.count && bytes[0..<prefix.count].elementsEqual(prefix)
        }
        switch bytes.first {
        case UInt8(ascii: "<"), 0x20, 0x09, 0x0A, 0x0D: return true
        default:
            return starts(with: [0xEF, 0xBB, 0xBF]) || starts(with: [0xFE, 0xFF]) || starts(with: [0xFF, 0xFE])
                || starts(with: [0x00, 0x00, 0xFE, 0xFF]) || starts(with: Array("bplist".utf8))
        }
    }

    /// The first 8 bytes quoted for a message: printable ASCII as is, others as `\xNN`, and
    /// `...` when there is more, e.g. `'Dummy fi...'`.
    static func preview(_ bytes: [UInt8], count: Int = 8) -> String {
        var text = ""
        for b in bytes.prefix(count) {
            if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "'") && b != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                let hex = String(b, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return "'" + text + (bytes.count > count ? "...'" : "'")
    }
}
