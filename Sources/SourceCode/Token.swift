/// One token of a Swift or Objective-C file, as the lexers produce them: comments and whitespace
/// are dropped, so a word inside a comment or a string never looks like code.
struct Token {
    enum Kind: UInt8 {
        case identifier
        /// A string literal or one segment of an interpolated Swift string (see `segment`).
        case string
        case number
        /// One punctuation byte (`(`, `:`, `=`, ...); `??`, `==`, `!=`, `->` and `+=` are `other`.
        case punct
        /// A multi-byte operator (`??`, `==`, `->`, ...): never taken for `=` or `:`.
        case other
        /// The start of an Objective-C `#define` line; the tokens up to `defineEnd` are its body.
        case defineStart
        case defineEnd
    }

    /// For strings: a whole literal, or the first, a middle or the last segment of an
    /// interpolated one (`"a\(x)b\(y)c"` is head `a`, tokens of `x`, middle `b`, tokens of `y`, tail `c`).
    enum Segment: UInt8 {
        case whole, head, middle, tail
    }

    var kind: Kind
    /// The punctuation byte, for `punct`.
    var byte: UInt8 = 0
    var segment: Segment = .whole
    var start: Int32
    var end: Int32
    var line: Int32
    var column: Int32
    /// For a bracket, the index of its partner (or -1: unpaired); for a string head
    /// or middle, the index of the next segment of the same string (or -1: the file ends first).
    var partner: Int32 = -1
    /// For strings: the index of the decoded text in `TokenizedSource.strings`.
    var value: Int32 = -1
}

/// An Objective-C or C preprocessor line that the scan follows: it applies to the tokens from
/// index `before` on.
struct PreprocessorDirective {
    enum Kind {
        /// `#if`, `#ifdef`, `#ifndef`.
        case open(CompilationCondition)
        /// `#elif` (`#else` is `.always`).
        case elseIf(CompilationCondition)
        case close
        /// `#define NAME`: only its place counts (an include guard's second line).
        case define(String)
    }

    var before: Int
    var kind: Kind
}

/// A lexed file: its bytes, tokens, decoded string texts and whether it imports a module.
struct TokenizedSource {
    var bytes: [UInt8]
    var tokens: [Token] = []
    var strings: [String] = []
    var importsKeychainAccess = false
    /// Objective-C and C: the conditional directives (`#if` ... `#endif`) and `#define`s, in order.
    var directives: [PreprocessorDirective] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True when token `i` is the identifier `word`.
    @inline(__always)
    func isWord(_ i: Int, _ word: StaticString) -> Bool {
        guard i >= 0, i < tokens.count else { return false }
        let t = tokens[i]
        let n = Int(t.end &- t.start)
        guard t.kind == .identifier, n == word.utf8CodeUnitCount else { return false }
        let p = word.utf8Start
        return bytes.withUnsafeBufferPointer { b in
            let s = Int(t.start)
            guard b[s] == p[0] else { return false }
            var k = 1
            while k < n {
                if b[s &+ k] != p[k] { return false }
                k &+= 1
            }
            return true
        }
    }

    /// True when token `i` is the punctuation `c`.
    func isPunct(_ i: Int, _ c: UInt8) -> Bool {
        i >= 0 && i < tokens.count && tokens[i].kind == .punct && tokens[i].byte == c
    }

    /// The source text of token `i` (the identifier's name).
    func text(_ i: Int) -> String {
        let t = tokens[i]
        return String(decoding: bytes[Int(t.start)..<Int(t.end)], as: UTF8.self)
    }

    /// The source text of tokens `lo..<hi`, whitespace runs shown as one space, cut at `limit`
    /// bytes: for "unknown" descriptions.
    func snippet(_ lo: Int, _ hi: Int, limit: Int = 60) -> String {
        guard lo < hi, lo >= 0, hi <= tokens.count else { return "" }
        let a = Int(tokens[lo].start)
        let b = min(Int(tokens[hi - 1].end), a + limit * 2)
        var out: [UInt8] = []
        var space = false
        for c in bytes[a..<b] {
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                space = true
                continue
            }
            if space, !out.isEmpty { out.append(0x20) }
            space = false
            out.append(c)
            if out.count >= limit { break }
        }
        var text = String(decoding: out, as: UTF8.self)
        if out.count >= limit || b < Int(tokens[hi - 1].end) { text += "..." }
        return text
    }

    /// Pairs brackets in one pass with an explicit stack (no recursion): `partner` of each
    /// opening bracket is its closing one. A closer that does not match the innermost opener
    /// closes the nearest matching one on the stack, or is ignored when there is none.
    mutating func pairBrackets() {
        var stack: [Int] = []
        for i in tokens.indices where tokens[i].kind == .punct {
            let c = tokens[i].byte
            switch c {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                stack.append(i)
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                let open: UInt8 = c == UInt8(ascii: ")") ? UInt8(ascii: "(") : c == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{")
                // Look only a few levels down, so a stray closer costs constant work.
                var k = stack.count - 1
                while k >= 0, k >= stack.count - 8, tokens[stack[k]].byte != open { k -= 1 }
                if k >= 0, k >= stack.count - 8 {
                    tokens[stack[k]].partner = Int32(i)
                    tokens[i].partner = Int32(stack[k])
                    stack.removeSubrange(k...)
                }
            default:
                break
            }
        }
    }
}

/// Byte classes shared by both lexers.
enum ByteClass {
    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    static func isIdentifierBody(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    static func isDigit(_ c: UInt8) -> Bool {
        c >= 0x30 && c <= 0x39
    }

    /// Operator bytes that join into one multi-byte operator token.
    static func isOperator(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
             UInt8(ascii: "|"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"),
             UInt8(ascii: "%"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
