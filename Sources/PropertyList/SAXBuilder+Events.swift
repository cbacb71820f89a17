internal import CLibXML2

/// What the builder does with each of libxml2's callbacks (`SAXBuilder.handler`).
extension SAXBuilder {

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
}
