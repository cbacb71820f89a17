/// Character-by-character rewriting, the one way the readers, writers and reporters escape text
/// for a format: each character the table names is replaced by its text, every other is kept.
/// Characters are compared as `Character`s (grapheme clusters), so `"\r\n"` is one character and
/// is kept unless the table names it.
extension String {
    public func replacing(characters table: [Character: String]) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for ch in self {
            if let replacement = table[ch] { out += replacement } else { out.append(ch) }
        }
        return out
    }

    /// Line breaks and tabs written as `\n`, `\r`, `\t`, so a value stays on one line of a message.
    func replacingNewlines() -> String {
        replacing(characters: ["\n": "\\n", "\r": "\\r", "\t": "\\t"])
    }
}
