import PropertyList



/// Turns a fix said on values (`Finding.Fix.Operation`) into byte edits of the file it concerns,
/// from the file's own bytes (`PlistSourceMap`): an entry is removed with its line when it has
/// the line to itself (its indentation and line end go too), else with the blanks beside it; a
/// string is replaced inside its tags; an entry moved is written as its original bytes, with
/// the indentation and line end of the entries around it. Nil whenever the bytes do not hold
/// exactly what the operation names (another entry, a key listed twice, a comment between a key
/// and its value): no edit is ever guessed.
public enum FixResolver {
    /// The edits of `operations` on `bytes` (the file shown as `path`), or nil.
    public static func edits(_ operations: [Finding.Fix.Operation], bytes: [UInt8], path: String) -> [Finding.Edit]? {
        guard !operations.isEmpty, let map = PlistSourceMap(bytes: bytes) else { return nil }
        return edits(operations, map: map, path: path)
    }

    /// The same, on a map already made of the file's bytes: a caller placing the fixes of many
    /// findings of one file scans the file once, not once per finding.
    public static func edits(_ operations: [Finding.Fix.Operation], map: PlistSourceMap, path: String) -> [Finding.Edit]? {
        guard !operations.isEmpty else { return nil }
        var out: [Finding.Edit] = []
        for op in operations {
            guard let edits = edits(op, map: map, path: path) else { return nil }
            out += edits
        }
        return FixApplier.nonOverlapping(out) ? out : nil
    }

