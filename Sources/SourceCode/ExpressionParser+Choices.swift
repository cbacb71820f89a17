/// Expressions that give one of several values: `cond ? a : b`, and a Swift `switch` expression
/// whose cases each give a value (`switch self { case .a: "X" case .b: "Y" }`).
extension ExpressionParser {
    /// `cond ? a : b` at the top level of `lo..<hi`: the `?` written after a space (an optional
    /// chain's `?` follows its operand directly), and the `:` that pairs with it (nested
    /// ternaries counted). Both sides are possible values.
    func ternary(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression? {
        var i = skip(lo)
        var question = -1
        while i < hi {
            if src.isPunct(i, UInt8(ascii: "?")), spaced(i) {
                question = i
                break
            }
            i = skip(i)
        }
        guard question > lo else { return nil }
        var open = 0
        var k = question + 1
        while k < hi {
            if src.isPunct(k, UInt8(ascii: "?")), spaced(k) {
                open += 1
            } else if src.isPunct(k, UInt8(ascii: ":")) {
                if open == 0 { break }
                open -= 1
            }
            k = skip(k)
        }
        guard k < hi, k > question + 1, k + 1 < hi else { return nil }
        let condition = src.snippet(lo, question, limit: 40)
        let line = Int(src.tokens[question].line)
        return .alternatives([
            Alternative(label: "\(condition) ? (true)", line: line, value: parse(question + 1, k, depth: depth + 1)),
            Alternative(label: "\(condition) ? (false)", line: line, value: parse(k + 1, hi, depth: depth + 1)),
        ])
    }

    /// True when a space, tab or line break comes right before token `i`.
    private func spaced(_ i: Int) -> Bool {
        let start = Int(src.tokens[i].start)
        guard start > 0 else { return false }
        let c = src.bytes[start - 1]
        return c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    /// `switch SUBJECT { case P: VALUE ... default: VALUE }` filling all of `lo..<hi` (Swift 5.9
    /// switch expressions; a getter's body): each case's value is one possible value, labelled
    /// with its pattern. More than `Alternative.maxValues` cases: unknown.
    func switchExpression(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression? {
        guard src.isWord(lo, "switch") else { return nil }
        var brace = lo + 1
        while brace < hi, !src.isPunct(brace, UInt8(ascii: "{")) { brace = skip(brace) }
        guard brace < hi, Int(src.tokens[brace].partner) == hi - 1 else { return nil }
        var labels: [Int] = []
        var k = brace + 1
        while k < hi - 1 {
            if src.isWord(k, "case") || src.isWord(k, "default") { labels.append(k) }
            k = skip(k)
        }
        guard !labels.isEmpty else { return nil }
        guard labels.count <= Alternative.maxValues else {
            return .unknown("a switch with more than \(Alternative.maxValues) cases")
        }
        var out: [Alternative] = []
        for (n, label) in labels.enumerated() {
            let end = n + 1 < labels.count ? labels[n + 1] : hi - 1
            var colon = label + 1
            while colon < end, !src.isPunct(colon, UInt8(ascii: ":")) { colon = skip(colon) }
            guard colon < end else { return nil }
            out.append(Alternative(label: src.snippet(label, colon, limit: 40), line: Int(src.tokens[label].line),
                                   value: parse(colon + 1, end, depth: depth + 1)))
        }
        return .alternatives(out)
    }
}
