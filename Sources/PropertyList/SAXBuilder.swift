internal import CLibXML2

/// Builds the tree from libxml2's callbacks. One builder serves one parse on one thread, and no
/// callback runs while another is inside a mutation of these properties, so Swift's dynamic
/// exclusivity checks on them (`@exclusivity(unchecked)`) can never fire; they cost 3% of a lint
/// run of many files.
final class SAXBuilder {
    /// An open container. A class, so appending to it mutates in place (no enum copies).
    final class Frame {
        enum Kind { case plist, array, dict }
        let kind: Kind
        let location: SourceLocation
        @exclusivity(unchecked) var items: [PlistNode] = []
        @exclusivity(unchecked) var dict = PlistDictionary()
        @exclusivity(unchecked) var pendingKey: (String, SourceLocation)?
        init(_ kind: Kind, _ location: SourceLocation) {
            self.kind = kind
            self.location = location
        }
    }

    let limits: PlistLimits
    @exclusivity(unchecked) var ctxt: xmlParserCtxtPtr?
    @exclusivity(unchecked) var stack: [Frame] = []
    @exclusivity(unchecked) var root: PlistNode?
    @exclusivity(unchecked) var comments: [PlistDocument.Comment] = []
    @exclusivity(unchecked) var error: PlistError?
    @exclusivity(unchecked) var libxmlError: PlistError?
    @exclusivity(unchecked) var elementCount = 0
    @exclusivity(unchecked) var sawRootElement = false
    @exclusivity(unchecked) var plistClosed = false
    @exclusivity(unchecked) var hyphenInComment = false
    /// The start of the last comment located: where it is in the buffer and its column (0:
    /// unknown), for `commentStart`.
    @exclusivity(unchecked) var columnMark: (base: UnsafePointer<UInt8>?, consumed: UInt, offset: Int, column: Int) = (nil, 0, -1, 0)
    /// Bytes `commentStart` scanned back over, in all: at most the size of the input.
    @exclusivity(unchecked) var scannedBack = 0

    // The leaf element being read (key, string, integer, ...), with its text so far.
    @exclusivity(unchecked) var leaf: PlistElement?
    @exclusivity(unchecked) var leafLocation = SourceLocation.unknown
    @exclusivity(unchecked) var text: [UInt8] = []
    @exclusivity(unchecked) var leafHasChild = false

    init(limits: PlistLimits) {
        self.limits = limits
        text.reserveCapacity(256)
    }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> SAXBuilder {
        Unmanaged<SAXBuilder>.fromOpaque(ctx!).takeUnretainedValue()
    }

    func fail(_ code: PlistError.Code, _ reason: String, at location: SourceLocation? = nil, limit: PlistLimits.Kind? = nil) {
        // After a libxml2 well-formedness error, that error is the cause of whatever follows.
        guard error == nil, libxmlError == nil else { return }
        error = PlistError(code, reason, at: location ?? tagStart(), limit: limit)
        if let ctxt { xmlStopParser(ctxt) }
    }
}
