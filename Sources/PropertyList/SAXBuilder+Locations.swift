internal import CLibXML2

/// Where in the document the parser is: libxml2 gives the line and column where it stopped
/// reading, and these find the start of the tag or comment from there.
extension SAXBuilder {
    /// Line and column of the `<` that starts the tag the parser is in.
    func tagStart() -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input else { return .unknown }
        let line = Int(input.pointee.line)
        var col = Int(input.pointee.col)
        if let base = input.pointee.base, var p = input.pointee.cur {
            var back = 0
            while p > base && back < 4096 {
                p -= 1
                back += 1
                if p.pointee == UInt8(ascii: "<") { break }
                if p.pointee == UInt8(ascii: "\n") { back = 0; break }
            }
            col = max(1, col - back)
        }
        return SourceLocation(line: line, column: col)
    }

    /// Line and column of the `<!--` of the comment that just ended (libxml2 reports comments at
    /// their end, and they may span lines). The comment is `<!--`, its text, `-->`, ending where
    /// the parser is; its text may itself hold `<!--` (found by fuzzing), so the start is found by
    /// length, not by searching back.
    func commentStart(_ text: String) -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur else { return .unknown }
        // Over the contiguous bytes when there are: the generic UTF8View walk costs several times more.
        let newlines = text.utf8.withContiguousStorageIfAvailable { b in b.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
            ?? text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        let line = Int(input.pointee.line) - newlines
        let length = text.utf8.count + 7
        if cur - base >= length {
            let start = cur - length
            if start[0] == UInt8(ascii: "<"), start[1] == UInt8(ascii: "!"), start[2] == UInt8(ascii: "-"), start[3] == UInt8(ascii: "-") {
                var q = start
                var col = 1
                // The scan back to the line's start stops at the previous comment's start when
                // it is on the same line (and the buffer has not moved): comments come in order,
                // so every byte is scanned back over once at most, however many comments a line
                // holds (100,000 on one line would otherwise cost quadratic time).
                let known = columnMark.base == UnsafePointer(base) && columnMark.consumed == UInt(input.pointee.consumed)
                    && columnMark.offset <= start - base ? columnMark : nil
                while q > base, (q - 1).pointee != UInt8(ascii: "\n") {
                    if let known, q - base == known.offset {
                        col += known.column - 1
                        if known.column == 0 { col = 0 }
                        break
                    }
                    q -= 1
                    col += 1
                    scannedBack += 1
                }
                // Reaching `base` is the start of its line only if nothing was dropped before it.
                if col != 0, q > base || input.pointee.consumed == 0 || (known != nil && q - base == known!.offset) {
                    columnMark = (UnsafePointer(base), UInt(input.pointee.consumed), start - base, col)
                    return SourceLocation(line: line, column: col)
                }
                columnMark = (UnsafePointer(base), UInt(input.pointee.consumed), start - base, 0)
                return SourceLocation(line: line, column: 0)
            }
        }
        // libxml2 already dropped the start from its buffer: the line follows from the text,
        // the column only when the comment is on one line.
        let endColumn = Int(input.pointee.col)
        return SourceLocation(line: line, column: newlines == 0 ? max(1, endColumn - text.count - 7) : 0)
    }
}
