internal import CLibXML2

/// Reads XML property lists with libxml2's SAX2 interface, straight into `PlistNode`s: no DOM is
/// built, and every node keeps the line and column of its start tag.
///
/// What is accepted follows CoreFoundation's parser (DOMAIN.md section 5):
/// - elements `plist, dict, key, array, string, data, date, integer, real, true, false`; anything
///   else is an error; a bare value root (`<dict>` without `<plist>`) parses; `<plist>` holds
///   exactly one value;
/// - `<dict>` alternates `key` and value; duplicate keys are kept (the last wins, see
///   `PlistDictionary.shadowedEntries`);
/// - string and key content verbatim (no trimming), CDATA allowed, comments not allowed inside;
/// - entities: the five predefined ones and numeric references only; any declaration in an
///   internal DTD subset (`<!DOCTYPE plist [ ... ]>`) is rejected; the external DTD is never
///   loaded and nothing touches the network;
/// - `<date>` exactly `YYYY-MM-DDTHH:MM:SSZ`; `<integer>` decimal or `0x` hex with optional sign
///   in the Int64/UInt64 range; `<data>` base64 with non-alphabet characters skipped;
/// - encodings: whatever libxml2 detects from the BOM or the declaration (UTF-8, UTF-16).
public enum XMLPlistReader {
    /// What is refused before libxml2 sees the bytes.
    static func preflight(_ bytes: [UInt8], limits: PlistLimits) throws(PlistError) {
        guard !bytes.isEmpty else { throw PlistError(.empty, "the file is empty") }
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        guard bytes.count <= Int(Int32.max) else { throw PlistError(.tooLarge, "file too large") }
        if !startsWithByteOrderMark(bytes), bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            // CoreFoundation finds the encoding from a BOM or from an ASCII `encoding=`: UTF-16
            // or UTF-32 text without a BOM is unreadable to it (libxml2 would guess).
            throw PlistError(.invalidEncoding, "UTF-16 or UTF-32 text without a byte-order mark: CoreFoundation cannot read it",
                             at: SourceLocation(line: 1, column: 1))
        }
    }

    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        try preflight(bytes, limits: limits)
        // Keep libxml2 from printing encoding errors to stderr (found by fuzzing).
        entitlint_silenceGenericErrors()
        // Most files are UTF-8: read them in place (see `InputMode`). A file that turns out to
        // need a decoder is read again the way libxml2 reads any memory buffer.
        if InputMode.inPlaceFits(bytes) {
            let attempt = parseOnce(bytes, limits: limits, mode: .inPlace)
            if !attempt.neededDecoder { return try attempt.result.get() }
        }
        return try parseOnce(bytes, limits: limits, mode: .copied).result.get()
    }

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

    static func parse(_ bytes: [UInt8], limits: PlistLimits, forcing mode: InputMode) throws(PlistError) -> PlistDocument {
        try preflight(bytes, limits: limits)
        entitlint_silenceGenericErrors()
        return try parseOnce(bytes, limits: limits, mode: mode).result.get()
    }

    /// How libxml2 gets the bytes.
    enum InputMode {
        /// `xmlParserInputBufferCreateStatic` over a NUL-terminated copy: no reading callback,
        /// so the parser's "grow" checks (one near every token once the end is within 250 bytes,
        /// which for a small file is most of it) return at once. libxml2 cannot decode from such
        /// a buffer: a document it must decode (declared non-UTF-8 encoding) is read `.copied`.
        case inPlace
        /// `xmlCreateMemoryParserCtxt`: libxml2 copies the bytes into a growable buffer.
        case copied

        /// Files with a byte-order mark are decoded (UTF-16/32) or skip it; files past
        /// libxml2's 10,000,000-byte look-up limit would be refused without a reading callback
        /// ("Huge input lookup"); a declaration naming another encoding needs a decoder.
        /// Only with libxml2 2.9, whose source this was checked against (`makeContext`).
        static func inPlaceFits(_ bytes: [UInt8]) -> Bool {
            libxml2Is29 && bytes.count <= 10_000_000 && !startsWithByteOrderMark(bytes) && !declaresOtherEncoding(bytes)
        }

        static let libxml2Is29: Bool = {
            let version = entitlint_libxmlVersion()
            return version >= 20900 && version < 21000
        }()
    }

    /// Whether the XML declaration names an encoding other than UTF-8 (libxml2 would switch to a
    /// decoder). A shortcut only: a miss is caught after parsing (`neededDecoder`).
    static func declaresOtherEncoding(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b -> Bool in
            guard b.count > 5, b[0] == UInt8(ascii: "<"), b[1] == UInt8(ascii: "?"), b[2] == UInt8(ascii: "x"),
                  b[3] == UInt8(ascii: "m"), b[4] == UInt8(ascii: "l") else { return false }
            let end = min(b.count, 512)
            var i = 5
            while i + 8 < end {
                if b[i] == UInt8(ascii: "?") && b[i + 1] == UInt8(ascii: ">") { return false }
                if b[i] == UInt8(ascii: "e") && b[i + 1] == UInt8(ascii: "n") && b[i + 2] == UInt8(ascii: "c") && b[i + 3] == UInt8(ascii: "o")
                    && b[i + 4] == UInt8(ascii: "d") && b[i + 5] == UInt8(ascii: "i") && b[i + 6] == UInt8(ascii: "n") && b[i + 7] == UInt8(ascii: "g") {
                    var j = i + 8
                    while j < end, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D || b[j] == UInt8(ascii: "=") { j += 1 }
                    guard j < end, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else { return true }
                    // UTF-8 or UTF8, in any case, then the closing quote.
                    let quote = b[j]
                    j += 1
                    guard j + 4 < end, b[j] | 0x20 == UInt8(ascii: "u"), b[j + 1] | 0x20 == UInt8(ascii: "t"),
                          b[j + 2] | 0x20 == UInt8(ascii: "f") else { return true }
                    j += 3
                    if b[j] == UInt8(ascii: "-") { j += 1 }
                    return !(j + 1 < end && b[j] == UInt8(ascii: "8") && b[j + 1] == quote)
                }
                i += 1
            }
            return false
        }
    }

    private struct Attempt {
        var result: Result<PlistDocument, PlistError>
        /// libxml2 switched to a decoder, which an in-place buffer cannot feed.
        var neededDecoder: Bool
        /// Bytes scanned back over to locate comments (`SAXBuilder.scannedBack`).
        var scannedBack = 0
    }

    /// The bytes `parse` scans back over to locate the comments of `bytes`: at most their size,
    /// however many comments a line holds (for the tests of that bound).
    @_spi(Testing) public static func commentScanCost(_ bytes: [UInt8], limits: PlistLimits = .default) -> Int {
        let mode: InputMode = InputMode.inPlaceFits(bytes) ? .inPlace : .copied
        return parseOnce(bytes, limits: limits, mode: mode).scannedBack
    }

    private static func parseOnce(_ bytes: [UInt8], limits: PlistLimits, mode: InputMode) -> Attempt {
        let builder = SAXBuilder(limits: limits)
        var neededDecoder = false
        let result: PlistError? = withInput(bytes, mode: mode) { cbytes, count -> PlistError? in
            guard let ctxt = makeContext(cbytes, count, mode: mode) else {
                return PlistError(.malformedXML, "libxml2 could not create a parser")
            }
            defer {
                // libxml2 builds a document of its own to hold entity declarations in SAX
                // mode ("expat compatibility"); the context does not free it (found by
                // fuzzing: a leak per file with an internal subset).
                if let doc = ctxt.pointee.myDoc {
                    xmlFreeDoc(doc)
                    ctxt.pointee.myDoc = nil
                }
                if mode == .inPlace { ContextPool.shared.give(ctxt) } else { xmlFreeParserCtxt(ctxt) }
            }
            ctxt.pointee.sax.pointee = SAXBuilder.handler
            var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue
            // A byte-order mark decides the encoding, whatever `encoding=` says (DOMAIN.md
            // section 5, as CF); libxml2 would switch to the declared one (found by
            // differential testing: a UTF-8 BOM with encoding="ISO-8859-1" misread strings).
            if startsWithByteOrderMark(bytes) { options |= XML_PARSE_IGNORE_ENC.rawValue }
            _ = xmlCtxtUseOptions(ctxt, Int32(options))
            builder.ctxt = ctxt
            ctxt.pointee.userData = Unmanaged.passUnretained(builder).toOpaque()
            _ = xmlParseDocument(ctxt)
            builder.ctxt = nil
            if mode == .inPlace, let input = ctxt.pointee.input, let buf = input.pointee.buf, buf.pointee.encoder != nil {
                neededDecoder = true
                return nil
            }
            if let e = builder.error { return e }
            if ctxt.pointee.wellFormed == 0 {
                return builder.libxmlError ?? PlistError(.malformedXML, "not well-formed XML")
            }
            return nil
        }
        let scanned = builder.scannedBack
        if neededDecoder { return Attempt(result: .failure(PlistError(.malformedXML, "")), neededDecoder: true, scannedBack: scanned) }
        if let result { return Attempt(result: .failure(result), neededDecoder: false, scannedBack: scanned) }
        guard let root = builder.root else {
            return Attempt(result: .failure(PlistError(.invalidStructure, "the document holds no property-list value")), neededDecoder: false, scannedBack: scanned)
        }
        return Attempt(result: .success(PlistDocument(root: root, format: .xml, comments: builder.comments)), neededDecoder: false, scannedBack: scanned)
    }

    /// The bytes as libxml2 reads them: for `.inPlace` a copy that ends in a NUL (libxml2 looks
    /// one byte past the end of its buffer, where its own buffers keep a 0).
    private static func withInput<R>(_ bytes: [UInt8], mode: InputMode, _ body: (UnsafePointer<CChar>, Int32) -> R) -> R {
        switch mode {
        case .copied:
            return bytes.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { body($0, Int32(buf.count)) }
            }
        case .inPlace:
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            defer { copy.deallocate() }
            bytes.withUnsafeBufferPointer { buf in
                UnsafeMutableRawPointer(copy).copyMemory(from: buf.baseAddress!, byteCount: buf.count)
            }
            copy[bytes.count] = 0
            return body(UnsafePointer(copy), Int32(bytes.count))
        }
    }

    private static func makeContext(_ cbytes: UnsafePointer<CChar>, _ count: Int32, mode: InputMode) -> xmlParserCtxtPtr? {
        switch mode {
        case .copied:
            return xmlCreateMemoryParserCtxt(cbytes, count)
        case .inPlace:
            // As xmlCreateMemoryParserCtxt, with a static buffer for the copying one, and a
            // context used before if there is one (see `ContextPool`).
            guard let ctxt = ContextPool.shared.take() ?? xmlNewParserCtxt() else { return nil }
            guard let buffer = xmlParserInputBufferCreateStatic(cbytes, count, XML_CHAR_ENCODING_NONE) else {
                ContextPool.shared.give(ctxt)
                return nil
            }
            guard let input = xmlNewIOInputStream(ctxt, buffer, XML_CHAR_ENCODING_NONE) else {
                xmlFreeParserInputBuffer(buffer)
                ContextPool.shared.give(ctxt)
                return nil
            }
            guard inputPush(ctxt, input) >= 0 else {
                ContextPool.shared.give(ctxt)
                return nil
            }
            // In libxml2 2.9's pull parser this flag only switches off the GROW and SHRINK
            // macros (parser.c; everything else that reads it is the push parser). Neither is
            // needed with the whole document in memory, and SHRINK is wrong for a static buffer:
            // xmlParserInputShrink moves `cur` back without moving `base` when more than 250
            // bytes remain (what libxml2's "TODO: xmlParserInputBufferCreateStatic, requires some
            // serious changes" in xmlCreateMemoryParserCtxt is about).
            ctxt.pointee.progressive = 1
            return ctxt
        }
    }
}

