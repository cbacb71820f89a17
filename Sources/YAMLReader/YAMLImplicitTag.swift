/// The tag YAML 1.1 gives a plain scalar with no explicit tag, by the forms of the YAML 1.1
/// type repository (yaml.org/type: bool, int, float, merge, null, timestamp, value), tried in
/// that order; anything else is a string. Each form is matched by hand over the UTF-8 bytes, in
/// one left-to-right pass with no backtracking: linear in the scalar's length.
enum YAMLImplicitTag {
    static func resolve(_ text: String) -> YAMLTag {
        let b = Array(text.utf8)
        if isBool(text) { return .bool }
        if isInt(b) { return .int }
        if isFloat(b) { return .float }
        if text == "<<" { return .merge }
        if isNull(text) { return .null }
        if isTimestamp(b) { return .timestamp }
        if text == "=" { return .value }
        return .str
    }

    static func isBool(_ s: String) -> Bool {
        for word in ["yes", "no", "true", "false", "on", "off"] {
            let capitalized = word.prefix(1).uppercased() + word.dropFirst()
            if s == word || s == capitalized || s == word.uppercased() { return true }
        }
        return false
    }

    static func isNull(_ s: String) -> Bool {
        s == "~" || s == "null" || s == "Null" || s == "NULL" || s.isEmpty
    }

    static func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// A cursor over bytes: each method consumes what it names and says whether it did.
    struct Cursor {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        var atEnd: Bool { i == b.count }
        var next: UInt8? { i < b.count ? b[i] : nil }
        mutating func take(_ c: UInt8) -> Bool {
            guard next == c else { return false }
            i += 1
            return true
        }
        mutating func takeAny(_ cs: [UInt8]) -> Bool {
            guard let n = next, cs.contains(n) else { return false }
            i += 1
            return true
        }
        mutating func sign() { _ = takeAny([0x2B, 0x2D]) }
        /// Consumes bytes while `ok`; how many.
        @discardableResult
        mutating func run(_ ok: (UInt8) -> Bool) -> Int {
            let start = i
            while let n = next, ok(n) { i += 1 }
            return i - start
        }
        /// `:` then one digit, or two whose first is 0-5 (the `(?::[0-5]?[0-9])` of base 60).
        mutating func sexagesimalGroup() -> Bool {
            guard take(0x3A), let d1 = next, digit(d1) else { return false }
            i += 1
            if d1 <= 0x35, let d2 = next, digit(d2) { i += 1 }
            return true
        }
    }

    static func digitOrUnderscore(_ c: UInt8) -> Bool { digit(c) || c == 0x5F }

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`
    static func isInt(_ b: [UInt8]) -> Bool {
        var base = Cursor(b)
        base.sign()
        var c = base
        if c.take(0x30) {
            // 0b..., 0x..., 0o?[0-7_]+, or a lone 0.
            if c.atEnd { return true }
            if c.take(0x62) { return c.run { $0 == 0x30 || $0 == 0x31 || $0 == 0x5F } > 0 && c.atEnd }
            if c.take(0x78) {
                return c.run { digit($0) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) || $0 == 0x5F } > 0 && c.atEnd
            }
            _ = c.take(0x6F)
            return c.run { ($0 >= 0x30 && $0 <= 0x37) || $0 == 0x5F } > 0 && c.atEnd
        }
        guard let first = c.next, first >= 0x31, first <= 0x39 else { return false }
        c.i += 1
        c.run(digitOrUnderscore)
        if c.atEnd { return true }
        // Base 60: at least one group, then the end.
        guard c.sexagesimalGroup() else { return false }
        while c.next == 0x3A { guard c.sexagesimalGroup() else { return false } }
        return c.atEnd
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? | \.[0-9_]+([eE][-+][0-9]+)?
    ///  | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
    static func isFloat(_ b: [UInt8]) -> Bool {
        let s = String(decoding: b, as: UTF8.self)
        if [".nan", ".NaN", ".NAN"].contains(s) { return true }
        var c = Cursor(b)
        c.sign()
        if [".inf", ".Inf", ".INF"].contains(String(decoding: b[c.i...], as: UTF8.self)) { return true }
        // `.5`, `._1e+3`: no sign, and an exponent needs its sign.
        if !b.isEmpty, b[0] == 0x2E {
            c = Cursor(b)
            c.i = 1
            guard c.run(digitOrUnderscore) > 0 else { return false }
            if c.atEnd { return true }
            guard c.takeAny([0x65, 0x45]), c.takeAny([0x2B, 0x2D]), c.run(digit) > 0 else { return false }
            return c.atEnd
        }
        guard let first = c.next, digit(first) else { return false }
        c.i += 1
        c.run(digitOrUnderscore)
        if c.next == 0x3A {
            // Base 60 with a fraction part.
            while c.next == 0x3A { guard c.sexagesimalGroup() else { return false } }
            guard c.take(0x2E) else { return false }
            c.run(digitOrUnderscore)
            return c.atEnd
        }
        if c.take(0x2E) { c.run(digitOrUnderscore) }
        if c.takeAny([0x65, 0x45]) {
            c.sign()
            guard c.run(digit) > 0 else { return false }
        }
        return c.atEnd
    }

    /// `YYYY-MM-DD`, or `YYYY-M?M-D?D` then `T`, `t` or blanks, `h?h:mm:ss(.f*)?` and an
    /// optional zone (blanks, then `Z` or `[-+]h?h(:mm)?`).
    static func isTimestamp(_ b: [UInt8]) -> Bool {
        var c = Cursor(b)
        func digits(_ c: inout Cursor, _ least: Int, _ most: Int) -> Bool {
            var n = 0
            while n < most, let d = c.next, digit(d) { c.i += 1; n += 1 }
            return n >= least
        }
        guard digits(&c, 4, 4), c.take(0x2D) else { return false }
        let dateStart = c
        if digits(&c, 2, 2), c.take(0x2D), digits(&c, 2, 2), c.atEnd { return true }
        c = dateStart
        guard digits(&c, 1, 2), c.take(0x2D), digits(&c, 1, 2) else { return false }
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        if !c.takeAny([0x54, 0x74]) { guard c.run(blank) > 0 else { return false } }
        guard digits(&c, 1, 2), c.take(0x3A), digits(&c, 2, 2), c.take(0x3A), digits(&c, 2, 2) else { return false }
        if c.take(0x2E) { c.run(digit) }
        if c.atEnd { return true }
        c.run(blank)
        if c.take(0x5A) { return c.atEnd }
        guard c.takeAny([0x2B, 0x2D]), digits(&c, 1, 2) else { return false }
        if c.take(0x3A) { guard digits(&c, 2, 2) else { return false } }
        return c.atEnd
    }
}
