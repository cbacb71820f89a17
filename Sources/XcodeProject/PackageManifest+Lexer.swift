// The lexer of manifests: Swift's tokens as far as the literal forms read need them (strings,
// identifiers, punctuation; comments skipped), bounded in count.
extension PackageManifest {
    enum Token: Equatable {
        case string(String)
        /// A string literal with an interpolation, or a multi-line or raw one: not a literal value.
        case opaqueString
        case identifier(String)
        case punctuation(UInt8)
    }

    /// Nil when the text cannot be split into tokens (an unterminated string or comment) or holds
    /// more than `maxTokens`.
    static func tokens(_ bytes: [UInt8]) -> [Token]? {
        var out: [Token] = []
        var i = 0
        let n = bytes.count
        func isIdentifierByte(_ c: UInt8) -> Bool {
            c == UInt8(ascii: "_") || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c >= 0x80
        }
        while i < n {
            guard out.count <= maxTokens else { return nil }
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
            if c == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") {
                while i < n, bytes[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") {
                // Swift block comments nest.
                var depth = 0
                while i < n {
                    if bytes[i] == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") { depth += 1; i += 2; continue }
                    if bytes[i] == UInt8(ascii: "*"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        i += 2
                        if depth == 0 { break }
                        continue
                    }
                    i += 1
                }
                guard depth == 0 else { return nil }
                continue
            }
            if c == UInt8(ascii: "#"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") {
                return nil   // a raw string: not among the forms read
            }
            if c == UInt8(ascii: "\"") {
                if i + 2 < n, bytes[i + 1] == UInt8(ascii: "\""), bytes[i + 2] == UInt8(ascii: "\"") {
                    return nil   // a multi-line string
                }
                var value: [UInt8] = []
                var opaque = false
                i += 1
                var closed = false
                while i < n {
                    let d = bytes[i]
                    if d == 0x0A { return nil }
                    if d == UInt8(ascii: "\"") { closed = true; i += 1; break }
                    if d == UInt8(ascii: "\\"), i + 1 < n {
                        let e = bytes[i + 1]
                        switch e {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): value.append(e)
                        case UInt8(ascii: "n"): value.append(0x0A)
                        case UInt8(ascii: "t"): value.append(0x09)
                        default: opaque = true   // an interpolation or a \u{...} escape
                        }
                        i += 2
                        continue
                    }
                    value.append(d)
                    i += 1
                }
                guard closed else { return nil }
                out.append(opaque ? .opaqueString : .string(String(decoding: value, as: UTF8.self)))
                continue
            }
            if isIdentifierByte(c) {
                let start = i
                while i < n, isIdentifierByte(bytes[i]) { i += 1 }
                out.append(.identifier(String(decoding: bytes[start..<i], as: UTF8.self)))
                continue
            }
            out.append(.punctuation(c))
            i += 1
        }
        return out
    }
}