/// libxml2 parser contexts for reading in place, kept for the next document: creating and freeing
/// a context (its name dictionary, its stacks) costs a fifth of parsing a small entitlements file.
/// A context goes back reset with `xmlCtxtReset`, which drops its input (whose bytes are about to
/// be freed) and its per-document state, and to the state of a new one in what that misses (the
/// namespace stack). Two things are not reset and need not be: the options (the same for every
/// document read in place: those with a byte-order mark, the only ones that differ, are read
/// `.copied`) and the name dictionary, which only grows; a context whose dictionary has grown
/// past `maxDictionaryNames` (a document with thousands of distinct names) is freed instead. The
/// agreement of reused contexts with new ones is checked by InputModeAgreementTests and the XML
/// fuzz harness, which compare every document read in place with a fresh `.copied` read.
final class ContextPool: @unchecked Sendable {
    static let shared = ContextPool()
    static let maxContexts = 16
    static let maxDictionaryNames = 1_000

    private let mutex = xmlNewMutex()
    private var contexts: [xmlParserCtxtPtr] = []

    func take() -> xmlParserCtxtPtr? {
        xmlMutexLock(mutex)
        defer { xmlMutexUnlock(mutex) }
        return contexts.popLast()
    }

    func give(_ ctxt: xmlParserCtxtPtr) {
        xmlCtxtReset(ctxt)
        ctxt.pointee.nsNr = 0
        ctxt.pointee.userData = nil
        if let dict = ctxt.pointee.dict, xmlDictSize(dict) > Self.maxDictionaryNames {
            xmlFreeParserCtxt(ctxt)
            return
        }
        xmlMutexLock(mutex)
        if contexts.count < Self.maxContexts {
            contexts.append(ctxt)
            xmlMutexUnlock(mutex)
        } else {
            xmlMutexUnlock(mutex)
            xmlFreeParserCtxt(ctxt)
        }
    }

