/// How a keychain query dictionary starts, read from the tokens of its expression.
extension ExpressionParser {
    /// The dictionary a query expression starts as: a literal (its opening bracket), or an empty
    /// dictionary (-1: `[String: Any]()`, `[NSMutableDictionary dictionary]`); nil for anything else.
    func queryLiteral(_ lo: Int, _ hi: Int) -> Int? {
        var hi = hi
        var k = lo
        while k < hi {
            if swift, src.isWord(k, "as") { hi = k; break }
            k = skip(k)
        }
        guard lo < hi else { return nil }
        if swift {
            guard src.isPunct(lo, UInt8(ascii: "[")) else { return nil }
            let close = Int(src.tokens[lo].partner)
            if close == hi - 1 { return lo }
            return close == hi - 3 && src.isPunct(hi - 2, UInt8(ascii: "(")) ? -1 : nil
        }
        var start = lo
        if src.isPunct(start, UInt8(ascii: "(")), src.tokens[start].partner > start, isCast(start + 1, Int(src.tokens[start].partner)) {
            start = Int(src.tokens[start].partner) + 1
        }
        if src.isPunct(start, UInt8(ascii: "@")), src.isPunct(start + 1, UInt8(ascii: "{")), Int(src.tokens[start + 1].partner) == hi - 1 {
            return start + 1
        }
        guard src.isPunct(start, UInt8(ascii: "[")), Int(src.tokens[start].partner) == hi - 1 else { return nil }
        if src.isPunct(start + 1, UInt8(ascii: "@")), src.isPunct(start + 2, UInt8(ascii: "{")), src.isWord(hi - 2, "mutableCopy") {
            return start + 2
        }
        if src.isWord(start + 1, "NSMutableDictionary") || (src.isPunct(start + 1, UInt8(ascii: "[")) && src.isWord(start + 2, "NSMutableDictionary")) {
            return -1
        }
        return nil
    }
}
