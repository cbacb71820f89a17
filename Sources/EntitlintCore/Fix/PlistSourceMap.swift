/// Where the elements of an XML entitlements plist lie in its bytes: the top-level dict's keys
/// and values, each value's child elements, with byte ranges into the original file and the
/// decoded text of each leaf. Read from the bytes themselves (comments, processing
/// instructions, CDATA, the five predefined entities and character references), so that a fix
/// edits exactly the bytes of one element and keeps every other byte. Anything it does not
/// understand (a DOCTYPE with declarations, an unknown entity, mismatched tags, nesting past
/// `maxDepth`) makes it nil: the file is then not fixed, never guessed at.
public struct PlistSourceMap: Sendable {
    public struct Element: Sendable {
        public var name: String
        /// From the `<` of the start tag to after the `>` of the end tag (or of `<x/>`).
        public var range: Range<Int>
        /// Between the tags; nil for an empty-element tag `<x/>`.
        public var content: Range<Int>?
        /// The element's own text, entities and CDATA decoded, line ends normalised as XML does.
        public var text: String
        public var children: [Element]
    }

    public struct Entry: Sendable {
        public var key: Element
        public var value: Element
    }

    public let bytes: [UInt8]
    /// The top-level dict's entries, in file order.
    public private(set) var entries: [Entry] = []

    /// Deepest nesting read; entitlements never come near it.
    static let maxDepth = 64

    public init?(bytes: [UInt8]) {
        self.bytes = bytes
        guard let top = Self.elements(bytes), top.count == 1, top[0].name == "plist" else { return nil }
        let dicts = top[0].children
        guard dicts.count == 1, dicts[0].name == "dict", dicts[0].children.count % 2 == 0 else { return nil }
        var i = 0
        let items = dicts[0].children
        while i < items.count {
            guard items[i].name == "key" else { return nil }
            entries.append(Entry(key: items[i], value: items[i + 1]))
            i += 2
        }
    }

    /// The entry of `key`, when the dict has it exactly once.
    public func entry(_ key: String) -> Entry? {
        let found = entries.filter { $0.key.text == key }
        return found.count == 1 ? found[0] : nil
    }

    /// True when `key` appears in the dict at all.
    public func has(_ key: String) -> Bool { entries.contains { $0.key.text == key } }

    // MARK: - Reading

    private struct Open {
        var name: String
        var start: Int
        var contentStart: Int
        var text: [UInt8] = []
        var children: [Element] = []
    }

