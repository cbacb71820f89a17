/// Old-style (OpenStep, "NeXTSTEP") property lists, the text format Xcode writes `project.pbxproj` in.
///
/// The grammar, as Apple documents it ("Old-Style ASCII Property Lists", Property List Programming
/// Guide) and as CoreFoundation's `CFOldStylePList.c` reads it:
///
///     value      = dict | array | data | string
///     dict       = "{" { key ( "=" value | <nothing> ) ";" } "}"   (`key;` is the strings-file shortcut: value = key)
///     array      = "(" [ value { "," value } [ "," ] ] ")"
///     data       = "<" { hex hex | white space } ">"
///     string     = quoted | unquoted
///     quoted     = '"' ... '"' | "'" ... "'"   with \a \b \f \n \r \t \v \" \\ , \Uxxxx (1-4 hex digits, UTF-16)
///                                              and \ooo (1-3 octal digits); any other escaped character stands for itself
///     unquoted   = 1*( a-z | A-Z | 0-9 | _ | $ | / | : | . | - )
///
/// White space is ASCII 9-13, space, U+2028 and U+2029; `//` comments run to the end of the line and
/// `/* ... */` comments to their end (or the end of the file, as in CoreFoundation). Every value is a
/// string, array, dict or data: numbers and booleans are strings in this format. Dict keys are strings.
/// Nothing may follow the root value but white space and comments.
///
/// Differences from CoreFoundation, on purpose: the input must be UTF-8 (with or without a BOM; Xcode
/// writes `// !$*UTF8*$!`); octal escapes above `\177` are read as Latin-1 (CoreFoundation maps them
/// through the NeXTSTEP encoding; Xcode never writes them); duplicate keys are kept (the last wins), as
/// the other readers keep them.
///
/// Like the other readers it trusts nothing: input size, nesting depth and the number of values are
/// bounded by `PlistLimits`, containers are parsed with an explicit stack (no recursion, so no stack
/// exhaustion whatever the depth limit), and every error carries the line and column where it was found.
public enum OpenStepPlistReader {
    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw PlistError(.invalidEncoding, "UTF-16 old-style property lists are not supported (Xcode writes UTF-8)",
                             at: SourceLocation(line: 1, column: 1))
        }
        let result: Result<PlistNode, PlistError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = OpenStepParser(buffer, limits: limits)
            do throws(PlistError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        switch result {
        case .success(let root): return PlistDocument(root: root, format: .openStep, comments: [])
        case .failure(let error): throw error
        }
    }
}

