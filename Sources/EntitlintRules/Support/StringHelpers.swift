import PropertyList

/// String helpers the rules and their documentation share: byte-level checks on the ASCII case
/// with a Unicode fallback, so that the common values cost no Character iteration.
extension String {
    /// The text with `|` escaped, for a Markdown table cell (scalar by scalar, as every escaper:
    /// `String.escapingScalars`).
    func replacingPipes() -> String { escapingScalars(["|": "\\|"]) }

    /// The text with line breaks and tabs as spaces, for one-line messages (CR LF as two spaces:
    /// scalar by scalar).
    func replacingOccurrencesOfNewlines() -> String {
        escapingScalars(["\n": " ", "\r": " ", "\t": " "])
    }

    /// The text as one POSIX shell word, for a command a message suggests: in single quotes,
    /// each `'` written `'\''` (close, escaped quote, reopen), scalar by scalar, so no quote of
    /// the text ends the word whatever mark follows it, and the shell reads back the text.
    var shellQuoted: String { "'" + escapingScalars(["'": "'\\''"]) + "'" }

    /// The part before the first `.`.
    var firstComponent: Substring {
        if let dot = firstIndex(of: ".") { return self[..<dot] }
        return self[...]
    }

    /// True when the text is empty or only white space (space, tab, CR, LF).
    var isBlank: Bool { utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }

    /// Leading or trailing white space. ASCII bytes are checked directly; anything else falls
    /// back to Unicode's definition.
    var hasOuterWhitespace: Bool {
        guard let f = utf8.first, let l = utf8.last else { return false }
        func ws(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        if ws(f) || ws(l) { return true }
        if f < 0x80 && l < 0x80 { return false }
        return (first?.isWhitespace ?? false) || (last?.isWhitespace ?? false)
    }

    /// Starts with a variable reference or template placeholder.
    var startsWithVariable: Bool {
        hasPrefix("$(") || hasPrefix("${") || hasPrefix("{{") || hasPrefix("###")
    }

    /// The text without leading and trailing white space (ASCII on the bytes, Unicode otherwise).
    func trimmingWhitespace() -> String {
        // ASCII white space is trimmed on the bytes; only when what is left starts or ends with
        // a byte past ASCII (Unicode white space, or a mark joined to a space) is it done by
        // Character.
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        let fast = utf8.withContiguousStorageIfAvailable { b -> String? in
            var start = 0, end = b.count
            while start < end && isSpace(b[start]) { start += 1 }
            while end > start && isSpace(b[end - 1]) { end -= 1 }
            if start < end && (b[start] >= 0x80 || b[end - 1] >= 0x80) { return nil }
            if start == 0 && end == b.count { return self }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
        if let fast, let trimmed = fast { return trimmed }
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
