/// How a profile file was wrapped around its property list.
public enum ProfileEnvelope: String, Sendable, Hashable {
    /// CMS SignedData that parses under DER rules (definite, minimal lengths) and carries its
    /// content in one primitive OCTET STRING: what Apple's servers produce.
    case der
    /// CMS SignedData that needs BER: indefinite lengths (`30 80 ... 00 00`), non-minimal length
    /// encodings, or a constructed OCTET STRING split into pieces (`openssl cms -sign -stream`).
    case ber
    /// No CMS at all: a bare XML or binary property list named `.mobileprovision` /
    /// `.provisionprofile` (test fixtures, decoded copies).
    case plainPlist
}
