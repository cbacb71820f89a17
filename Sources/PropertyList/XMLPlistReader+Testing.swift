internal import CLibXML2

/// What the tests and the fuzz harnesses ask of the XML reader besides `parse`.
extension XMLPlistReader {
    /// The two ways of handing a document to libxml2, for the tests and the fuzzer that check
    /// they agree: `inPlace` is what `parse` gives when it reads the bytes in place (nil when it
    /// would not), `copied` what libxml2's own memory parser gives.
    @_spi(Testing) public static func parseBothWays(_ bytes: [UInt8], limits: PlistLimits = .default)
        -> (inPlace: Result<PlistDocument, PlistError>?, copied: Result<PlistDocument, PlistError>) {
        let copied = Result { () throws(PlistError) -> PlistDocument in try parse(bytes, limits: limits, forcing: .copied) }
        guard InputMode.inPlaceFits(bytes) else { return (nil, copied) }
        return (Result { () throws(PlistError) -> PlistDocument in try parse(bytes, limits: limits) }, copied)
    }

    /// Whether both ways agree (`parseBothWays`): nil when they do (or the bytes are not read in
    /// place), else what differs. One difference is allowed, in favour of reading in place:
    /// libxml2's copying buffer drops what lies more than 80 bytes behind the parser, so the
    /// start of a long comment that spans lines is gone when the comment ends and its column is
    /// unknown (0) there; in place the whole document stays readable and the column is found.
    @_spi(Testing) public static func inputModeDisagreement(_ bytes: [UInt8], limits: PlistLimits = .default) -> String? {
        let (inPlace, copied) = parseBothWays(bytes, limits: limits)
        guard let inPlace else { return nil }
        switch (inPlace, copied) {
        case (.success(let a), .success(var b)):
            if b.comments.count == a.comments.count {
                for i in b.comments.indices where b.comments[i].location.column == 0 && b.comments[i].location.line == a.comments[i].location.line {
                    b.comments[i].location.column = a.comments[i].location.column
                }
            }
            // `==` says a NaN differs from itself: documents that print the same agree.
            return a == b || "\(a)" == "\(b)" ? nil : "in place: \(a)\ncopied: \(b)"
        case (.failure(let a), .failure(let b)):
            return a == b ? nil : "in place: \(a)\ncopied: \(b)"
        default:
            return "in place: \(inPlace)\ncopied: \(copied)"
        }
    }

    /// The bytes `parse` scans back over to locate the comments of `bytes`: at most their size,
    /// however many comments a line holds (for the tests of that bound).
    @_spi(Testing) public static func commentScanCost(_ bytes: [UInt8], limits: PlistLimits = .default) -> Int {
        let mode: InputMode = InputMode.inPlaceFits(bytes) ? .inPlace : .copied
        return parseOnce(bytes, limits: limits, mode: mode).scannedBack
    }

    /// One read in the given mode, whatever the bytes would get from `parse`.
    static func parse(_ bytes: [UInt8], limits: PlistLimits, forcing mode: InputMode) throws(PlistError) -> PlistDocument {
        try preflight(bytes, limits: limits)
        entitlint_silenceGenericErrors()
        return try parseOnce(bytes, limits: limits, mode: mode).result.get()
    }
}
