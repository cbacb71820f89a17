internal import CLibXML2

/// The steps of one read (`XMLPlistReader.parseOnce`), each on the libxml2 parser context.
extension XMLPlistReader {
    /// The bytes as libxml2 reads them: for `.inPlace` a copy that ends in a NUL (libxml2 looks
    /// one byte past the end of its buffer, where its own buffers keep a 0).
    static func withInput<R>(_ bytes: [UInt8], mode: InputMode, _ body: (UnsafePointer<CChar>, Int32) -> R) -> R {
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

    static func makeContext(_ cbytes: UnsafePointer<CChar>, _ count: Int32, mode: InputMode) -> xmlParserCtxtPtr? {
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

    /// The context reports to `builder` (its SAX handler and user data) and reads as a property
    /// list wants: no network, no messages of its own, CDATA as text.
    static func configure(_ ctxt: xmlParserCtxtPtr, for builder: SAXBuilder, bytes: [UInt8]) {
        ctxt.pointee.sax.pointee = SAXBuilder.handler
        var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue
        // A byte-order mark decides the encoding, whatever `encoding=` says (keychain-access-groups.md
        // section 5, as CF); libxml2 would switch to the declared one (found by
        // differential testing: a UTF-8 BOM with encoding="ISO-8859-1" misread strings).
        if startsWithByteOrderMark(bytes) { options |= XML_PARSE_IGNORE_ENC.rawValue }
        _ = xmlCtxtUseOptions(ctxt, Int32(options))
        ctxt.pointee.userData = Unmanaged.passUnretained(builder).toOpaque()
    }

    /// Parses the whole document, the builder seeing the context only meanwhile.
    static func run(_ ctxt: xmlParserCtxtPtr, feeding builder: SAXBuilder) {
        builder.ctxt = ctxt
        _ = xmlParseDocument(ctxt)
        builder.ctxt = nil
    }

    /// libxml2 switched to a decoder, which an in-place buffer cannot feed.
    static func switchedToDecoder(_ ctxt: xmlParserCtxtPtr) -> Bool {
        guard let input = ctxt.pointee.input, let buf = input.pointee.buf else { return false }
        return buf.pointee.encoder != nil
    }

    /// The first error of the read: the builder's own, else libxml2's when the document is not
    /// well-formed; nil when the read succeeded.
    static func firstError(of ctxt: xmlParserCtxtPtr, _ builder: SAXBuilder) -> PlistError? {
        if let e = builder.error { return e }
        if ctxt.pointee.wellFormed == 0 {
            return builder.libxmlError ?? PlistError(.malformedXML, "not well-formed XML")
        }
        return nil
    }

    /// Frees what the read left (or gives an in-place context back to the pool).
    static func release(_ ctxt: xmlParserCtxtPtr, mode: InputMode) {
        // libxml2 builds a document of its own to hold entity declarations in SAX
        // mode ("expat compatibility"); the context does not free it (found by
        // fuzzing: a leak per file with an internal subset).
        if let doc = ctxt.pointee.myDoc {
            xmlFreeDoc(doc)
            ctxt.pointee.myDoc = nil
        }
        if mode == .inPlace { ContextPool.shared.give(ctxt) } else { xmlFreeParserCtxt(ctxt) }
    }

    /// What the read gives: the builder's tree as a document, or why there is none.
    static func outcome(_ builder: SAXBuilder, failure: PlistError?, neededDecoder: Bool) -> Attempt {
        let scanned = builder.scannedBack
        if neededDecoder { return Attempt(result: .failure(PlistError(.malformedXML, "")), neededDecoder: true, scannedBack: scanned) }
        if let failure { return Attempt(result: .failure(failure), neededDecoder: false, scannedBack: scanned) }
        guard let root = builder.root else {
            return Attempt(result: .failure(PlistError(.invalidStructure, "the document holds no property-list value")), neededDecoder: false, scannedBack: scanned)
        }
        return Attempt(result: .success(PlistDocument(root: root, format: .xml, comments: builder.comments)), neededDecoder: false, scannedBack: scanned)
    }
}
