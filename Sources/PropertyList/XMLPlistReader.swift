internal import CLibXML2

/// Reads XML property lists with libxml2's SAX2 interface, straight into `PlistNode`s: no DOM is
/// built, and every node keeps the line and column of its start tag.
///
/// What is accepted follows CoreFoundation's parser (keychain-access-groups.md section 5):
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
    /// The steps: refuse what must never reach libxml2 (`preflight`), then read the bytes in
    /// place when they allow it (`InputMode`), else (or when the document turns out to need a
    /// decoder) as a copy; each read is one `parseOnce`.
    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        try preflight(bytes, limits: limits)
        prepareForThreads()
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

    struct Attempt {
        var result: Result<PlistDocument, PlistError>
        /// libxml2 switched to a decoder, which an in-place buffer cannot feed.
        var neededDecoder: Bool
        /// Bytes scanned back over to locate comments (`SAXBuilder.scannedBack`).
        var scannedBack = 0
    }

    /// One read in one input mode: a parser context over the bytes (`withInput`, `makeContext`),
    /// set up to feed a `SAXBuilder` (`configure`), run over the whole document (`run`), then
    /// released (`release`); the outcome is the builder's tree or the first error (`firstError`, `outcome`).
    static func parseOnce(_ bytes: [UInt8], limits: PlistLimits, mode: InputMode) -> Attempt {
        let builder = SAXBuilder(limits: limits)
        var neededDecoder = false
        let failure: PlistError? = withInput(bytes, mode: mode) { cbytes, count -> PlistError? in
            guard let ctxt = makeContext(cbytes, count, mode: mode) else {
                return PlistError(.malformedXML, "libxml2 could not create a parser")
            }
            defer { release(ctxt, mode: mode) }
            configure(ctxt, for: builder, bytes: bytes)
            run(ctxt, feeding: builder)
            if mode == .inPlace, switchedToDecoder(ctxt) {
                neededDecoder = true
                return nil
            }
            return firstError(of: ctxt, builder)
        }
        return outcome(builder, failure: failure, neededDecoder: neededDecoder)
    }
}

@inline(__always)
func isXMLSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
}

extension XMLPlistReader {
    /// Sets libxml2 up for threads: calls `xmlInitParser` once, before any other libxml2 call.
    /// libxml2 lets threads parse different documents at once only after that call, which must
    /// not itself race with other libxml2 calls; its documentation asks for it in the main
    /// thread, first ("Thread safety", xmlsoft.org/threads.html). Without it, libxml2 sets its
    /// globals up lazily, in whichever thread comes first: two parse threads can both do it, and
    /// the first thread to ask becomes libxml2's "main thread". That corrupted the heap in rare
    /// runs over many files (an abort in `free()`).
    ///
    /// The command-line tool calls this first thing; `parse` calls it too, for other users. Later
    /// calls return at once: a global's initializer runs once, other threads waiting for it.
    public static func prepareForThreads() {
        _ = libxml2Ready
    }

    private static let libxml2Ready: Bool = {
        xmlInitParser()
        return true
    }()
}
