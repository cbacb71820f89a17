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
}
