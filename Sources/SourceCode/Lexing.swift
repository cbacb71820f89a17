/// What the Swift and Objective-C lexers share: a cursor over the bytes, the line it is on, and
/// the tokens made so far.
protocol Lexing {
    var src: TokenizedSource { get set }
    var pos: Int { get set }
    var line: Int32 { get set }
    var lineStart: Int { get set }
    var count: Int { get }
}

extension Lexing {
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
