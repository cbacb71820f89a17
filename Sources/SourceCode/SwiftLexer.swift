/// A Swift lexer, enough to find keychain idioms: identifiers, punctuation, numbers and string
/// literals (`"..."`, multi-line `"""`, raw `#"..."#`, interpolation `\(...)` and `\#(...)`), with
/// `//` and nested `/* /* */ */` comments dropped. One pass over the bytes; nested
/// interpolations are followed with an explicit stack, never by recursion. Unterminated strings
/// and comments end at the end of the line (single-line strings) or of the file.
struct SwiftLexer: Lexing {
    var cursor: LexerCursor

    /// An interpolation being lexed: the string it belongs to, and the parentheses opened inside it.
    private struct Interpolation {
        var hashes: Int
        var multiline: Bool
        var parens: Int
        var segmentToken: Int
    }
    private var interpolations: [Interpolation] = []

    init(source: TokenizedSource) {
        cursor = LexerCursor(source)
    }

    mutating func run() {
        while pos < count {
            let c = src.bytes[pos]
            let startLine = line
            let column = Int32(pos - lineStart + 1)
            let start = pos
            switch c {
            case 0x0A:
                newline(at: pos)
                pos += 1
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x00:
                pos += 1
            case UInt8(ascii: "/") where at(pos + 1) == UInt8(ascii: "/"):
                while pos < count, src.bytes[pos] != 0x0A { pos += 1 }
            case UInt8(ascii: "/") where at(pos + 1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "\""):
                lexString(hashes: 0, start: start, line: startLine, column: column)
            case UInt8(ascii: "#"):
                var h = pos
                while at(h) == UInt8(ascii: "#") { h += 1 }
                // A raw string takes at most 64 `#`s (so that each `\` and `"` costs a fixed
                // number of checks); a longer run is punctuation, one token per `#`.
                if at(h) == UInt8(ascii: "\""), h - start <= 64 {
                    pos = h
                    lexString(hashes: h - start, start: start, line: startLine, column: column)
                } else {
                    while pos < h {
                        let s = pos
                        pos += 1
                        emit(.punct, from: s, line: startLine, column: Int32(s - lineStart + 1), byte: c)
                    }
                }
            case UInt8(ascii: "`"):
                pos += 1
                let s = pos
                while pos < count, src.bytes[pos] != UInt8(ascii: "`"), src.bytes[pos] != 0x0A { pos += 1 }
                // An empty name (two backticks) is no token: every identifier has a first byte.
                if pos > s { src.tokens.append(Token(kind: .identifier, start: Int32(s), end: Int32(pos), line: startLine, column: column)) }
                if at(pos) == UInt8(ascii: "`") { pos += 1 }
            case UInt8(ascii: "("):
                if var top = interpolations.last {
                    top.parens += 1
                    interpolations[interpolations.count - 1] = top
                }
                pos += 1
                emit(.punct, from: start, line: startLine, column: column, byte: c)
            case UInt8(ascii: ")"):
                if let top = interpolations.last, top.parens == 0 {
                    interpolations.removeLast()
                    pos += 1
                    continueString(top, start: start, line: startLine, column: column)
                } else {
                    if var top = interpolations.last {
                        top.parens -= 1
                        interpolations[interpolations.count - 1] = top
                    }
                    pos += 1
                    emit(.punct, from: start, line: startLine, column: column, byte: c)
                }
            default:
                // A `.` continues a number only before a digit (`1.5`, but `1.description`).
                lexPlain(c, start: start, line: startLine, column: column, dotBeforeDigitOnly: true)
            }
        }
    }

    /// Skips a block comment, nested ones included (a depth counter, no recursion); an
    /// unterminated one runs to the end of the file.
    private mutating func skipBlockComment() {
        var depth = 0
        while pos < count {
            let c = src.bytes[pos]
            if c == UInt8(ascii: "/"), at(pos + 1) == UInt8(ascii: "*") {
                depth += 1
                pos += 2
            } else if c == UInt8(ascii: "*"), at(pos + 1) == UInt8(ascii: "/") {
                depth -= 1
                pos += 2
                if depth == 0 { return }
            } else {
                if c == 0x0A { newline(at: pos) }
                pos += 1
            }
        }
    }

    /// Lexes a string literal starting at the opening quote (`pos`), after `hashes` `#`s.
    private mutating func lexString(hashes: Int, start: Int, line startLine: Int32, column: Int32) {
        let multiline = at(pos + 1) == UInt8(ascii: "\"") && at(pos + 2) == UInt8(ascii: "\"")
        pos += multiline ? 3 : 1
        lexStringBody(hashes: hashes, multiline: multiline, first: true, start: start, line: startLine, column: column)
    }

