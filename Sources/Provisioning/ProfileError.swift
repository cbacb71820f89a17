public import PropertyList

/// Why a file could not be read as a provisioning profile: a code, a human reason and, when the
/// embedded property list is at fault, the line inside that plist (`CodedError`: equality on the
/// code only).
public typealias ProfileError = CodedError<ProfileErrorCode>

/// What was wrong with a file that is not a readable provisioning profile.
public enum ProfileErrorCode: String, Sendable, Hashable {
    /// The file has no bytes at all.
    case empty
    /// The first byte is neither an ASN.1 SEQUENCE (0x30) nor the start of a property list
    /// (`<`, a byte-order mark, whitespace, `bplist`).
    case notCMS
    /// Starts like CMS but is not valid BER, or not shaped like ContentInfo / SignedData:
    /// truncation, a length past the end or beyond 2^63, nesting deeper than swift-asn1's
    /// limit of 50, trailing bytes after the outer SEQUENCE, a missing or mistagged field.
    case malformedCMS
    /// ContentInfo is not SignedData (1.2.840.113549.1.7.2), or the encapsulated content is
    /// not id-data (1.2.840.113549.1.7.1).
    case unexpectedContentType
    /// SignedData without encapsulated content (a detached signature), or with an empty one.
    case noContent
    /// The (embedded) property list is not a valid plist; `location` is its line.
    case invalidPlist
    /// A valid property list that is not a profile: its root is not a dict, or the dict has
    /// none of the profile keys.
    case notAProfile
}
