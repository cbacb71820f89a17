/// Reads the expression written in a token range as a `StringExpression`: literals, `+`,
/// interpolation, ternaries and `switch` expressions (sets of values), `String(format:)` / `stringWithFormat:` with `%@`, `appending` /
/// `stringByAppendingString:`, Info.plist reads, and (qualified) names. Anything else is
/// `.unknown` with the text written there. Recursion is on sub-ranges only and stops at
/// `maxDepth` levels (deeper parts are unknown), so the work is at most `maxDepth + 1` times the
/// range's length; a range of more than `maxTokens` tokens is not read at all (`.overLimit`), so
/// no expression kept is larger than that.
struct ExpressionParser {
    let src: TokenizedSource
    let swift: Bool
    static let maxDepth = 8
    static let maxTokens = 4096
    static let tooLong = "an expression longer than \(maxTokens) tokens"

    /// The index after the unit starting at `i`: a bracket group, a whole interpolated string,
    /// or one token. Unclosed groups count as one token (so every step moves forward).
    func skip(_ i: Int) -> Int {
        let t = src.tokens[i]
        if t.kind == .punct, t.partner > i, t.byte == UInt8(ascii: "(") || t.byte == UInt8(ascii: "[") || t.byte == UInt8(ascii: "{") {
            return Int(t.partner) + 1
        }
        if t.kind == .string, t.segment == .head {
            var k = i
            while src.tokens[k].segment == .head || src.tokens[k].segment == .middle {
                let p = Int(src.tokens[k].partner)
                if p <= k { return i + 1 }
                k = p
            }
            return k + 1
        }
        return i + 1
    }

