/// The tokens of a Swift file as plain values, for readers outside this module (Tuist manifests):
/// the project's Swift lexer, with comments dropped, each token with its text and line. An
/// interpolated string is one `interpolatedString` token (its first segment's text): its value
/// needs evaluation, so readers treat it as unknown.
public enum SwiftTokenList {
    public enum Kind: Sendable, Hashable {
        case identifier, string, interpolatedString, number, punct, other
    }

    public struct Item: Sendable, Hashable {
        public var kind: Kind
        /// The identifier, the decoded string, the number or the punctuation as written.
        public var text: String
        public var line: Int
        public var column: Int
    }

    /// The tokens of `bytes` (at most `maxTokens` of them: the rest is cut).
    public static func tokens(of bytes: [UInt8], maxTokens: Int) -> [Item] {
        let source = SwiftLexer.tokenize(bytes)
        var out: [Item] = []
        out.reserveCapacity(min(source.tokens.count, maxTokens))
        var i = 0
        while i < source.tokens.count, out.count < maxTokens {
            let t = source.tokens[i]
            let line = Int(t.line), column = Int(t.column)
            switch t.kind {
            case .identifier:
                out.append(Item(kind: .identifier, text: source.text(i), line: line, column: column))
            case .number:
                out.append(Item(kind: .number, text: source.text(i), line: line, column: column))
            case .punct, .other:
                out.append(Item(kind: t.kind == .punct ? .punct : .other, text: source.text(i), line: line, column: column))
            case .string:
                let text = t.value >= 0 ? source.strings[Int(t.value)] : ""
                if t.segment == .whole {
                    out.append(Item(kind: .string, text: text, line: line, column: column))
                } else {
                    out.append(Item(kind: .interpolatedString, text: text, line: line, column: column))
                    // Skip to the last segment of the same string: segments are chained forward,
                    // so this ends; a string the file ends inside stops at the end.
                    var j = i
                    while j < source.tokens.count, source.tokens[j].segment != .tail {
                        let next = Int(source.tokens[j].partner)
                        guard source.tokens[j].kind == .string, next > j else { j = source.tokens.count; break }
                        j = next
                    }
                    i = j
                }
            case .defineStart, .defineEnd:
                break
            }
            i += 1
        }
        return out
    }
}
