/// Info.plist reads and Objective-C messages.
///
/// Any bundle expression in front of an Info.plist read is accepted (`Bundle.main`, `Bundle.app`,
/// `Bundle(for: X.self)`, `[NSBundle bundleForClass:...]`): the value is taken from the unit's
/// own Info.plist, which is what the main bundle of the running target reads, and what a
/// helper bundle of the same app reads in the common case of a project-wide key.
extension ExpressionParser {
    /// `B.object(forInfoDictionaryKey: "K")`, `B.infoDictionary?["K"]`, `B.infoDictionary!["K"]`
    /// (Swift); `B.infoDictionary[@"K"]`, `[B infoDictionary][@"K"]` (Objective-C).
    func infoPlistRead(_ lo: Int, _ hi: Int) -> StringExpression? {
        guard hi - lo >= 4, let open = opener(of: hi - 1) else { return nil }
        if swift, src.isPunct(hi - 1, UInt8(ascii: ")")), open >= lo + 2, src.isWord(open - 1, "object"),
           src.isPunct(open - 2, UInt8(ascii: ".")), src.isWord(open + 1, "forInfoDictionaryKey"),
           src.isPunct(open + 2, UInt8(ascii: ":")) {
            return infoPlistKey(open + 3, hi - 1)
        }
        if src.isPunct(hi - 1, UInt8(ascii: "]")), open > lo, endsWithInfoDictionary(lo, open) {
            return infoPlistKey(open + 1, hi - 1)
        }
        return nil
    }

    /// Tokens `lo..<end` end with `infoDictionary` (`.infoDictionary`, `.infoDictionary?`,
    /// `.infoDictionary!`, `[B infoDictionary]`).
    func endsWithInfoDictionary(_ lo: Int, _ end: Int) -> Bool {
        var k = end - 1
        if k > lo, src.isPunct(k, UInt8(ascii: "?")) || src.isPunct(k, UInt8(ascii: "!")) { k -= 1 }
        if k > lo, src.isWord(k, "infoDictionary"), src.isPunct(k - 1, UInt8(ascii: ".")) { return true }
        if !swift, k > lo, src.isPunct(k, UInt8(ascii: "]")), src.isWord(k - 1, "infoDictionary"),
           let open = opener(of: k), open >= lo, open < k - 2 {
            return true
        }
        return false
    }

    private func infoPlistKey(_ lo: Int, _ hi: Int) -> StringExpression {
        if case .literal(let key) = parse(lo, hi, depth: ExpressionParser.maxDepth) { return .infoPlist(key: key) }
        return .unknown("an Info.plist read of a key that is not a literal")
    }

    /// The inside of `[receiver selector...]`.
    func message(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression {
        var k = lo
        while k < hi, !(src.tokens[k].kind == .identifier && src.isPunct(k + 1, UInt8(ascii: ":")) && k > lo) { k = skip(k) }
        guard k < hi else {
            // A unary message: `[x copy]` keeps x.
            if hi - lo >= 2, src.isWord(hi - 1, "copy") || src.isWord(hi - 1, "mutableCopy") {
                return parse(lo, hi - 1, depth: depth + 1)
            }
            return unknown(lo - 1, hi + 1)
        }
        let argument = (k + 2)..<hi
        if src.isWord(k, "stringWithFormat") || src.isWord(k, "initWithFormat") {
            return format(argument.lowerBound, argument.upperBound, depth: depth)
        }
        if src.isWord(k, "stringByAppendingString") {
            return .concatenation([parse(lo, k, depth: depth + 1), parse(argument.lowerBound, argument.upperBound, depth: depth + 1)])
        }
        if src.isWord(k, "stringWithString") || src.isWord(k, "initWithString") {
            return parse(argument.lowerBound, argument.upperBound, depth: depth + 1)
        }
        if src.isWord(k, "objectForInfoDictionaryKey") {
            return infoPlistKey(argument.lowerBound, argument.upperBound)
        }
        if src.isWord(k, "objectForKey") || src.isWord(k, "valueForKey"), endsWithInfoDictionary(lo, k) {
            return infoPlistKey(argument.lowerBound, argument.upperBound)
        }
        return unknown(lo - 1, hi + 1)
    }
}
