/// Why an input was rejected: a machine-readable `code`, a human `reason`, where in a property
/// list the fault is (when that is known) and the limit that was passed (when that is why).
/// Equality is on `code` only, like swift-asn1's `ASN1Error`: the reason is prose, for people.
///
/// Each reader names its own codes (`PlistErrorCode`, `ProfileErrorCode`, ...) and its error type
/// is this struct over them, so a caller catches exactly the errors of the reader it called.
public struct CodedError<Codes: Hashable & Sendable>: Error, Sendable, CustomStringConvertible, Equatable {
    /// The reader's codes, so that `PlistError.Code` names `PlistErrorCode`.
    public typealias Code = Codes

    public var code: Code
    public var reason: String
    /// Line and column inside the property list at fault, else `.unknown`.
    public var location: SourceLocation
    /// The limit that was passed, when that is why the input was refused (so that a tool can
    /// say how to raise it).
    public var limit: PlistLimits.Kind?

    public init(_ code: Code, _ reason: String, at location: SourceLocation = .unknown, limit: PlistLimits.Kind? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
        self.limit = limit
    }

    public static func == (a: CodedError, b: CodedError) -> Bool { a.code == b.code }

    /// The reason, after the line when the line is known.
    public var description: String {
        location.isKnown ? "line \(location.line): \(reason)" : reason
    }
}