    static func edits(_ op: Finding.Fix.Operation, map: PlistSourceMap, path: String) -> [Finding.Edit]? {
        let b = map.bytes
        guard let entry = map.entry(op.key) else { return nil }
        if op.kind == .removeKey {
            // Only bytes that are blanks between the key and its value go with them.
            guard b[entry.key.range.upperBound..<entry.value.range.lowerBound].allSatisfy(isBlank) else { return nil }
            return [Finding.Edit(path: path, range: removal(entry.key.range.lowerBound..<entry.value.range.upperBound, in: b), replacement: "")]
        }
        guard entry.value.name == "array", op.index >= 0, op.index < entry.value.children.count else { return nil }
        let items = entry.value.children
        let item = items[op.index]
        guard item.name == "string", item.text == op.value else { return nil }
        switch op.kind {
        case .replace:
            guard let new = op.replacement else { return nil }
            if let content = item.content {
                return [Finding.Edit(path: path, range: content, replacement: escape(new))]
            }
            return [Finding.Edit(path: path, range: item.range, replacement: "<string>\(escape(new))</string>")]
        case .remove:
            return [Finding.Edit(path: path, range: removal(item.range, in: b), replacement: "")]
        case .moveToFront:
            guard op.index > 0 else { return nil }
            let first = items[0]
            let original = String(decoding: b[item.range], as: UTF8.self)
            let separator = startsLine(first.range.lowerBound, in: b) ? lineEnd(after: first.range.upperBound, in: b) + indentation(of: first.range.lowerBound, in: b) : ""
            return [Finding.Edit(path: path, range: first.range.lowerBound..<first.range.lowerBound, replacement: original + separator),
                    Finding.Edit(path: path, range: removal(item.range, in: b), replacement: "")]
        case .moveTo:
            guard let destination = op.destination, destination != op.key else { return nil }
            let remove = Finding.Edit(path: path, range: removal(item.range, in: b), replacement: "")
            let element = "<string>\(escape(op.value))</string>"
            if let target = map.entry(destination) {
                guard target.value.name == "array" else { return nil }
                if let last = target.value.children.last {
                    let lead = startsLine(last.range.lowerBound, in: b) ? lineEnd(after: last.range.upperBound, in: b) + indentation(of: last.range.lowerBound, in: b) : ""
                    return [remove, Finding.Edit(path: path, range: last.range.upperBound..<last.range.upperBound, replacement: lead + element)]
                }
                guard let content = target.value.content else {
                    return [remove, Finding.Edit(path: path, range: target.value.range, replacement: "<array>\(element)</array>")]
                }
                return [remove, Finding.Edit(path: path, range: content.upperBound..<content.upperBound, replacement: element)]
            }
            guard !map.has(destination) else { return nil }
            // A new key, written in the shape of the source's own: its key and the array's tags
            // each on a line of their own, the entries one indentation deeper.
            let key = entry.key, array = entry.value
            guard startsLine(key.range.lowerBound, in: b), startsLine(array.range.lowerBound, in: b), startsLine(item.range.lowerBound, in: b),
                  let content = array.content, startsLine(content.upperBound, in: b) || b[content].allSatisfy(isBlank) else { return nil }
            let nl = lineEnd(after: key.range.upperBound, in: b)
            let outer = indentation(of: key.range.lowerBound, in: b), inner = indentation(of: item.range.lowerBound, in: b)
            let text = nl + outer + "<key>\(escape(destination))</key>" + nl + indentation(of: array.range.lowerBound, in: b) + "<array>"
                + nl + inner + element + nl + indentation(of: array.range.lowerBound, in: b) + "</array>"
            return [remove, Finding.Edit(path: path, range: array.range.upperBound..<array.range.upperBound, replacement: text)]
        case .removeKey:
            return nil
        }
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    static func isHorizontal(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// True when only blanks stand between the start of `offset`'s line and `offset`.
    static func startsLine(_ offset: Int, in b: [UInt8]) -> Bool {
        var s = offset
        while s > 0 && isHorizontal(b[s - 1]) { s -= 1 }
        return s == 0 || b[s - 1] == 0x0A || b[s - 1] == 0x0D
    }

    /// The blanks before `offset` on its line.
    static func indentation(of offset: Int, in b: [UInt8]) -> String {
        var s = offset
        while s > 0 && isHorizontal(b[s - 1]) { s -= 1 }
        return String(decoding: b[s..<offset], as: UTF8.self)
    }

    /// The line end the file uses after `offset` (CR LF or LF; LF when the file has none after it).
    static func lineEnd(after offset: Int, in b: [UInt8]) -> String {
        var k = offset
        while k < b.count {
            if b[k] == 0x0D { return k + 1 < b.count && b[k + 1] == 0x0A ? "\r\n" : "\r" }
            if b[k] == 0x0A { return "\n" }
            k += 1
        }
        return "\n"
    }

    /// The bytes to delete with `range`: its whole line (indentation and line end) when nothing
    /// else is on it; else the blanks before it (or after it, when it starts its line).
    static func removal(_ range: Range<Int>, in b: [UInt8]) -> Range<Int> {
        var s = range.lowerBound, e = range.upperBound
        while s > 0 && isHorizontal(b[s - 1]) { s -= 1 }
        while e < b.count && isHorizontal(b[e]) { e += 1 }
        let lineStart = s == 0 || b[s - 1] == 0x0A || b[s - 1] == 0x0D
        let lineEnds = e == b.count || b[e] == 0x0A || b[e] == 0x0D
        if lineStart && lineEnds {
            if e < b.count && b[e] == 0x0D { e += 1 }
            if e < b.count && b[e] == 0x0A { e += 1 }
            return s..<e
        }
        if s < range.lowerBound && !lineStart { return s..<range.upperBound }
        return range.lowerBound..<e
    }

    /// Text for XML character data: `&`, `<` and `>` as entities (the plist's own escaping;
    /// a value read from an XML file holds only characters XML can hold).
    static func escape(_ s: String) -> String { XMLEscaping.escape(s, textEscapes) }

    static let textEscapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;"]
}

/// Applies byte edits to a file's bytes.
public enum FixApplier {
    /// True when no two edits touch the same bytes (two insertions at one offset count as touching:
    /// their order would be a guess).
    public static func nonOverlapping(_ edits: [Finding.Edit]) -> Bool {
        let sorted = edits.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            if b.range.lowerBound < a.range.upperBound || b.range.lowerBound == a.range.lowerBound { return false }
        }
        return true
    }

    /// `bytes` with `edits` applied (they must not overlap, and lie inside `bytes`); every byte
    /// outside their ranges kept as it was.
    public static func apply(_ edits: [Finding.Edit], to bytes: [UInt8]) -> [UInt8]? {
        guard nonOverlapping(edits), edits.allSatisfy({ $0.range.upperBound <= bytes.count }) else { return nil }
        var out = bytes
        for e in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            out.replaceSubrange(e.range, with: Array(e.replacement.utf8))
        }
        return out
    }
}