    /// How many contexts wait for reuse (for tests).
    var count: Int {
        xmlMutexLock(mutex)
        defer { xmlMutexUnlock(mutex) }
        return contexts.count
    }
}

/// UTF-8, UTF-16 (either order) or UTF-32 (either order) byte-order mark at the start.
func startsWithByteOrderMark(_ b: [UInt8]) -> Bool {
    if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return true }
    if b.count >= 4, (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) { return true }
    if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) { return true }
    return false
}

/// The element names of a plist, resolved once per start tag.
enum PlistElement: UInt8 {
    case plist, dict, key, array, string, data, date, integer, real, `true`, `false`

    init?(_ name: UnsafePointer<UInt8>) {
        // Compare without building a String: the names are short ASCII.
        func eq(_ s: StaticString) -> Bool {
            let p = s.utf8Start
            var i = 0
            while i < s.utf8CodeUnitCount {
                if name[i] != p[i] { return false }
                i += 1
            }
            return name[i] == 0
        }
        switch name[0] {
        case UInt8(ascii: "p"): if eq("plist") { self = .plist } else { return nil }
        case UInt8(ascii: "d"):
            if eq("dict") { self = .dict } else if eq("data") { self = .data } else if eq("date") { self = .date } else { return nil }
        case UInt8(ascii: "k"): if eq("key") { self = .key } else { return nil }
        case UInt8(ascii: "a"): if eq("array") { self = .array } else { return nil }
        case UInt8(ascii: "s"): if eq("string") { self = .string } else { return nil }
        case UInt8(ascii: "i"): if eq("integer") { self = .integer } else { return nil }
        case UInt8(ascii: "r"): if eq("real") { self = .real } else { return nil }
        case UInt8(ascii: "t"): if eq("true") { self = .true } else { return nil }
        case UInt8(ascii: "f"): if eq("false") { self = .false } else { return nil }
        default: return nil
        }
    }

