/// How the command guard writes a character it neutralises, so that the text stays what its
/// format says it is.
public enum CommandGuardStyle: Sendable, Equatable {
    /// `\u{3a}`, `\u{5b}`: a visible escape, as `OutputText.escape` writes control characters
    /// (the text formats, Markdown, messages on standard error).
    case text
    /// `\u003a`, `\u005b`: a JSON string escape, the same character to a JSON reader. In the JSON
    /// Entitlint writes, `#` and a line's first `:` only occur inside strings.
    case json
    /// `&#58;`, `&#91;`: a character reference, the same character to an XML or HTML reader, and
    /// in a Graphviz label (which decodes references).
    case markup

    var colon: StaticString {
        switch self {
        case .text: return "\\u{3a}"
        case .json: return "\\u003a"
        case .markup: return "&#58;"
        }
    }

    var bracket: StaticString {
        switch self {
        case .text: return "\\u{5b}"
        case .json: return "\\u005b"
        case .markup: return "&#91;"
        }
    }
}

/// GitHub Actions workflow commands in text Entitlint prints.
///
/// The Actions runner reads every line a step writes, on standard output and on standard error,
/// split at LF, CR or CRLF, and takes a line for a command in two forms (actions/runner,
/// `src/Runner.Common/ActionCommand.cs`, `TryParseV2` then `TryParse`, called from
/// `src/Runner.Worker/ActionCommandManager.cs`):
///
/// - `::name properties::data`, once the line's leading white space is trimmed (.NET
///   `String.TrimStart()`: every `Char.IsWhiteSpace`, so tabs, NBSP, U+3000 and the other
///   Unicode spaces too);
/// - the legacy `##[name properties]data`, found anywhere in the line.
///
/// Both take the command name at a fixed offset from the match (two characters after the start
/// of the trimmed line; three after `##[`): even where the runner's culture-aware comparison
/// skips an ignorable character inside `::` or `##[`, the name then starts on a character of
/// the prefix and is no command. So only the exact characters `::` and `##[` start one. The
/// guard therefore rewrites, on every line, the first colon of a `::` that follows nothing but
/// runner white space, and the `[` of every `##[`; each is written in the form `style` gives,
/// so a JSON or XML text reads back the same. It works on UTF-8 bytes: only ASCII bytes are
/// replaced, so valid UTF-8 stays valid.
extension OutputText {
    /// The UTF-8 length of the white space scalar at `b[i]` that the runner trims before it looks
    /// for `::`, or 0 (CR and LF end the line before that). .NET's `Char.IsWhiteSpace`:
    /// U+0009...U+000D, space, U+0085, U+00A0, U+1680, U+2000...U+200A, U+2028, U+2029,
    /// U+202F, U+205F, U+3000; with U+001C...U+001F,
    /// U+180E, U+200B and U+FEFF, which other runtimes (and older .NET) count or trimmed as
    /// white space too: trimming more than the runner only guards more lines.
    @inline(__always)
    static func runnerWhitespaceLength(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let n = b.count - i
        let c = b[i]
        switch c {
        case 0x09...0x0D, 0x1C...0x20: return 1
        case 0xC2: return n >= 2 && (b[i + 1] == 0x85 || b[i + 1] == 0xA0) ? 2 : 0
        case 0xE1:
            guard n >= 3 else { return 0 }
            return (b[i + 1] == 0x9A && b[i + 2] == 0x80) || (b[i + 1] == 0xA0 && b[i + 2] == 0x8E) ? 3 : 0
        case 0xE2:
            guard n >= 3 else { return 0 }
            let (x, y) = (b[i + 1], b[i + 2])
            if x == 0x80 && ((0x80...0x8B).contains(y) || y == 0xA8 || y == 0xA9 || y == 0xAF) { return 3 }
            return x == 0x81 && y == 0x9F ? 3 : 0
        case 0xE3: return n >= 3 && b[i + 1] == 0x80 && b[i + 2] == 0x80 ? 3 : 0
        case 0xEF: return n >= 3 && b[i + 1] == 0xBB && b[i + 2] == 0xBF ? 3 : 0
        default: return 0
        }
    }

