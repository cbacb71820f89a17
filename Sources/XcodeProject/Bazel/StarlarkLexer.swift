/// The tokens of a Starlark file (`BUILD`, `BUILD.bazel`, `.bzl`): identifiers, numbers, strings
/// (`"..."`, `'...'`, triple-quoted, with `r`/`b` prefixes), one-byte punctuation, and multi-byte
/// operators (`==`, `**`, `+=`) as `other`; `#` comments dropped. One forward pass over the
/// bytes, at most `maxTokens` tokens; an unterminated string ends the file.
enum StarlarkLexer {
    static func tokens(_ bytes: [UInt8], maxTokens: Int) -> [ManifestToken] {
        var out: [ManifestToken] = []
        var i = 0
        var line = 1
        var lineStart = 0
        let n = bytes.count
        func isIdentStart(_ c: UInt8) -> Bool { c == UInt8(ascii: "_") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z")) }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        while i < n, out.count < maxTokens {
            let c = bytes[i]
            let column = i - lineStart + 1
            if c == 0x0A { line += 1; i += 1; lineStart = i; continue }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == UInt8(ascii: "\\") { i += 1; continue }
            if c == UInt8(ascii: "#") {
                while i < n, bytes[i] != 0x0A { i += 1 }
                continue
            }
            // String prefixes: r"", b"", rb"".
            var q = i
            var raw = false
            while q < n, q < i + 2, bytes[q] | 0x20 == UInt8(ascii: "r") || bytes[q] | 0x20 == UInt8(ascii: "b") {
                if bytes[q] | 0x20 == UInt8(ascii: "r") { raw = true }
                q += 1
            }
            if q < n, bytes[q] == UInt8(ascii: "\"") || bytes[q] == UInt8(ascii: "'") {
                let quote = bytes[q]
                let triple = q + 2 < n && bytes[q + 1] == quote && bytes[q + 2] == quote
                var k = q + (triple ? 3 : 1)
                var text: [UInt8] = []
                let startLine = line
                while k < n {
                    let b = bytes[k]
                    if b == quote, !triple || (k + 2 < n && bytes[k + 1] == quote && bytes[k + 2] == quote) { k += triple ? 3 : 1; break }
                    if b == 0x0A {
                        if !triple { break }
                        line += 1
                        lineStart = k + 1
                    }
                    if b == UInt8(ascii: "\\"), !raw, k + 1 < n {
                        let e = bytes[k + 1]
                        switch e {
                        case UInt8(ascii: "n"): text.append(0x0A)
                        case UInt8(ascii: "t"): text.append(0x09)
                        case 0x0A: line += 1; lineStart = k + 2
                        default: text.append(e)
                        }
                        k += 2
                        continue
                    }
                    text.append(b)
                    k += 1
                }
                out.append(ManifestToken(kind: .string, text: String(decoding: text, as: UTF8.self), line: startLine, column: column))
                i = k
                continue
            }
            if isIdentStart(c) {
                var k = i + 1
                while k < n, isIdentStart(bytes[k]) || isDigit(bytes[k]) { k += 1 }
                out.append(ManifestToken(kind: .identifier, text: String(decoding: bytes[i..<k], as: UTF8.self), line: line, column: column))
                i = k
                continue
            }
            if isDigit(c) {
                var k = i + 1
                while k < n, isIdentStart(bytes[k]) || isDigit(bytes[k]) || bytes[k] == UInt8(ascii: ".") { k += 1 }
                out.append(ManifestToken(kind: .number, text: String(decoding: bytes[i..<k], as: UTF8.self), line: line, column: column))
                i = k
                continue
            }
            if i + 1 < n, [UInt8(ascii: "="), UInt8(ascii: "*"), UInt8(ascii: "/")].contains(bytes[i + 1]),
               [UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"), UInt8(ascii: "|"), UInt8(ascii: "&")].contains(c),
               !(c == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) {
                out.append(ManifestToken(kind: .other, text: String(decoding: bytes[i..<(i + 2)], as: UTF8.self), line: line, column: column))
                i += 2
                continue
            }
            if c < 0x80 {
                out.append(ManifestToken(kind: .punct, text: String(UnicodeScalar(c)), line: line, column: column))
            }
            i += 1
        }
        return out
    }
}
