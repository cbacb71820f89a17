internal import SwiftASN1
public import PropertyList

/// Why DER-encoded entitlements (or a `DER-Encoded-Profile`) could not be read (`CodedError`:
/// equality on the code only; DER has no lines, so the location stays unknown).
public typealias DERValueError = CodedError<DERValueErrorCode>

/// What was wrong with DER-encoded entitlements.
public enum DERValueErrorCode: String, Sendable, Hashable {
    /// Not valid DER: truncated, a length past the end, trailing bytes, too deep.
    case malformed
    /// Valid DER, but not the shape of entitlements / a profile (a wrong tag, a missing key).
    case unexpectedShape
    /// More elements than the limit allows.
    case tooLarge
}

/// DER entitlements: the payload of the code-signature blob `0xfade7172` (slot 7, keychain-access-groups.md
/// section 7) and the `Entitlements` value of a `DER-Encoded-Profile`.
///
/// The layout, as observed in Apple-made profiles (`openssl asn1parse` of the corpus's
/// `DER-Encoded-Profile` payloads) and described for the code-signature blob:
///
///     Entitlements ::= [APPLICATION 16] IMPLICIT SEQUENCE {
///         version INTEGER (1),
///         dict    Dict }
///     Dict  ::= [CONTEXT 16] IMPLICIT SET OF SEQUENCE { key UTF8String, value Value }
///     Value ::= UTF8String | BOOLEAN | INTEGER | SEQUENCE OF Value (an array) | Dict
///
/// There is no encoding for `<data>`, `<date>` or `<real>` (keychain-access-groups.md section 7): a plist with
/// such values cannot be signed into DER entitlements. The value tree produced here is the same
/// `PlistNode` tree the XML reader gives, without source locations.
///
/// Parsing is swift-asn1's strict `DER.parse` (every length checked against the input, depth at
/// most 50, no trailing bytes), after our linear element count (`CMSSignedData.elementCount`).
public enum DEREntitlements {
    static let applicationTag16 = ASN1Identifier(tagWithNumber: 16, tagClass: .application)
    static let dictTag = ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)

    /// Decodes a whole DER entitlements blob payload (`[APPLICATION 16] { 1, dict }`) into its
    /// root dict.
    public static func decode(_ bytes: [UInt8], maxElements: Int = PlistLimits.default.maxElements) throws(DERValueError) -> PlistNode {
        let root = try parse(bytes, maxElements: maxElements)
        return try value(ofEntitlements: root)
    }

    /// Parses DER after bounding the number of elements (swift-asn1 keeps a node per element).
    static func parse(_ bytes: [UInt8], maxElements: Int) throws(DERValueError) -> ASN1Node {
        guard !bytes.isEmpty else { throw DERValueError(.malformed, "no bytes") }
        guard CMSSignedData.elementCount(bytes, limit: maxElements) <= maxElements else {
            throw DERValueError(.tooLarge, "more than \(maxElements) DER elements")
        }
        do {
            return try DER.parse(bytes)
        } catch {
            throw DERValueError(.malformed, CMSSignedData.malformed(error, in: bytes).reason)
        }
    }

    /// `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] { ... } }` -> the dict.
    static func value(ofEntitlements node: ASN1Node) throws(DERValueError) -> PlistNode {
        guard node.identifier == applicationTag16, case .constructed(let children) = node.content else {
            throw DERValueError(.unexpectedShape,
                "DER entitlements start with \(CMSSignedData.describe(node)), expected a constructed [APPLICATION 16]")
        }
        var it = children.makeIterator()
        guard let version = it.next(), version.identifier == .integer else {
            throw DERValueError(.unexpectedShape, "DER entitlements lack their version INTEGER")
        }
        guard let dict = it.next() else {
            throw DERValueError(.unexpectedShape, "DER entitlements lack their dict ([CONTEXT 16])")
        }
        guard it.next() == nil else {
            throw DERValueError(.unexpectedShape, "DER entitlements have an element after their dict")
        }
        guard dict.identifier == dictTag else {
            throw DERValueError(.unexpectedShape,
                "DER entitlements hold \(CMSSignedData.describe(dict)), expected a dict ([CONTEXT 16])")
        }
        return try value(dict, path: "")
    }

    /// One DER value as a plist node. Recursion is bounded by the parser's depth limit (50).
    static func value(_ node: ASN1Node, path: String) throws(DERValueError) -> PlistNode {
        let at = path.isEmpty ? "" : " at \(path)"
        switch node.content {
        case .primitive(let bytes):
            switch node.identifier {
            case .utf8String:
                guard let s = String(validatingUTF8Bytes: bytes) else {
                    throw DERValueError(.unexpectedShape, "a UTF8String\(at) is not valid UTF-8")
                }
                return PlistNode(.string(s))
            case .boolean:
                do { return PlistNode(.bool(try Bool(derEncoded: node))) } catch {
                    throw DERValueError(.malformed, "a BOOLEAN\(at) is not valid DER: \(CMSSignedData.reason(error))")
                }
            case .integer:
                do { return PlistNode(.integer(.signed(try Int64(derEncoded: node)))) } catch {
                    throw DERValueError(.unexpectedShape, "an INTEGER\(at) does not fit in 64 bits or is not valid DER")
                }
            default:
                throw DERValueError(.unexpectedShape,
                    "\(CMSSignedData.describe(node))\(at) is not an entitlement value (UTF8String, BOOLEAN, INTEGER, SEQUENCE or [CONTEXT 16])")
            }
        case .constructed(let children):
            if node.identifier == .sequence {
                var items: [PlistNode] = []
                for (i, child) in children.enumerated() {
                    items.append(try value(child, path: "\(path)[\(i)]"))
                }
                return PlistNode(.array(items))
            }
            guard node.identifier == dictTag else {
                throw DERValueError(.unexpectedShape,
                    "\(CMSSignedData.describe(node))\(at) is not an entitlement value (UTF8String, BOOLEAN, INTEGER, SEQUENCE or [CONTEXT 16])")
            }
            var dict = PlistDictionary()
            for pair in children {
                let (key, valueNode) = try keyValue(pair, in: path)
                let child = try value(valueNode, path: path.isEmpty ? key : "\(path).\(key)")
                dict.append(.init(key: key, keyLocation: .unknown, value: child))
            }
            return PlistNode(.dict(dict))
        }
    }

    /// `SEQUENCE { UTF8String key, value }`.
    static func keyValue(_ node: ASN1Node, in path: String) throws(DERValueError) -> (String, ASN1Node) {
        let at = path.isEmpty ? "" : " in \(path)"
        guard node.identifier == .sequence, case .constructed(let parts) = node.content else {
            throw DERValueError(.unexpectedShape, "a dict entry\(at) is \(CMSSignedData.describe(node)), expected a SEQUENCE { key, value }")
        }
        var it = parts.makeIterator()
        guard let keyNode = it.next(), keyNode.identifier == .utf8String, case .primitive(let keyBytes) = keyNode.content,
              let key = String(validatingUTF8Bytes: keyBytes) else {
            throw DERValueError(.unexpectedShape, "a dict entry\(at) does not start with a UTF8String key")
        }
        guard let valueNode = it.next(), it.next() == nil else {
            throw DERValueError(.unexpectedShape, "the dict entry \"\(key)\"\(at) is not exactly a key and a value")
        }
        return (key, valueNode)
    }
}

extension String {
    /// The string when `bytes` are valid UTF-8, else nil.
    init?(validatingUTF8Bytes bytes: ArraySlice<UInt8>) {
        var out = ""
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): out.unicodeScalars.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = out
    }
}
