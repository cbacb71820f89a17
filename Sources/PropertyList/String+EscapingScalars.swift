/// Scalar-by-scalar rewriting, the one way the readers, writers and reporters escape text for a
/// format: each Unicode scalar that `table` names is replaced by its text, every other is kept.
///
/// Scalars, never `Character`s: a grapheme cluster joins a special character to its neighbours
/// (`"` followed by U+0301, `<` after U+0600, a prepended concatenation mark, `|` followed by
/// U+200D), and a lookup by `Character` misses the cluster and writes the special character raw.
/// Every special character of every format Entitlint writes is one scalar, and every reader of
/// those formats (XML and HTML parsers, Graphviz, Markdown renderers, JSON) reads scalars.
extension String {
    public func escapingScalars(_ table: [Unicode.Scalar: String]) -> String {
        guard unicodeScalars.contains(where: { table[$0] != nil }) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for u in unicodeScalars {
            if let replacement = table[u] { out += replacement } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// Line breaks and tabs written as `\n`, `\r`, `\t`, so a value stays on one line of a
    /// message (CR LF as two escapes).
    func replacingNewlines() -> String {
        escapingScalars(["\n": "\\n", "\r": "\\r", "\t": "\\t"])
    }
}
