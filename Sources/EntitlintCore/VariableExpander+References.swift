// Finding references in text (every form, in order, in linear time) and Xcode's operators on
// the values they name.
extension VariableExpander {
    public static func references(in s: String) -> [Reference] {
        let b = Array(s.utf8)
        var refs: [Reference] = []
        let dollar = UInt8(ascii: "$"), lbrace = UInt8(ascii: "{"), rbrace = UInt8(ascii: "}")
        let lparen = UInt8(ascii: "("), rparen = UInt8(ascii: ")"), hash = UInt8(ascii: "#")
        func text(_ from: Int, _ to: Int) -> String { String(decoding: b[from..<to], as: UTF8.self) }
        // The first position from which each closing sequence was looked for and not found:
        // it is not found from any later position either, so each is searched for once past
        // there, and an unclosed `$(` repeated costs linear time, not quadratic.
        var notFoundFrom: [[UInt8]: Int] = [:]
        // Compares in place (no array made per position tried).
        func find(_ seq: [UInt8], from: Int) -> Int? {
            guard seq.count <= b.count else { return nil }
            if let none = notFoundFrom[seq], none <= from { return nil }
            var k = from
            search: while k + seq.count <= b.count {
                for m in 0..<seq.count where b[k + m] != seq[m] {
                    k += 1
                    continue search
                }
                return k
            }
            notFoundFrom[seq] = min(from, notFoundFrom[seq] ?? from)
            return nil
        }
        let closeParen = [rparen], closeBrace = [rbrace], closeTemplate = [rbrace, rbrace], hashes = [hash, hash, hash]
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == dollar, i + 1 < b.count, b[i + 1] == lparen || b[i + 1] == lbrace {
                let close = b[i + 1] == lparen ? rparen : rbrace
                if let j = find(close == rparen ? closeParen : closeBrace, from: i + 2) {
                    refs.append(Reference(text: text(i, j + 1), name: text(i + 2, j), isTemplate: false, offset: i))
                    i = j + 1
                    continue
                }
            } else if c == lbrace, i + 1 < b.count, b[i + 1] == lbrace {
                if let j = find(closeTemplate, from: i + 2) {
                    refs.append(Reference(text: text(i, j + 2), name: text(i + 2, j).trimmingSpaces(), isTemplate: true, offset: i))
                    i = j + 2
                    continue
                }
            } else if c == hash, i + 2 < b.count, b[i + 1] == hash, b[i + 2] == hash {
                if let j = find(hashes, from: i + 3), j > i + 3 {
                    refs.append(Reference(text: text(i, j + 3), name: text(i + 3, j), isTemplate: true, offset: i))
                    i = j + 3
                    continue
                }
            }
            i += 1
        }
        return refs
    }

    /// Whether `s` may hold a reference at all (a cheap byte scan).
    public static func mayContainReference(_ s: String) -> Bool {
        func scan(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            b.contains { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "#") }
        }
        if let found = s.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return s.utf8.contains { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "#") }
    }

    /// `X` of `X:modifier,...`.
    public static func baseName(_ name: String) -> String {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[..<colon])
    }

    /// Xcode's `:rfc1034identifier`: every character other than an ASCII letter, digit, `-` or
    /// `.` becomes `-`. One definition for build settings and entitlements, so that the same
    /// setting gives the same value in both.
    public static func rfc1034Identifier(_ s: String) -> String {
        String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
    }

    /// Xcode's `:identifier` / `:c99extidentifier`: every character other than an ASCII letter,
    /// digit or `_` becomes `_`, and a leading digit gets a `_` in front.
    public static func c99Identifier(_ s: String) -> String {
        var out = String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        if let f = out.first, f.isNumber { out = "_" + out }
        return out
    }
}
