internal import CLibXML2

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
