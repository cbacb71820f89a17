/// An Objective-C (and C, C++) lexer, enough to find keychain idioms: identifiers, punctuation,
/// numbers, C strings `"..."`, Objective-C strings `@"..."`, character literals, `//` and
/// `/* */` comments (not nested, as in C). Preprocessor lines: `#define NAME body` is kept (the
/// body's tokens between `defineStart` and `defineEnd`, `\` line continuations followed);
/// conditional directives (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`) are recorded
/// with their conditions in `directives` (both branches are still lexed; the extractor decides);
/// every other directive (`#import`, `#pragma`, ...) is skipped. One pass over the bytes.
struct ObjCLexer: Lexing {
    var cursor: LexerCursor
    /// Inside a `#define` line: a line break that is not escaped ends it.
    private var inDefine = false
    /// Only whitespace so far on this line (a `#` here starts a directive).
    private var lineBlank = true

    init(source: TokenizedSource) {
        cursor = LexerCursor(source)
    }

    /// A `#define` on the last line ends with the input.
    mutating func finish() {
        if inDefine { emitDefineEnd() }
        // An include guard (`#ifndef X_H` then `#define X_H` as the file's first directives) holds
        // whenever the file is read: the scan reads each header once.
        if src.directives.count >= 2, case .open(.not(.defined(let guarded))) = src.directives[0].kind,
           case .define(let name) = src.directives[1].kind, name == guarded {
            src.directives[0].kind = .open(.always)
        }
    }

    private mutating func emitDefineEnd() {
        inDefine = false
        src.tokens.append(Token(kind: .defineEnd, start: Int32(pos), end: Int32(pos), line: line, column: Int32(pos - lineStart + 1)))
    }

    mutating func run() {
        while pos < count {
            let c = src.bytes[pos]
            let startLine = line
            let column = Int32(pos - lineStart + 1)
            let start = pos
            if c == 0x0A {
                if inDefine { emitDefineEnd() }
                newline(at: pos)
                pos += 1
                lineBlank = true
                continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0B || c == 0x0C || c == 0x00 {
                pos += 1
                continue
            }
            if c == UInt8(ascii: "\\"), at(pos + 1) == 0x0A || (at(pos + 1) == 0x0D && at(pos + 2) == 0x0A) {
                pos += at(pos + 1) == 0x0D ? 2 : 1
                newline(at: pos)
                pos += 1
                continue
            }
            let wasBlank = lineBlank
            lineBlank = false
            switch c {
            case UInt8(ascii: "/") where at(pos + 1) == UInt8(ascii: "/"):
                while pos < count, src.bytes[pos] != 0x0A { pos += 1 }
                lineBlank = wasBlank
            case UInt8(ascii: "/") where at(pos + 1) == UInt8(ascii: "*"):
                pos += 2
                while pos < count, !(src.bytes[pos] == UInt8(ascii: "*") && at(pos + 1) == UInt8(ascii: "/")) {
                    if src.bytes[pos] == 0x0A { newline(at: pos) }
                    pos += 1
                }
                pos = min(pos + 2, count)
                lineBlank = wasBlank
            case UInt8(ascii: "#") where wasBlank && !inDefine:
                directive(start: start, line: startLine, column: column)
            case UInt8(ascii: "\""):
                lexString(start: start, line: startLine, column: column)
            case UInt8(ascii: "@") where at(pos + 1) == UInt8(ascii: "\""):
                pos += 1
                lexString(start: start, line: startLine, column: column)
            case UInt8(ascii: "'"):
                pos += 1
                while pos < count, src.bytes[pos] != UInt8(ascii: "'"), src.bytes[pos] != 0x0A {
                    pos += src.bytes[pos] == UInt8(ascii: "\\") && at(pos + 1) != 0x0A ? 2 : 1
                }
                if at(pos) == UInt8(ascii: "'") { pos += 1 }
                emit(.number, from: start, line: startLine, column: column)
            default:
                // `*` and `?` stay single (`NSString **`, `a ?: b` are read byte by byte); a `.`
                // continues a number (`1.5f`, `0x1.p3`).
                lexPlain(c, start: start, line: startLine, column: column, dotBeforeDigitOnly: false,
                         single: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") })
            }
        }
    }

    /// A preprocessor line. `#define NAME` (an object-like macro: no `(` right after the name)
    /// opens a define body; anything else is skipped to the end of the line, continuations included.
    private mutating func directive(start: Int, line startLine: Int32, column: Int32) {
        pos += 1
        while at(pos) == 0x20 || at(pos) == 0x09 { pos += 1 }
        let nameStart = pos
        while pos < count, ByteClass.isIdentifierBody(src.bytes[pos]) { pos += 1 }
        let name = src.bytes[nameStart..<pos]
        let isDefine = name.elementsEqual("define".utf8)
        if isDefine {
            while at(pos) == 0x20 || at(pos) == 0x09 { pos += 1 }
            var e = pos
            while e < count, ByteClass.isIdentifierBody(src.bytes[e]) { e += 1 }
            if e > pos {
                src.directives.append(PreprocessorDirective(before: src.tokens.count,
                                                            kind: .define(String(decoding: src.bytes[pos..<e], as: UTF8.self))))
            }
            if e > pos, at(e) != UInt8(ascii: "(") {
                emit(.defineStart, from: start, line: startLine, column: column)
                inDefine = true
                return
            }
        }
        let rest = pos
        while pos < count, src.bytes[pos] != 0x0A {
            if src.bytes[pos] == UInt8(ascii: "\\"), at(pos + 1) == 0x0A {
                pos += 1
                newline(at: pos)
            }
            pos += 1
        }
        if let kind = Self.conditional(name, src.bytes[rest..<pos]) {
            src.directives.append(PreprocessorDirective(before: src.tokens.count, kind: kind))
        }
    }

    /// The conditional directive named `name` with the rest of its line `text`; nil for others.
    private static func conditional(_ name: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> PreprocessorDirective.Kind? {
        guard name.count <= 8 else { return nil }
        switch String(decoding: name, as: UTF8.self) {
        case "if": return .open(.readPreprocessor(text))
        case "ifdef": return .open(.readDefined(text, negated: false))
        case "ifndef": return .open(.readDefined(text, negated: true))
        case "elif": return .elseIf(.readPreprocessor(text))
        case "elifdef": return .elseIf(.readDefined(text, negated: false))
        case "elifndef": return .elseIf(.readDefined(text, negated: true))
        case "else": return .elseIf(.always)
        case "endif": return .close
        default: return nil
        }
    }

    /// A C or Objective-C string from its opening quote (`pos`); ends at the closing quote or,
    /// unterminated, at the end of the line. Escapes `\n \t \r \0 \\ \" \'` are decoded, others kept.
    private mutating func lexString(start: Int, line startLine: Int32, column: Int32) {
        pos += 1
        var text: [UInt8] = []
        while pos < count {
            let c = src.bytes[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                break
            }
            if c == 0x0A { break }
            if c == UInt8(ascii: "\\") {
                let e = at(pos + 1)
                pos += 2
                switch e {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "0"): text.append(0x00)
                case 0x0A: newline(at: pos - 1)
                case 0: pos = min(pos, count)
                default: text.append(e)
                }
                continue
            }
            text.append(c)
            pos += 1
        }
        pos = min(pos, count)
        var token = Token(kind: .string, start: Int32(start), end: Int32(pos), line: startLine, column: column)
        token.value = Int32(src.strings.count)
        src.strings.append(String(decoding: text, as: UTF8.self))
        src.tokens.append(token)
    }
}
