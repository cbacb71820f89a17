// The tokens of an old-style property list: unquoted and quoted strings (with their escapes) and
// `<hex>` data, each read at the cursor with the line bookkeeping kept exact.

extension OpenStepParser {
    /// An unquoted string at the cursor (at least one valid character).
    mutating func unquoted() -> String {
        let start = i
        while i < b.count, Self.isUnquoted(b[i]) { i += 1 }
        // Every byte is one of the ASCII characters `isUnquoted` takes: valid UTF-8 as it is.
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
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
        if Self.isUnquoted(c) { return unquoted() }
        return nil
    }
}