/// The cursor over the bytes, with the line bookkeeping.
struct OpenStepParser {
    let b: UnsafeBufferPointer<UInt8>
    let limits: PlistLimits
    var i = 0
    var line = 1
    /// Offset of the first byte of the current line.
    var lineStart = 0
    var values = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: PlistLimits) {
        b = bytes
        self.limits = limits
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3; lineStart = 3 }
    }

    var location: SourceLocation { SourceLocation(line: line, column: i - lineStart + 1) }

    func error(_ reason: String, at loc: SourceLocation? = nil) -> PlistError {
        PlistError(.invalidStructure, reason, at: loc ?? location)
    }

    /// A short, printable rendering of the byte at the cursor, for messages.
    func shownByte() -> String {
        guard i < b.count else { return "the end of the file" }
        let c = b[i]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16, uppercase: true)
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Moves past a line break at the cursor (`\n`, `\r\n` or `\r`), counting it.
    mutating func newline() {
        if b[i] == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
        i += 1
        line += 1
        lineStart = i
    }

    /// U+2028 or U+2029 (E2 80 A8 / E2 80 A9) at the cursor.
    func atUnicodeSeparator() -> Bool {
        i + 2 < b.count && b[i] == 0xE2 && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9)
    }

    /// Skips white space and comments.
    mutating func skipSpace() {
        while i < b.count {
            let c = b[i]
            if c == 0x0A || c == 0x0D { newline(); continue }
            if (c >= 0x09 && c <= 0x0C) || c == 0x20 { i += 1; continue }
            if c == 0xE2 && atUnicodeSeparator() { i += 3; continue }
            if c == UInt8(ascii: "/"), i + 1 < b.count {
                if b[i + 1] == UInt8(ascii: "/") {
                    i += 2
                    while i < b.count, b[i] != 0x0A, b[i] != 0x0D, !(b[i] == 0xE2 && atUnicodeSeparator()) { i += 1 }
                    continue
                }
                if b[i + 1] == UInt8(ascii: "*") {
                    i += 2
                    while i < b.count {
                        if b[i] == UInt8(ascii: "*"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") { i += 2; break }
                        if b[i] == 0x0A || b[i] == 0x0D { newline() } else { i += 1 }
                    }
                    if i >= b.count { return }
                    continue
                }
            }
            return
        }
    }

    mutating func count() throws(PlistError) {
        values += 1
        if values > limits.maxElements {
            throw PlistError(.tooLarge, "more than \(limits.maxElements) values", at: location, limit: .elements)
        }
    }

    func string(_ bytes: some Sequence<UInt8>, at loc: SourceLocation) throws(PlistError) -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw PlistError(.invalidEncoding, "string is not valid UTF-8", at: loc)
        }
        return s
    }

    /// An unquoted string at the cursor (at least one valid character).
    mutating func unquoted() throws(PlistError) -> String {
        let loc = location
        let start = i
        while i < b.count, Self.isUnquoted(b[i]) { i += 1 }
        return try string(UnsafeBufferPointer(rebasing: b[start..<i]), at: loc)
    }

    /// A quoted string; the cursor is on the opening quote.
    mutating func quoted() throws(PlistError) -> String {
        let loc = location
        let quote = b[i]
        i += 1
        let start = i
        // Fast path: no escape before the closing quote.
        var j = i
        var lines = 0
        var lastLineStart = lineStart
        while j < b.count, b[j] != quote, b[j] != UInt8(ascii: "\\") {
            if b[j] == 0x0A || (b[j] == 0x0D && !(j + 1 < b.count && b[j + 1] == 0x0A)) { lines += 1; lastLineStart = j + 1 }
            j += 1
        }
        if j < b.count, b[j] == quote {
            let s = try string(UnsafeBufferPointer(rebasing: b[start..<j]), at: loc)
            i = j + 1
            line += lines
            lineStart = lastLineStart
            return s
        }
        // General path, with escapes.
        var out: [UInt8] = []
        out.reserveCapacity(j - start + 16)
        var pendingHighSurrogate: UInt16?
        func appendScalar(_ v: UInt32) {
            let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
        func flushSurrogate() {
            if pendingHighSurrogate != nil { appendScalar(0xFFFD); pendingHighSurrogate = nil }
        }
        while true {
            guard i < b.count else {
                throw error("unterminated quoted string (it starts here)", at: loc)
            }
            let c = b[i]
            if c == quote { i += 1; break }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < b.count else { throw error("unterminated quoted string (it starts here)", at: loc) }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    flushSurrogate()
                    var num = UInt32(e - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "7") {
                        num = num << 3 + UInt32(b[i] - UInt8(ascii: "0"))
                        i += 1
                        digits += 1
                    }
                    appendScalar(num & 0xFF)
                case UInt8(ascii: "U"):
                    var num: UInt32 = 0
                    var digits = 0
                    while digits < 4, i < b.count, let d = Self.hexValue(b[i]) {
                        num = num << 4 + UInt32(d)
                        i += 1
                        digits += 1
                    }
                    let unit = UInt16(num)
                    if (0xD800...0xDBFF).contains(unit) {
                        flushSurrogate()
                        pendingHighSurrogate = unit
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        if let high = pendingHighSurrogate {
                            pendingHighSurrogate = nil
                            appendScalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))
                        } else {
                            appendScalar(0xFFFD)
                        }
                    } else {
                        flushSurrogate()
                        appendScalar(num)
                    }
                default:
                    flushSurrogate()
                    switch e {
                    case UInt8(ascii: "a"): out.append(0x07)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "v"): out.append(0x0B)
                    case 0x0A:
                        out.append(0x0A)
                        line += 1
                        lineStart = i
                    case 0x0D:
                        out.append(0x0D)
                        if i < b.count, b[i] == 0x0A { out.append(0x0A); i += 1 }
                        line += 1
                        lineStart = i
                    default: out.append(e)
                    }
                }
                continue
            }
            flushSurrogate()
            if c == 0x0A || c == 0x0D {
                out.append(c)
                if c == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { out.append(0x0A) }
                newline()
                continue
            }
            out.append(c)
            i += 1
        }
        flushSurrogate()
        return try string(out, at: loc)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `<hex ...>`; the cursor is on `<`.
    mutating func data() throws(PlistError) -> [UInt8] {
        let loc = location
        i += 1
        var out: [UInt8] = []
        var high: UInt8?
        while true {
            guard i < b.count else { throw error("unterminated data: no closing '>' (it starts here)", at: loc) }
            let c = b[i]
            if c == UInt8(ascii: ">") {
                guard high == nil else { throw error("data has an odd number of hex digits", at: location) }
                i += 1
                return out
            }
            if let v = Self.hexValue(c) {
                if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
                i += 1
                continue
            }
            if c == 0x0A || c == 0x0D || c == 0x20 || c == 0x09 {
                // White space between bytes only, as CoreFoundation reads it.
                guard high == nil else { throw error("data has an odd number of hex digits (white space inside a byte)") }
                if c == 0x0A || c == 0x0D { newline() } else { i += 1 }
                continue
            }
            throw error("unexpected \(shownByte()) in data (only hex digits and white space)")
        }
    }

    /// A string at the cursor (quoted or unquoted), or nil when the byte cannot start one.
    mutating func stringToken() throws(PlistError) -> String? {
        let c = b[i]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return try quoted() }
        if Self.isUnquoted(c) { return try unquoted() }
        return nil
    }

    enum Frame {
        case array([PlistNode], SourceLocation)
        case dict(PlistDictionary, SourceLocation, key: String, keyLocation: SourceLocation)
    }

    enum State { case value, dictKey, afterKey, afterArrayElement, afterDictValue }

    mutating func parseDocument() throws(PlistError) -> PlistNode {
        skipSpace()
        guard i < b.count else { throw PlistError(.empty, "the file holds no property list", at: location) }
        var stack: [Frame] = []
        var state = State.value
        var arrayMayClose = false
        var root: PlistNode?

        func eof(_ stack: [Frame]) -> PlistError {
            switch stack.last {
            case .array(_, let loc)?:
                return error("unexpected end of file: the array opened at line \(loc.line) is not closed")
            case .dict(_, let loc, _, _)?:
                return error("unexpected end of file: the dictionary opened at line \(loc.line) is not closed")
            case nil:
                return error("unexpected end of file")
            }
        }

        // Hands a finished value to its container; sets `root` when it is the root.
        func deliver(_ node: PlistNode, _ stack: inout [Frame], _ state: inout State) {
            switch stack.popLast() {
            case nil:
                root = node
            case .array(var items, let loc)?:
                items.append(node)
                stack.append(.array(items, loc))
                state = .afterArrayElement
            case .dict(var dict, let loc, let key, let keyLocation)?:
                dict.append(PlistDictionary.Entry(key: key, keyLocation: keyLocation, value: node))
                stack.append(.dict(dict, loc, key: "", keyLocation: .unknown))
                state = .afterDictValue
            }
        }

        while root == nil {
            skipSpace()
            guard i < b.count else { throw eof(stack) }
            let c = b[i]
            let loc = location
            switch state {
            case .value:
                if c == UInt8(ascii: ")"), arrayMayClose, case .array(let items, let aloc)? = stack.last {
                    i += 1
                    stack.removeLast()
                    deliver(PlistNode(.array(items), at: aloc), &stack, &state)
                } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "(") {
                    guard stack.count < limits.depthBound else {
                        throw limits.tooDeep(at: loc) { "nesting deeper than \($0) levels" }
                    }
                    try count()
                    i += 1
                    if c == UInt8(ascii: "{") {
                        stack.append(.dict(PlistDictionary(), loc, key: "", keyLocation: .unknown))
                        state = .dictKey
                    } else {
                        stack.append(.array([], loc))
                        arrayMayClose = true
                    }
                } else if c == UInt8(ascii: "<") {
                    try count()
                    let d = try data()
                    deliver(PlistNode(.data(d), at: loc), &stack, &state)
                } else if let s = try stringToken() {
                    try count()
                    deliver(PlistNode(.string(s), at: loc), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected a string, '{', '(' or '<'")
                }
            case .dictKey:
                if c == UInt8(ascii: "}") {
                    i += 1
                    guard case .dict(let dict, let dloc, _, _)? = stack.popLast() else { throw error("internal: no dictionary") }
                    deliver(PlistNode(.dict(dict), at: dloc), &stack, &state)
                } else if let key = try stringToken() {
                    guard case .dict(let dict, let dloc, _, _)? = stack.popLast() else { throw error("internal: no dictionary") }
                    stack.append(.dict(dict, dloc, key: key, keyLocation: loc))
                    state = .afterKey
                } else {
                    throw error("unexpected \(shownByte()): expected a key or '}'")
                }
            case .afterKey:
                if c == UInt8(ascii: "=") {
                    i += 1
                    state = .value
                    arrayMayClose = false
                } else if c == UInt8(ascii: ";"), case .dict(_, _, let key, let keyLocation)? = stack.last {
                    // The strings-file shortcut `key;`: the value is the key itself.
                    try count()
                    deliver(PlistNode(.string(key), at: keyLocation), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected '=' after the key")
                }
            case .afterArrayElement:
                if c == UInt8(ascii: ",") {
                    i += 1
                    state = .value
                    arrayMayClose = true
                } else if c == UInt8(ascii: ")") {
                    i += 1
                    guard case .array(let items, let aloc)? = stack.popLast() else { throw error("internal: no array") }
                    deliver(PlistNode(.array(items), at: aloc), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected ',' or ')' in the array")
                }
            case .afterDictValue:
                if c == UInt8(ascii: ";") {
                    i += 1
                    state = .dictKey
                } else {
                    throw error("missing ';' after a dictionary value (found \(shownByte()))")
                }
            }
        }
        skipSpace()
        guard i >= b.count else {
            throw error("unexpected \(shownByte()) after the end of the property list")
        }
        return root!
    }
}
