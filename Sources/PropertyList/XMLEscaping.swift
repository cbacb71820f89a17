/// Text for an XML document (the plists `inspect` writes, the JUnit and checkstyle reports),
/// scalar by scalar (`String.escapingScalars` says why never by `Character`).
public enum XMLEscaping {
    /// XML 1.0 section 2.2: `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
    /// [#x10000-#x10FFFF]`. Other characters (C0 controls a binary plist may hold, U+FFFE, U+FFFF)
    /// cannot be written even as references.
    @inline(__always)
    public static func isXMLChar(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `s` scalar by scalar: those `table` names replaced by their reference, the others kept
    /// when XML can hold them (`isXMLChar`) and U+FFFD otherwise.
    public static func escape(_ s: String, _ table: [Unicode.Scalar: String]) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            if let reference = table[u] { out += reference } else { out.unicodeScalars.append(isXMLChar(u) ? u : "\u{FFFD}") }
        }
        return out
    }
}
