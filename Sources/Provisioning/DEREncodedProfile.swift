internal import SwiftASN1
public import PropertyList

/// The `DER-Encoded-Profile` of a modern profile (keychain-access-groups.md section 3: a second CMS blob, the
/// modern source of truth), decoded into the same value tree as the XML plist so the two can be
/// compared key by key.
///
/// Layout, as observed with `openssl asn1parse` on the corpus's Apple-made profiles (2022-2024):
/// a CMS SignedData (RFC 5652, the same envelope as the profile itself) whose encapsulated
/// content is
///
///     Profile ::= SET OF SEQUENCE { key UTF8String, value Value }
///     Value   ::= UTF8String | INTEGER | BOOLEAN | UTCTime / GeneralizedTime (a date)
///               | NumericString (an integer, in profiles of 2021-2022)
///               | SEQUENCE OF Value (an array) | OCTET STRING (data)
///               | [APPLICATION 16] { 1, dict }   -- Entitlements, as DER entitlements
///
/// with the keys of the XML plist (`UUID`, `TeamIdentifier`, `ProvisionedDevices`,
/// `Entitlements`, ...). `DeveloperCertificates` holds SHA-256 digests of the certificates,
/// not the certificates, so it is not comparable with the XML's.
public enum DEREncodedProfile {
    /// Decodes the payload of `DER-Encoded-Profile` (the CMS blob) into a dict.
    public static func decode(_ bytes: [UInt8], limits: PlistLimits = .default) throws(DERValueError) -> PlistDictionary {
        let content: [UInt8]
        do {
            content = try CMSSignedData.encapsulatedContent(bytes, maxElements: limits.maxElements).content
        } catch {
            throw DERValueError(.malformed, "its CMS envelope is invalid: \(error.reason)")
        }
        let root = try DEREntitlements.parse(content, maxElements: limits.maxElements)
        guard root.identifier == .set, case .constructed(let entries) = root.content else {
            throw DERValueError(.unexpectedShape, "its content is \(CMSSignedData.describe(root)), expected a SET of key-value pairs")
        }
        var dict = PlistDictionary()
        for entry in entries {
            let (key, valueNode) = try DEREntitlements.keyValue(entry, in: "")
            dict.append(.init(key: key, keyLocation: .unknown, value: try value(valueNode, key: key)))
        }
        return dict
    }

    static func value(_ node: ASN1Node, key: String) throws(DERValueError) -> PlistNode {
        switch node.identifier {
        case DEREntitlements.applicationTag16:
            return try DEREntitlements.value(ofEntitlements: node)
        case .utcTime:
            do {
                let t = try UTCTime(derEncoded: node)
                return PlistNode(.date(PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)))
            } catch {
                throw DERValueError(.malformed, "the date \(key) is not a valid UTCTime")
            }
        case .generalizedTime:
            do {
                let t = try GeneralizedTime(derEncoded: node)
                return PlistNode(.date(PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)))
            } catch {
                throw DERValueError(.malformed, "the date \(key) is not a valid GeneralizedTime")
            }
        case .numericString, .printableString, .ia5String:
            // Profiles of 2021-2022 write integers (`Version`, `TimeToLive`) as NumericString.
            guard case .primitive(let bytes) = node.content, let text = String(validatingUTF8Bytes: bytes) else {
                throw DERValueError(.unexpectedShape, "\(key) is not a valid string")
            }
            if node.identifier == .numericString, let n = Int64(text) { return PlistNode(.integer(.signed(n))) }
            return PlistNode(.string(text))
        case .octetString:
            guard case .primitive(let bytes) = node.content else {
                throw DERValueError(.unexpectedShape, "\(key) is a constructed OCTET STRING")
            }
            return PlistNode(.data(Array(bytes)))
        case .sequence:
            guard case .constructed(let children) = node.content else {
                throw DERValueError(.unexpectedShape, "\(key) is a primitive SEQUENCE")
            }
            var items: [PlistNode] = []
            for (i, child) in children.enumerated() { items.append(try value(child, key: "\(key)[\(i)]")) }
            return PlistNode(.array(items))
        default:
            return try DEREntitlements.value(node, path: key)
        }
    }
}

extension ProvisioningProfile {
    /// The raw `DER-Encoded-Profile` payload, when the plist has one (as `<data>`).
    public var derEncodedProfileData: [UInt8]? { document.root.dict?["DER-Encoded-Profile"]?.data }

    /// The decoded `DER-Encoded-Profile`: nil when the plist has none, else the dict or why it
    /// cannot be read.
    public func decodedDEREncodedProfile(limits: PlistLimits = .default) -> Result<PlistDictionary, DERValueError>? {
        guard let node = document.root.dict?["DER-Encoded-Profile"] else { return nil }
        guard let bytes = node.data else {
            return .failure(DERValueError(.unexpectedShape, "DER-Encoded-Profile is \(node.value.typeName == "integer" ? "an" : "a") \(node.value.typeName), not <data>"))
        }
        do throws(DERValueError) { return .success(try DEREncodedProfile.decode(bytes, limits: limits)) } catch { return .failure(error) }
    }
}