    private static let commentEnd = Array("-->".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let instructionEnd = Array("?>".utf8)

    private static func find(_ needle: [UInt8], in b: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, b.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= b.count {
            if b[i] == needle[0] {
                var j = 1
                while j < needle.count && b[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    private static func starts(_ b: [UInt8], _ i: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return s.withUTF8Buffer { u in
            for k in 0..<count where b[i + k] != u[k] { return false }
            return true
        }
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// The top-level elements of `b`; nil when it is not the simple XML a plist is.
    static func elements(_ b: [UInt8]) -> [Element]? {
        var top: [Element] = []
        var stack: [Open] = []
        var i = 0
        // Every step moves `i` forward, so the loop ends within `b.count` steps.
        while i < b.count {
            if b[i] != UInt8(ascii: "<") {
                var j = i
                while j < b.count && b[j] != UInt8(ascii: "<") { j += 1 }
                if !stack.isEmpty {
                    // Text with no reference and no CR is its own decoding (the common case:
                    // the indentation between tags), so it is copied without a decoding pass.
                    if b[i..<j].contains(where: { $0 == UInt8(ascii: "&") || $0 == 0x0D }) {
                        guard let decoded = decode(b[i..<j]) else { return nil }
                        stack[stack.count - 1].text += decoded
                    } else {
                        stack[stack.count - 1].text += b[i..<j]
                    }
                } else if !b[i..<j].allSatisfy({ isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }) {
                    return nil
                }
                i = j
                continue
            }
            if starts(b, i, "<!--") {
                guard let end = find(commentEnd, in: b, from: i + 4) else { return nil }
                i = end + 3
            } else if starts(b, i, "<![CDATA[") {
                guard let end = find(cdataEnd, in: b, from: i + 9), !stack.isEmpty else { return nil }
                stack[stack.count - 1].text += normalisedLineEnds(Array(b[(i + 9)..<end]))
                i = end + 3
            } else if starts(b, i, "<?") {
                guard let end = find(instructionEnd, in: b, from: i + 2) else { return nil }
                i = end + 2
            } else if starts(b, i, "<!") {
                var j = i + 2
                while j < b.count && b[j] != UInt8(ascii: ">") {
                    if b[j] == UInt8(ascii: "[") { return nil }
                    j += 1
                }
                guard j < b.count else { return nil }
                i = j + 1
            } else if starts(b, i, "</") {
                guard let gt = b[(i + 2)...].firstIndex(of: UInt8(ascii: ">")), let open = stack.popLast() else { return nil }
                var nameEnd = gt
                while nameEnd > i + 2 && isSpace(b[nameEnd - 1]) { nameEnd -= 1 }
                let name = String(decoding: b[(i + 2)..<nameEnd], as: UTF8.self)
                guard name == open.name else { return nil }
                let element = Element(name: open.name, range: open.start..<(gt + 1), content: open.contentStart..<i,
                                      text: String(decoding: open.text, as: UTF8.self), children: open.children)
                if stack.isEmpty { top.append(element) } else { stack[stack.count - 1].children.append(element) }
                i = gt + 1
            } else {
                var j = i + 1
                var quote: UInt8 = 0
                while j < b.count {
                    let c = b[j]
                    if quote != 0 { if c == quote { quote = 0 } } else if c == 0x22 || c == 0x27 { quote = c } else if c == UInt8(ascii: ">") { break }
                    j += 1
                }
                guard j < b.count else { return nil }
                var n = i + 1
                while n < j && !isSpace(b[n]) && b[n] != UInt8(ascii: "/") { n += 1 }
                let name = String(decoding: b[(i + 1)..<n], as: UTF8.self)
                guard !name.isEmpty else { return nil }
                if b[j - 1] == UInt8(ascii: "/") {
                    let element = Element(name: name, range: i..<(j + 1), content: nil, text: "", children: [])
                    if stack.isEmpty { top.append(element) } else { stack[stack.count - 1].children.append(element) }
                } else {
                    guard stack.count < maxDepth else { return nil }
                    stack.append(Open(name: name, start: i, contentStart: j + 1))
                }
                i = j + 1
            }
        }
        return stack.isEmpty ? top : nil
    }

    /// XML's line-end handling: CR LF and a lone CR read as LF.
    private static func normalisedLineEnds(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var k = 0
        while k < b.count {
            if b[k] == 0x0D {
                out.append(0x0A)
                if k + 1 < b.count && b[k + 1] == 0x0A { k += 1 }
            } else {
                out.append(b[k])
            }
            k += 1
        }
        return out
    }

    /// Character data with its references decoded; nil for an entity other than the five
    /// predefined ones or a bad character reference.
    private static func decode(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        let b = normalisedLineEnds(Array(raw))
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var k = 0
        while k < b.count {
            guard b[k] == UInt8(ascii: "&") else { out.append(b[k]); k += 1; continue }
            var e = k + 1
            while e < b.count && b[e] != UInt8(ascii: ";") && e - k < 12 { e += 1 }
            guard e < b.count, b[e] == UInt8(ascii: ";") else { return nil }
            let name = String(decoding: b[(k + 1)..<e], as: UTF8.self)
            let scalar: Unicode.Scalar?
            switch name {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") { scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                else if name.hasPrefix("#") { scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
                else { scalar = nil }
            }
            guard let scalar else { return nil }
            out += Array(String(Character(scalar)).utf8)
            k = e + 1
        }
        return out
    }
}