    /// Whether `s`, printed at the start of a line, would begin a `::` command: runner white
    /// space, then `::`.
    public static func startsCommand(_ s: String) -> Bool {
        // Most strings start with a byte that is neither white space nor a colon: no copy.
        guard let first = s.utf8.first, first == colonByte || first >= 0x80 || first <= 0x20 else { return false }
        return Array(s.utf8).withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count && b[i] != 0x0A && b[i] != 0x0D {
                let w = runnerWhitespaceLength(b, i)
                if w == 0 { break }
                i += w
            }
            return i + 1 < b.count && b[i] == colonByte && b[i + 1] == colonByte
        }
    }

    /// `escape(s)`, and when it would begin a command at the start of a line (`startsCommand`),
    /// that colon written `\u{3a}`; a `##[` in it is guarded too.
    public static func lineStart(_ s: String) -> String {
        guardCommandLines(escape(s), style: .text)
    }

    /// `text` with every workflow command the runner would find in it neutralised: on each
    /// line, the first colon of a `::` after nothing but runner white space, and the `[` of
    /// every `##[`, written as `style` says. With `keepingAnnotations` (the `github` format's
    /// own output), a line that starts, in its first column, with `::error `, `::warning ` or
    /// `::notice ` is kept whole: the format wrote it, and escaped every value in it (no line
    /// break, no `:` or `,` in its properties). Text with nothing to guard is returned as it is;
    /// guarding guarded text changes nothing.
    public static func guardCommandLines(_ text: String, style: CommandGuardStyle = .text, keepingAnnotations: Bool = false) -> String {
        var text = text
        let guarded = text.withUTF8 { guardCommandLines(bytes: $0, style: style, keepingAnnotations: keepingAnnotations) }
        guard let guarded else { return text }
        return String(decoding: guarded, as: UTF8.self)
    }

    /// `guardCommandLines` on bytes (a plist, an encoded baseline): the guarded bytes, or nil
    /// when there is nothing to guard.
    public static func guardCommandLines(bytes: [UInt8], style: CommandGuardStyle, keepingAnnotations: Bool = false) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { guardCommandLines(bytes: $0, style: style, keepingAnnotations: keepingAnnotations) }
    }

    /// Whether the bytes hold a line the runner would read as a workflow command.
    public static func carriesCommand(_ bytes: [UInt8]) -> Bool {
        guardCommandLines(bytes: bytes, style: .text) != nil
    }

    static let colonByte = UInt8(ascii: ":")
    static let hashByte = UInt8(ascii: "#")
    static let bracketByte = UInt8(ascii: "[")

    static func guardCommandLines(bytes b: UnsafeBufferPointer<UInt8>, style: CommandGuardStyle, keepingAnnotations: Bool) -> [UInt8]? {
        // Most texts hold neither `::` nor `##[`: one pass to say so, nothing copied.
        var candidate = false
        var i = 1
        while i < b.count {
            if (b[i] == colonByte && b[i - 1] == colonByte) || (b[i] == bracketByte && i >= 2 && b[i - 1] == hashByte && b[i - 2] == hashByte) {
                candidate = true
                break
            }
            i += 1
        }
        guard candidate else { return nil }

        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        var changed = false
        var hashes = 0
        var atLineStart = true
        i = 0
        while i < b.count {
            if atLineStart {
                atLineStart = false
                if keepingAnnotations && isAnnotation(b, i) {
                    while i < b.count && b[i] != 0x0A && b[i] != 0x0D { out.append(b[i]); i += 1 }
                    continue
                }
                var j = i
                while j < b.count && b[j] != 0x0A && b[j] != 0x0D {
                    let w = runnerWhitespaceLength(b, j)
                    if w == 0 { break }
                    j += w
                }
                if j + 1 < b.count && b[j] == colonByte && b[j + 1] == colonByte {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j]))
                    append(style.colon, to: &out)
                    changed = true
                    hashes = 0
                    i = j + 1
                    continue
                }
            }
            let c = b[i]
            if c == bracketByte && hashes >= 2 {
                append(style.bracket, to: &out)
                changed = true
                hashes = 0
                i += 1
                continue
            }
            hashes = c == hashByte ? hashes + 1 : 0
            if c == 0x0A || c == 0x0D { atLineStart = true }
            out.append(c)
            i += 1
        }
        return changed ? out : nil
    }

    /// `::error `, `::warning ` or `::notice ` at `b[i]`: an annotation as the `github` format writes it.
    static func isAnnotation(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        for prefix in ["::error ", "::warning ", "::notice "] as [StaticString] {
            let n = prefix.utf8CodeUnitCount
            guard i + n <= b.count else { continue }
            let p = UnsafeBufferPointer(start: prefix.utf8Start, count: n)
            var k = 0
            while k < n && b[i + k] == p[k] { k += 1 }
            if k == n { return true }
        }
        return false
    }

    @inline(__always)
    static func append(_ s: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}