    private mutating func continueString(_ interpolation: Interpolation, start: Int, line startLine: Int32, column: Int32) {
        let index = src.tokens.count
        src.tokens[interpolation.segmentToken].partner = Int32(index)
        lexStringBody(hashes: interpolation.hashes, multiline: interpolation.multiline, first: false,
                      start: start, line: startLine, column: column)
    }

    /// Reads string content up to the closing delimiter, an interpolation, or (single-line) the
    /// end of the line; decodes escapes; emits one string token.
    private mutating func lexStringBody(hashes: Int, multiline: Bool, first: Bool, start: Int, line startLine: Int32, column: Int32) {
        var text: [UInt8] = []
        var opensInterpolation = false
        while pos < count {
            let c = src.bytes[pos]
            if c == UInt8(ascii: "\""), closes(at: pos, hashes: hashes, multiline: multiline) {
                pos += (multiline ? 3 : 1) + hashes
                break
            }
            if c == 0x0A {
                if !multiline { break }
                newline(at: pos)
            }
            if c == UInt8(ascii: "\\"), hashesFollow(pos + 1, hashes) {
                let e = pos + 1 + hashes
                let escaped = at(e)
                if escaped == UInt8(ascii: "(") {
                    pos = e + 1
                    opensInterpolation = true
                    break
                }
                pos = e + 1
                decodeEscape(escaped, into: &text)
                continue
            }
            text.append(c)
            pos += 1
        }
        if multiline, !opensInterpolation, first { text = SwiftLexer.stripIndentation(text) }
        let segment: Token.Segment = first ? (opensInterpolation ? .head : .whole) : (opensInterpolation ? .middle : .tail)
        var token = Token(kind: .string, segment: segment, start: Int32(start), end: Int32(pos), line: startLine, column: column)
        token.value = Int32(src.strings.count)
        src.strings.append(String(decoding: text, as: UTF8.self))
        src.tokens.append(token)
        if opensInterpolation {
            interpolations.append(Interpolation(hashes: hashes, multiline: multiline, parens: 0, segmentToken: src.tokens.count - 1))
        }
    }

    private func hashesFollow(_ i: Int, _ hashes: Int) -> Bool {
        var k = 0
        while k < hashes {
            if at(i + k) != UInt8(ascii: "#") { return false }
            k += 1
        }
        return true
    }

    private func closes(at i: Int, hashes: Int, multiline: Bool) -> Bool {
        if multiline, !(at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\"")) { return false }
        return hashesFollow(i + (multiline ? 3 : 1), hashes)
    }

    /// Decodes the escape after `\` (`pos` is past it): `\n \t \r \0 \\ \" \' \u{...}`; a line
    /// break after `\` (multi-line strings) joins the lines; anything else is kept as written.
    private mutating func decodeEscape(_ escaped: UInt8, into text: inout [UInt8]) {
        switch escaped {
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "0"): text.append(0x00)
        case 0x0A: newline(at: pos - 1)
        case UInt8(ascii: "u") where at(pos) == UInt8(ascii: "{"):
            var value: UInt32 = 0
            var i = pos + 1
            var digits = 0
            while digits < 8, let d = SwiftLexer.hexValue(at(i)) {
                value = value &* 16 &+ UInt32(d)
                i += 1
                digits += 1
            }
            if at(i) == UInt8(ascii: "}"), digits > 0, let scalar = Unicode.Scalar(value) {
                pos = i + 1
                text.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                text.append(escaped)
            }
        case 0: break
        default: text.append(escaped)
        }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// A multi-line string's content without the line break after the opening `"""`, the one
    /// before the closing `"""`, and the closing line's indentation on every line.
    static func stripIndentation(_ text: [UInt8]) -> [UInt8] {
        var body = text[...]
        if body.first == 0x0A { body = body.dropFirst() }
        var indentStart = body.endIndex
        while indentStart > body.startIndex, body[indentStart - 1] == 0x20 || body[indentStart - 1] == 0x09 { indentStart -= 1 }
        guard indentStart == body.startIndex || body[indentStart - 1] == 0x0A else { return Array(body) }
        let indent = body.endIndex - indentStart
        body = body[..<indentStart]
        if body.last == 0x0A { body = body.dropLast() }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var column = 0
        for c in body {
            if c == 0x0A {
                column = 0
                out.append(c)
            } else if column < indent, c == 0x20 || c == 0x09 {
                column += 1
            } else {
                column = indent
                out.append(c)
            }
        }
        return out
    }
}