    /// Splits `lo..<hi` at top-level tokens for which `isSeparator` holds.
    func split(_ lo: Int, _ hi: Int, where isSeparator: (Int) -> Bool) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = lo
        var i = lo
        while i < hi {
            if isSeparator(i) {
                parts.append(start..<i)
                start = i + 1
                i += 1
            } else {
                i = min(skip(i), hi)
            }
        }
        parts.append(start..<hi)
        return parts
    }

    func isOperator(_ i: Int, _ text: StaticString) -> Bool {
        guard i < src.tokens.count, src.tokens[i].kind == .other || src.tokens[i].kind == .punct else { return false }
        let t = src.tokens[i]
        return src.bytes[Int(t.start)..<Int(t.end)].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func unknown(_ lo: Int, _ hi: Int) -> StringExpression {
        .unknown(src.snippet(lo, hi))
    }

    func parse(_ lo: Int, _ hi: Int, depth: Int = 0) -> StringExpression {
        guard lo < hi else { return .unknown("nothing") }
        guard depth <= ExpressionParser.maxDepth else { return .overLimit("an expression nested too deeply") }
        guard hi - lo <= ExpressionParser.maxTokens else { return .overLimit(ExpressionParser.tooLong) }
        if let choice = ternary(lo, hi, depth: depth) { return choice }
        var hi = hi
        // Suffixes that keep the main expression: `as? T`, `as! T`, `as T`, `?? fallback`, `!`.
        var i = lo
        while i < hi {
            if isOperator(i, "??") || (swift && src.isWord(i, "as") && i > lo) {
                hi = i
                break
            }
            i = skip(i)
        }
        while hi > lo + 1, src.isPunct(hi - 1, UInt8(ascii: "!")) { hi -= 1 }
        let parts = split(lo, hi) { k in src.isPunct(k, UInt8(ascii: "+")) && k > lo }
        if parts.count > 1 {
            return .concatenation(parts.map { parse($0.lowerBound, $0.upperBound, depth: depth + 1) })
        }
        return primary(lo, hi, depth: depth)
    }

    private func primary(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression {
        guard lo < hi else { return .unknown("nothing") }
        let first = src.tokens[lo]
        if first.kind == .string { return string(lo, hi, depth: depth) }
        if src.isPunct(lo, UInt8(ascii: "(")), Int(first.partner) == hi - 1 {
            return parse(lo + 1, hi - 1, depth: depth + 1)
        }
        if !swift, src.isPunct(lo, UInt8(ascii: "(")), first.partner > lo, Int(first.partner) < hi - 1, isCast(lo + 1, Int(first.partner)) {
            return parse(Int(first.partner) + 1, hi, depth: depth + 1)
        }
        if src.isWord(lo, "CFSTR"), src.isPunct(lo + 1, UInt8(ascii: "(")), Int(src.tokens[lo + 1].partner) == hi - 1 {
            return parse(lo + 2, hi - 1, depth: depth + 1)
        }
        if let plist = infoPlistRead(lo, hi) { return plist }
        if swift, let cases = switchExpression(lo, hi, depth: depth) { return cases }
        if swift, src.isWord(lo, "String"), src.isPunct(lo + 1, UInt8(ascii: "(")), Int(src.tokens[lo + 1].partner) == hi - 1 {
            if src.isWord(lo + 2, "format"), src.isPunct(lo + 3, UInt8(ascii: ":")) {
                return format(lo + 4, hi - 1, depth: depth)
            }
            if split(lo + 2, hi - 1, where: { src.isPunct($0, UInt8(ascii: ",")) }).count == 1,
               !src.isPunct(lo + 3, UInt8(ascii: ":")) {
                return parse(lo + 2, hi - 1, depth: depth + 1)
            }
        }
        if swift, src.isPunct(hi - 1, UInt8(ascii: ")")), let open = opener(of: hi - 1), open >= lo + 3,
           src.isWord(open - 1, "appending"), src.isPunct(open - 2, UInt8(ascii: ".")) {
            return .concatenation([parse(lo, open - 2, depth: depth + 1), parse(open + 1, hi - 1, depth: depth + 1)])
        }
        if !swift, src.isPunct(lo, UInt8(ascii: "[")), Int(first.partner) == hi - 1 {
            return message(lo + 1, hi - 1, depth: depth)
        }
        if let names = reference(lo, hi) { return .reference(names) }
        // `Keys.group()`: a call without arguments, resolved as the function's body (Swift).
        if swift, hi - lo >= 3, src.isPunct(hi - 2, UInt8(ascii: "(")), Int(src.tokens[hi - 2].partner) == hi - 1,
           var names = reference(lo, hi - 2), let last = names.last, last != "self", last != "Self" {
            names[names.count - 1] = last + "()"
            return .reference(names)
        }
        return unknown(lo, hi)
    }

    /// The opening bracket paired with the closing bracket `close`.
    func opener(of close: Int) -> Int? {
        let p = Int(src.tokens[close].partner)
        return p >= 0 && p < close ? p : nil
    }

    /// `(NSString *)`, `(__bridge id)`, `(__bridge_transfer NSString *)`: a C cast.
    func isCast(_ lo: Int, _ hi: Int) -> Bool {
        guard lo < hi else { return false }
        for k in lo..<hi where !(src.tokens[k].kind == .identifier || src.isPunct(k, UInt8(ascii: "*"))) { return false }
        return true
    }

    /// A literal; adjacent literals join (C); an interpolated Swift string is a concatenation.
    private func string(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression {
        var parts: [StringExpression] = []
        var k = lo
        var text = ""
        while k < hi {
            let t = src.tokens[k]
            guard t.kind == .string else { return unknown(lo, hi) }
            text += src.strings[Int(t.value)]
            if t.segment == .head || t.segment == .middle {
                let next = Int(t.partner)
                guard next > k, next < hi else { return .unknown("an unterminated string") }
                if !text.isEmpty { parts.append(.literal(text)) }
                text = ""
                parts.append(parse(k + 1, next, depth: depth + 1))
                k = next
            } else {
                k += 1
                if swift, t.segment == .whole, k < hi { return unknown(lo, hi) }
            }
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.literal(text)) }
        return parts.count == 1 ? parts[0] : .concatenation(parts)
    }

    /// `FORMAT, args...` with only `%@` placeholders (and `%%`), as many as there are arguments.
    func format(_ lo: Int, _ hi: Int, depth: Int) -> StringExpression {
        let args = split(lo, hi) { src.isPunct($0, UInt8(ascii: ",")) }
        guard case .literal(let pattern) = parse(args[0].lowerBound, args[0].upperBound, depth: depth + 1) else {
            return .unknown("a format that is not a literal")
        }
        var parts: [StringExpression] = []
        var text: [UInt8] = []
        var next = 1
        let bytes = Array(pattern.utf8)
        var k = 0
        while k < bytes.count {
            if bytes[k] == UInt8(ascii: "%") {
                let spec = k + 1 < bytes.count ? bytes[k + 1] : 0
                if spec == UInt8(ascii: "%") {
                    text.append(spec)
                } else if spec == UInt8(ascii: "@"), next < args.count {
                    if !text.isEmpty { parts.append(.literal(String(decoding: text, as: UTF8.self))) }
                    text = []
                    parts.append(parse(args[next].lowerBound, args[next].upperBound, depth: depth + 1))
                    next += 1
                } else {
                    return .unknown("a format with a placeholder other than %@")
                }
                k += 2
                continue
            }
            text.append(bytes[k])
            k += 1
        }
        guard next == args.count else { return .unknown("a format whose arguments do not match its placeholders") }
        if !text.isEmpty || parts.isEmpty { parts.append(.literal(String(decoding: text, as: UTF8.self))) }
        return parts.count == 1 ? parts[0] : .concatenation(parts)
    }

    /// `A.B.c`, `.c`, `self.c`, `Self.c` (kept with `self`/`Self` first, for the extractor to
    /// classify), with a trailing `.rawValue` dropped.
    func reference(_ lo: Int, _ hi: Int) -> [String]? {
        var names: [String] = []
        var k = lo
        if src.isPunct(k, UInt8(ascii: ".")) { k += 1 }
        while k < hi {
            guard src.tokens[k].kind == .identifier, names.count < 32 else { return nil }
            names.append(src.text(k))
            k += 1
            if k == hi { break }
            guard src.isPunct(k, UInt8(ascii: ".")), k + 1 < hi else { return nil }
            k += 1
        }
        if names.count > 1, names.last == "rawValue" { names.removeLast() }
        if names.count > 1, names.last == "description" { return nil }
        if names.count == 1, ["true", "false", "nil", "NULL", "YES", "NO"].contains(names[0]) { return nil }
        return names.isEmpty || names.count > 32 ? nil : names
    }
}
