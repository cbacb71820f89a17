/// Making strings that come from inputs (values, keys, paths, file names, lock and baseline
/// entries, configuration keys) safe to print for a person or a CI log.
///
/// `escape(_:)` is applied to each such string before it joins a line of human-readable output
/// (the text formats, messages on standard error), so that no input can end a line, start a new
/// one, move the cursor, recolour a terminal or reorder text: the result contains no control
/// character at all. `guardCommandLines(_:style:keepingAnnotations:)` is applied to whole texts
/// at the output boundary (OutputText+Commands.swift): no line Entitlint prints is a GitHub
/// Actions workflow command unless the `github` format wrote it on purpose.
public enum OutputText {
    /// Whether `u` is shown as an escape: C0 controls, DEL and C1 controls (which terminals act
    /// on), the Unicode line and paragraph separators (which some readers break lines at), and
    /// the bidirectional embedding, override and isolate controls (which reorder what is shown).
    @inline(__always)
    public static func isEscaped(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x10FF00...0x10FFFF: return true   // a byte of a file name that is not UTF-8 (Paths.fileSystemName)
        default: return false
        }
    }

    /// One message of the command line for standard error: `entitlint: ` and the message,
    /// escaped, on a line of its own.
    public static func diagnosticLine(_ message: String) -> String { "entitlint: " + escape(message) + "\n" }

    /// `s` with every escaped scalar written as a Swift-style escape: `\n`, `\r`, `\t`, a byte
    /// of a file name that is not UTF-8 as `\xff`, else `\u{1b}` (lower-case hex). Anything else, backslashes included, is kept as it is: the
    /// guarantee is that no control character reaches the output, not that the text reads back.
    public static func escape(_ s: String) -> String {
        // Most strings hold nothing to escape: every byte that could start an escaped scalar in
        // UTF-8 is below 0x20, 0x7F, 0xC2 (U+0080...U+00BF) or 0xE2 (U+2000...U+2FFF).
        func escapes(_ b: UInt8) -> Bool { b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xE2 || b == 0xF4 }
        // Over the contiguous bytes when there are: the generic UTF8View walk costs several times more.
        let clean = s.utf8.withContiguousStorageIfAvailable { !$0.contains(where: escapes) } ?? !s.utf8.contains(where: escapes)
        if clean { return s }
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count + 8)
        for u in s.unicodeScalars {
            guard isEscaped(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{10FF00}"..."\u{10FFFF}": out += "\\x" + (u.value & 0xFF < 0x10 ? "0" : "") + String(u.value & 0xFF, radix: 16)
            default: out += "\\u{" + String(u.value, radix: 16) + "}"
            }
        }
        return out
    }

    /// Text from an input quoted in a message (a line that is not valid syntax, a name, a path
    /// as written): escaped, and at most `limit` Unicode scalars (so at most 4 x `limit` bytes),
    /// a cut marked by `...`. Only text of a file read as what it is named (an xcconfig as an
    /// xcconfig) is quoted this way; a file of another kind is never quoted at all.
    ///
    /// Counted in scalars, not Characters: one grapheme cluster may be megabytes long (a letter
    /// and a million combining marks), so an excerpt of 80 Characters could be the whole value,
    /// and counting Characters walks all of it. At most `limit + 1` scalars of `s` are read,
    /// whatever its length. A cut may fall inside a grapheme cluster.
    public static func excerpt<S: StringProtocol>(_ s: S, limit: Int = 80) -> String {
        var head = String.UnicodeScalarView()
        var taken = 0
        var cut = false
        for u in s.unicodeScalars {
            if taken == limit { cut = true; break }
            head.append(u)
            taken += 1
        }
        let escaped = escape(String(head))
        var escapedCount = 0
        for _ in escaped.unicodeScalars { escapedCount += 1 }
        guard cut || escapedCount > limit else { return escaped }
        return String(Substring(escaped.unicodeScalars.prefix(max(0, limit - 3)))) + "..."
    }

    /// A path as an input writes it (an `#include`, a workspace location), named in a message
    /// about the reference: `excerpt` with room for a long absolute path (240 characters).
    public static func reference<S: StringProtocol>(_ s: S) -> String { excerpt(s, limit: 240) }
}
