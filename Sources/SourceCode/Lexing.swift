/// What the Swift and Objective-C lexers share: a cursor over the bytes, the line it is on, and
/// the tokens made so far. A lexer makes its tokens in `run` (one pass over the bytes) and closes
/// whatever is still open at the end of the input in `finish`.
protocol Lexing {
    var cursor: LexerCursor { get set }

    /// A lexer at the first byte of `source`.
    init(source: TokenizedSource)
    mutating func run()
    mutating func finish()
}

/// Where a lexer is: the source with the tokens made so far, the byte offset, the line (from 1)
/// and the offset where that line starts.
struct LexerCursor {
    var src: TokenizedSource
    var pos = 0
    var line: Int32 = 1
    var lineStart = 0
    let count: Int

    init(_ source: TokenizedSource) {
        src = source
        count = source.bytes.count
    }
}

extension Lexing {
    var src: TokenizedSource {
        get { cursor.src }
        set { cursor.src = newValue }
        _modify { yield &cursor.src }
    }
    var pos: Int {
        get { cursor.pos }
        set { cursor.pos = newValue }
    }
    var line: Int32 {
        get { cursor.line }
        set { cursor.line = newValue }
    }
    var lineStart: Int {
        get { cursor.lineStart }
        set { cursor.lineStart = newValue }
    }
    var count: Int { cursor.count }

    /// The tokens of `bytes`, brackets paired.
    static func tokenize(_ bytes: [UInt8]) -> TokenizedSource {
        var source = TokenizedSource(bytes: bytes)
        source.tokens.reserveCapacity(bytes.count / 5)
        var lexer = Self(source: source)
        lexer.run()
        lexer.finish()
        lexer.src.pairBrackets()
        return lexer.src
    }

    mutating func finish() {}

    /// The byte at `i`, or 0 past the end (so look-ahead needs no bounds check).
    func at(_ i: Int) -> UInt8 {
        i < count ? src.bytes[i] : 0
    }

    mutating func newline(at i: Int) {
        line += 1
        lineStart = i + 1
    }

    /// Appends a token from `start` to the cursor.
    mutating func emit(_ kind: Token.Kind, from start: Int, line startLine: Int32, column: Int32, byte: UInt8 = 0) {
        src.tokens.append(Token(kind: kind, byte: byte, start: Int32(start), end: Int32(pos), line: startLine, column: column))
    }

    /// An identifier, a number, a run of operator bytes, or one punctuation byte, starting at the
    /// cursor (`c` is its byte). A `.` continues a number always, or only before a digit
    /// (`dotBeforeDigitOnly`); `single` operator bytes never join a run. A run stops before `//`
    /// and `/*`.
    mutating func lexPlain(_ c: UInt8, start: Int, line startLine: Int32, column: Int32,
                           dotBeforeDigitOnly: Bool, single: (UInt8) -> Bool = { _ in false }) {
        if ByteClass.isIdentifierStart(c) {
            while pos < count, ByteClass.isIdentifierBody(src.bytes[pos]) { pos += 1 }
            emit(.identifier, from: start, line: startLine, column: column)
        } else if ByteClass.isDigit(c) {
            while pos < count, ByteClass.isIdentifierBody(src.bytes[pos]) || (src.bytes[pos] == UInt8(ascii: ".") && (!dotBeforeDigitOnly || ByteClass.isDigit(at(pos + 1)))) {
                pos += 1
            }
            emit(.number, from: start, line: startLine, column: column)
        } else if ByteClass.isOperator(c), !single(c) {
            while pos < count, ByteClass.isOperator(src.bytes[pos]), !single(src.bytes[pos]),
                  !(src.bytes[pos] == UInt8(ascii: "/") && (at(pos + 1) == UInt8(ascii: "/") || at(pos + 1) == UInt8(ascii: "*"))) {
                pos += 1
            }
            emit(pos - start == 1 ? .punct : .other, from: start, line: startLine, column: column, byte: c)
        } else {
            pos += 1
            emit(.punct, from: start, line: startLine, column: column, byte: c)
        }
    }
}