    var isContainer: Bool { self == .dict || self == .array || self == .plist }
}

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

    /// Line and column of the `<` that starts the tag the parser is in.
    func tagStart() -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input else { return .unknown }
        let line = Int(input.pointee.line)
        var col = Int(input.pointee.col)
        if let base = input.pointee.base, var p = input.pointee.cur {
            var back = 0
            while p > base && back < 4096 {
                p -= 1
                back += 1
                if p.pointee == UInt8(ascii: "<") { break }
                if p.pointee == UInt8(ascii: "\n") { back = 0; break }
            }
            col = max(1, col - back)
        }
        return SourceLocation(line: line, column: col)
    }

    /// Line and column of the `<!--` of the comment that just ended (libxml2 reports comments at
    /// their end, and they may span lines). The comment is `<!--`, its text, `-->`, ending where
    /// the parser is; its text may itself hold `<!--` (found by fuzzing), so the start is found by
    /// length, not by searching back.
    func commentStart(_ text: String) -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur else { return .unknown }
        let newlines = text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        let line = Int(input.pointee.line) - newlines
        let length = text.utf8.count + 7
        if cur - base >= length {
            let start = cur - length
            if start[0] == UInt8(ascii: "<"), start[1] == UInt8(ascii: "!"), start[2] == UInt8(ascii: "-"), start[3] == UInt8(ascii: "-") {
                var q = start
                var col = 1
                // The scan back to the line's start stops at the previous comment's start when
                // it is on the same line (and the buffer has not moved): comments come in order,
                // so every byte is scanned back over once at most, however many comments a line
                // holds (100,000 on one line would otherwise cost quadratic time).
                let known = columnMark.base == UnsafePointer(base) && columnMark.consumed == UInt(input.pointee.consumed)
                    && columnMark.offset <= start - base ? columnMark : nil
                while q > base, (q - 1).pointee != UInt8(ascii: "\n") {
                    if let known, q - base == known.offset {
                        col += known.column - 1
                        if known.column == 0 { col = 0 }
                        break
                    }
                    q -= 1
                    col += 1
                    scannedBack += 1
                }
                // Reaching `base` is the start of its line only if nothing was dropped before it.
                if col != 0, q > base || input.pointee.consumed == 0 || (known != nil && q - base == known!.offset) {
                    columnMark = (UnsafePointer(base), UInt(input.pointee.consumed), start - base, col)
                    return SourceLocation(line: line, column: col)
                }
                columnMark = (UnsafePointer(base), UInt(input.pointee.consumed), start - base, 0)
                return SourceLocation(line: line, column: 0)
            }
        }
        // libxml2 already dropped the start from its buffer: the line follows from the text,
        // the column only when the comment is on one line.
        let endColumn = Int(input.pointee.col)
        return SourceLocation(line: line, column: newlines == 0 ? max(1, endColumn - text.count - 7) : 0)
    }

    func fail(_ code: PlistError.Code, _ reason: String, at location: SourceLocation? = nil, limit: PlistLimits.Kind? = nil) {
        // After a libxml2 well-formedness error, that error is the cause of whatever follows.
        guard error == nil, libxmlError == nil else { return }
        error = PlistError(code, reason, at: location ?? tagStart(), limit: limit)
        if let ctxt { xmlStopParser(ctxt) }
    }

    // MARK: events

    func startElement(_ name: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?, quotedGreaterThan: Bool = false) {
        guard error == nil else { return }
        let location = tagStart()
        guard prefix == nil, let element = PlistElement(name) else {
            let shown = (prefix.map { String(cString: $0) + ":" } ?? "") + String(cString: name)
            fail(.invalidStructure, "<\(PlistScalars.shown(Array(shown.utf8)))> is not a property-list element", at: location)
            return
        }
        if quotedGreaterThan {
            // CoreFoundation ignores attributes and ends a tag at its first `>`, even one inside
            // quotes: `<key a=">x">y</key>` is the key `">x">y` to it and `y` to XML (found by
            // differential testing).
            fail(.invalidStructure, "an attribute value of <\(element)> holds \">\": CoreFoundation ends the tag there and reads the rest as content", at: location)
            return
        }
        if leaf != nil {
            fail(.invalidStructure, "<\(element)> inside <\(leaf!)>: only text is allowed there", at: location)
            return
        }
        elementCount += 1
        if elementCount > limits.maxElements {
            fail(.tooLarge, "more than \(limits.maxElements) elements", at: location, limit: .elements)
            return
        }
        if stack.isEmpty {
            if sawRootElement {
                fail(.invalidStructure, "a second top-level element", at: location)
                return
            }
            sawRootElement = true
        } else if stack[stack.count - 1].kind == .plist, element == .plist {
            fail(.invalidStructure, "<plist> inside <plist>", at: location)
            return
        }
        if element == .key {
            guard let top = stack.last, top.kind == .dict else {
                fail(.invalidStructure, "<key> outside a <dict>", at: location)
                return
            }
            if let pending = top.pendingKey {
                fail(.invalidStructure, "key \"\(PlistScalars.shown(Array(pending.0.utf8)))\" has no value before the next <key>", at: location)
                return
            }
        } else if element != .plist, let top = stack.last, top.kind == .dict, top.pendingKey == nil {
            fail(.invalidStructure, "<\(element)> in a <dict> where a <key> was expected", at: location)
            return
        }
        switch element {
        case .plist, .dict, .array:
            if stack.count >= limits.depthBound {
                let e = limits.tooDeep(at: location) { "nesting deeper than \($0) levels" }
                fail(.tooDeep, e.reason, at: location, limit: e.limit)
                return
            }
            switch element {
            case .plist: stack.append(Frame(.plist, location))
            case .dict: stack.append(Frame(.dict, location))
            default: stack.append(Frame(.array, location))
            }
        default:
            leaf = element
            leafLocation = location
            text.removeAll(keepingCapacity: true)
        }
    }

    func endElement() {
        guard error == nil else { return }
        if let element = leaf {
            leaf = nil
            let node: PlistNode
            switch element {
            case .key:
                let key = CommonKeys.lookup(text) ?? Self.cfString(text)
                if let top = stack.last, top.kind == .dict { top.pendingKey = (key, leafLocation) }
                return
            case .string:
                node = PlistNode(.string(Self.cfString(text)), at: leafLocation)
            case .true, .false:
                // CoreFoundation wants `<true/>` or `<true></true>`: not even white space inside.
                guard text.isEmpty else {
                    fail(.invalidStructure, "<\(element)> must be empty (not even white space inside)", at: leafLocation)
                    return
                }
                node = PlistNode(.bool(element == .true), at: leafLocation)
            case .integer:
                guard let v = PlistScalars.integer(text) else {
                    fail(.invalidInteger, "<integer> \"\(PlistScalars.shown(text))\" is not a decimal or 0x integer in the 64-bit range", at: leafLocation)
                    return
                }
                node = PlistNode(.integer(v), at: leafLocation)
            case .real:
                guard let v = PlistScalars.real(text) else {
                    fail(.invalidReal, "<real> \"\(PlistScalars.shown(text))\" is not a number", at: leafLocation)
                    return
                }
                node = PlistNode(.real(v), at: leafLocation)
            case .date:
                guard let v = PlistScalars.date(text) else {
                    fail(.invalidDate, "<date> \"\(PlistScalars.shown(text))\" is not of the form YYYY-MM-DDTHH:MM:SSZ", at: leafLocation)
                    return
                }
                node = PlistNode(.date(v), at: leafLocation)
            case .data:
                node = PlistNode(.data(PlistScalars.base64(text)), at: leafLocation)
            case .plist, .dict, .array:
                return
            }
            attach(node)
            return
        }
        guard let frame = stack.popLast() else { return }
        switch frame.kind {
        case .plist:
            if root == nil {
                fail(.invalidStructure, "<plist> holds no value", at: frame.location)
            }
            plistClosed = true
        case .array:
            attach(PlistNode(.array(frame.items), at: frame.location))
        case .dict:
            if let pending = frame.pendingKey {
                fail(.invalidStructure, "key \"\(PlistScalars.shown(Array(pending.0.utf8)))\" has no value", at: pending.1)
                return
            }
            attach(PlistNode(.dict(frame.dict), at: frame.location))
        }
    }

    /// String and key text as CoreFoundation makes it: verbatim, except that one leading byte
    /// order mark (U+FEFF, however written) is dropped, as CFString does when it is created from
    /// UTF-8 (checked against Foundation by the differential test).
    static func cfString(_ text: [UInt8]) -> String {
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF {
            return String(decoding: text[3...], as: UTF8.self)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether any attribute or namespace value of a start tag holds `>` (see `startElement`).
    static func quotedGreaterThan(namespaceCount: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
                                  attributeCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) -> Bool {
        if let namespaces {
            for i in 0..<Int(max(0, namespaceCount)) {
                guard var p = namespaces[2 * i + 1] else { continue }
                while p.pointee != 0 {
                    if p.pointee == UInt8(ascii: ">") { return true }
                    p += 1
                }
            }
        }
        if let attributes {
            for i in 0..<Int(max(0, attributeCount)) {
                guard var p = attributes[5 * i + 3], let end = attributes[5 * i + 4] else { continue }
                while p < end {
                    if p.pointee == UInt8(ascii: ">") { return true }
                    p += 1
                }
            }
        }
        return false
    }

    func attach(_ node: PlistNode) {
        guard let top = stack.last else {
            root = node
            return
        }
        switch top.kind {
        case .plist:
            if root != nil {
                fail(.invalidStructure, "<plist> holds more than one value", at: node.location)
                return
            }
            root = node
        case .array:
            top.items.append(node)
        case .dict:
            guard let (key, keyLocation) = top.pendingKey else { return }
            top.dict.append(.init(key: key, keyLocation: keyLocation, value: node))
            top.pendingKey = nil
        }
    }

    func characters(_ ch: UnsafePointer<UInt8>, _ len: Int) {
        guard error == nil, len > 0 else { return }
        if leaf != nil {
            text.append(contentsOf: UnsafeBufferPointer(start: ch, count: len))
            return
        }
        for i in 0..<len where !isXMLSpace(ch[i]) {
            let shown = PlistScalars.shown(Array(UnsafeBufferPointer(start: ch + i, count: min(len - i, 20))))
            if stack.isEmpty {
                fail(.invalidStructure, "text \"\(shown)\" outside the property list")
            } else {
                fail(.invalidStructure, "text \"\(shown)\" where only elements are allowed")
            }
            return
        }
    }

    func comment(_ value: UnsafePointer<UInt8>) {
        if hyphenInComment {
            // See `libxml(_:)`: the comment is complete, so restore strict mode.
            hyphenInComment = false
            if let ctxt {
                ctxt.pointee.recovery = 0
                if libxmlError == nil { ctxt.pointee.wellFormed = 1 }
            }
        }
        guard error == nil else { return }
        if let leaf {
            fail(.invalidStructure, "a comment inside <\(leaf)>: CoreFoundation does not allow it there")
            return
        }
        // CoreFoundation ends a comment at its first `-->`. After a `--` inside, libxml2 2.9 can
        // miss an ending `--->` and run on to a later `-->`, hiding everything between from us
        // while CF reads it (found by differential testing): refuse rather than read less.
        var p = value
        while p.pointee != 0 {
            if p[0] == UInt8(ascii: "-"), p[1] == UInt8(ascii: "-"), p[2] == UInt8(ascii: ">") {
                fail(.malformedXML, "a comment ending in \"--->\" (or holding \"-->\"): CoreFoundation ends it at the first \"-->\", XML parsers do not; remove the extra hyphens")
                return
            }
            p += 1
        }
        let text = String(cString: value)
        comments.append(.init(text: text, location: commentStart(text)))
    }

    func processingInstruction() {
        guard error == nil else { return }
        if !stack.isEmpty || leaf != nil {
            fail(.invalidStructure, "a processing instruction inside the property list")
        }
    }

    func forbiddenDeclaration(_ what: String) {
        fail(.forbiddenDTD, "the DOCTYPE declares \(what): internal DTD subsets are not allowed in property lists")
    }

    func undefinedEntity(_ name: UnsafePointer<UInt8>?) {
        let n = name.map { String(cString: $0) } ?? "?"
        fail(.forbiddenDTD, "entity &\(n); is not allowed: only &lt; &gt; &amp; &apos; &quot; and numeric references are")
    }

    func libxml(_ err: UnsafeMutablePointer<xmlError>) {
        let e = err.pointee
        if e.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue) || e.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue) {
            let name = e.str1.map { String(cString: $0) } ?? "?"
            fail(.forbiddenDTD, "entity &\(name); is not allowed: only &lt; &gt; &amp; &apos; &quot; and numeric references are",
                 at: SourceLocation(line: Int(e.line), column: Int(e.int2)))
            return
        }
        if e.code == Int32(XML_ERR_HYPHEN_IN_COMMENT.rawValue), let ctxt {
            // CoreFoundation skips comments up to `-->` and accepts `--` inside them (real
            // profiles do this); XML does not. Keep libxml2 from disabling SAX for the rest of
            // this comment; `comment(_:)` restores strict mode when the comment ends.
            hyphenInComment = true
            ctxt.pointee.recovery = 1
            return
        }
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue, libxmlError == nil else { return }
        var message = e.message.map { String(cString: $0) } ?? "not well-formed XML"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        // libxml2 names elements and entities of the document in its messages: at most 120
        // characters of the message are kept (control characters are escaped on output).
        if message.count > 120 { message = String(message.prefix(117)) + "..." }
        let code: PlistError.Code
        switch e.code {
        case Int32(XML_ERR_INVALID_CHAR.rawValue), Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue),
             Int32(XML_ERR_UNKNOWN_ENCODING.rawValue), Int32(XML_I18N_CONV_FAILED.rawValue):
            code = .invalidEncoding
        default:
            code = .malformedXML
        }
        libxmlError = PlistError(code, message, at: SourceLocation(line: Int(e.line), column: Int(e.int2)))
    }

    // MARK: the handler

    nonisolated(unsafe) static let handler: xmlSAXHandler = {
        var h = xmlSAXHandler()
        h.initialized = UInt32(XML_SAX2_MAGIC)
        h.startElementNs = { ctx, localname, prefix, _, nbNamespaces, namespaces, nbAttributes, _, attributes in
            guard let localname else { return }
            let quoted = (nbNamespaces > 0 || nbAttributes > 0)
                && SAXBuilder.quotedGreaterThan(namespaceCount: nbNamespaces, namespaces, attributeCount: nbAttributes, attributes)
            SAXBuilder.from(ctx).startElement(localname, prefix: prefix, quotedGreaterThan: quoted)
        }
        h.endElementNs = { ctx, _, _, _ in SAXBuilder.from(ctx).endElement() }
        h.characters = { ctx, ch, len in
            guard let ch else { return }
            SAXBuilder.from(ctx).characters(ch, Int(len))
        }
        h.ignorableWhitespace = h.characters
        h.cdataBlock = h.characters
        h.comment = { ctx, value in
            guard let value else { return }
            SAXBuilder.from(ctx).comment(value)
        }
        h.processingInstruction = { ctx, _, _ in SAXBuilder.from(ctx).processingInstruction() }
        h.internalSubset = { ctx, _, externalID, systemID in
            // Called before libxml2 reads `[`: peek to reject an internal subset of any kind.
            let b = SAXBuilder.from(ctx)
            // CoreFoundation skips a DOCTYPE up to its first `>`, quotes or not, and refuses a
            // `[`: a quoted identifier holding either is an error to it (differential testing).
            for id in [externalID, systemID] {
                guard var q = id else { continue }
                while q.pointee != 0 {
                    if q.pointee == UInt8(ascii: ">") || q.pointee == UInt8(ascii: "[") {
                        b.fail(.forbiddenDTD, "the DOCTYPE's quoted identifiers hold \"\(UnicodeScalar(q.pointee))\": CoreFoundation does not read such a DOCTYPE")
                        return
                    }
                    q += 1
                }
            }
            guard let input = b.ctxt?.pointee.input, var p = input.pointee.cur, let end = input.pointee.end else { return }
            while p < end, isXMLSpace(p.pointee) { p += 1 }
            if p < end, p.pointee == UInt8(ascii: "[") {
                b.fail(.forbiddenDTD, "<!DOCTYPE ... [ ... ]> has an internal subset: not allowed in property lists")
            }
        }
        h.entityDecl = { ctx, _, _, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an entity") }
        h.elementDecl = { ctx, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an element") }
        h.attributeDecl = { ctx, _, _, _, _, _, tree in
            xmlFreeEnumeration(tree)
            SAXBuilder.from(ctx).forbiddenDeclaration("an attribute")
        }
        h.notationDecl = { ctx, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("a notation") }
        h.unparsedEntityDecl = { ctx, _, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an unparsed entity") }
        h.getEntity = { ctx, name in
            if let name, let e = xmlGetPredefinedEntity(name) { return e }
            SAXBuilder.from(ctx).undefinedEntity(name)
            return nil
        }
        h.getParameterEntity = { ctx, name in
            SAXBuilder.from(ctx).undefinedEntity(name)
            return nil
        }
        h.reference = { ctx, name in SAXBuilder.from(ctx).undefinedEntity(name) }
        h.serror = { ctx, err in
            guard let ctx, let err else { return }
            SAXBuilder.from(ctx).libxml(err)
        }
        return h
    }()
}

@inline(__always)
func isXMLSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
}
