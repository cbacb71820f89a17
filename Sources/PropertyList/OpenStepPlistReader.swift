/// Old-style (OpenStep, "NeXTSTEP") property lists, the text format Xcode writes `project.pbxproj` in.
///
/// The grammar, as Apple documents it ("Old-Style ASCII Property Lists", Property List Programming
/// Guide) and as CoreFoundation's `CFOldStylePList.c` reads it:
///
///     value      = dict | array | data | string
///     dict       = "{" { key ( "=" value | <nothing> ) ";" } "}"   (`key;` is the strings-file shortcut: value = key)
///     array      = "(" [ value { "," value } [ "," ] ] ")"
///     data       = "<" { hex hex | white space } ">"
///     string     = quoted | unquoted
///     quoted     = '"' ... '"' | "'" ... "'"   with \a \b \f \n \r \t \v \" \\ , \Uxxxx (1-4 hex digits, UTF-16)
///                                              and \ooo (1-3 octal digits); any other escaped character stands for itself
///     unquoted   = 1*( a-z | A-Z | 0-9 | _ | $ | / | : | . | - )
///
/// White space is ASCII 9-13, space, U+2028 and U+2029; `//` comments run to the end of the line and
/// `/* ... */` comments to their end (or the end of the file, as in CoreFoundation). Every value is a
/// string, array, dict or data: numbers and booleans are strings in this format. Dict keys are strings.
/// Nothing may follow the root value but white space and comments.
///
/// Differences from CoreFoundation, on purpose: the input must be UTF-8 (with or without a BOM; Xcode
/// writes `// !$*UTF8*$!`); octal escapes above `\177` are read as Latin-1 (CoreFoundation maps them
/// through the NeXTSTEP encoding; Xcode never writes them); duplicate keys are kept (the last wins), as
/// the other readers keep them.
///
/// Like the other readers it trusts nothing: input size, nesting depth and the number of values are
/// bounded by `PlistLimits`, containers are parsed with an explicit stack (no recursion, so no stack
/// exhaustion whatever the depth limit), and every error carries the line and column where it was found.
public enum OpenStepPlistReader {
    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw PlistError(.invalidEncoding, "UTF-16 old-style property lists are not supported (Xcode writes UTF-8)",
                             at: SourceLocation(line: 1, column: 1))
        }
        let result: Result<PlistNode, PlistError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = OpenStepParser(buffer, limits: limits)
            do throws(PlistError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        switch result {
        case .success(let root): return PlistDocument(root: root, format: .openStep, comments: [])
        case .failure(let error): throw error
        }
    }
}

/// The cursor over the bytes, with the line bookkeeping.
struct OpenStepParser {
    let b: UnsafeBufferPointer<UInt8>
    let limits: PlistLimits
    var i = 0
    var line = 1
    /// Offset of the first byte of the current line.
    var lineStart = 0
    var values = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: PlistLimits) {
        b = bytes
        self.limits = limits
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3; lineStart = 3 }
    }

    var location: SourceLocation { SourceLocation(line: line, column: i - lineStart + 1) }

    func error(_ reason: String, at loc: SourceLocation? = nil) -> PlistError {
        PlistError(.invalidStructure, reason, at: loc ?? location)
    }

    /// A short, printable rendering of the byte at the cursor, for messages.
    func shownByte() -> String {
        guard i < b.count else { return "the end of the file" }
        let c = b[i]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16, uppercase: true)
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Moves past a line break at the cursor (`\n`, `\r\n` or `\r`), counting it.
    mutating func newline() {
        if b[i] == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
        i += 1
        line += 1
        lineStart = i
    }

    /// U+2028 or U+2029 (E2 80 A8 / E2 80 A9) at the cursor.
    func atUnicodeSeparator() -> Bool {
        i + 2 < b.count && b[i] == 0xE2 && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9)
    }

    /// Skips white space and comments.
    mutating func skipSpace() {
        while i < b.count {
            let c = b[i]
            if c == 0x0A || c == 0x0D { newline(); continue }
            if (c >= 0x09 && c <= 0x0C) || c == 0x20 { i += 1; continue }
            if c == 0xE2 && atUnicodeSeparator() { i += 3; continue }
            if c == UInt8(ascii: "/"), i + 1 < b.count {
                if b[i + 1] == UInt8(ascii: "/") {
                    i += 2
                    while i < b.count, b[i] != 0x0A, b[i] != 0x0D, !(b[i] == 0xE2 && atUnicodeSeparator()) { i += 1 }
                    continue
                }
                if b[i + 1] == UInt8(ascii: "*") {
                    i += 2
                    while i < b.count {
                        if b[i] == UInt8(ascii: "*"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") { i += 2; break }
                        if b[i] == 0x0A || b[i] == 0x0D { newline() } else { i += 1 }
                    }
                    if i >= b.count { return }
                    continue
                }
            }
            return
        }
    }

    mutating func count() throws(PlistError) {
        values += 1
        if values > limits.maxElements {
            throw PlistError(.tooLarge, "more than \(limits.maxElements) values", at: location, limit: .elements)
        }
    }

    func string(_ bytes: UnsafeBufferPointer<UInt8>, at loc: SourceLocation) throws(PlistError) -> String {
        // ASCII (nearly every string of a project) is valid UTF-8 as it is: no validation pass.
        var ascii = true
        for c in bytes where c >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw PlistError(.invalidEncoding, "string is not valid UTF-8", at: loc)
        }
        return s
    }

    func string(_ bytes: [UInt8], at loc: SourceLocation) throws(PlistError) -> String {
        let result: Result<String, PlistError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(PlistError) { return .success(try string(buffer, at: loc)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
