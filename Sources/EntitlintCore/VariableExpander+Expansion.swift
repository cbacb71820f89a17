// Expansion: a single pass over the bytes for the simple forms (`$(X)`, `${X}` without operators),
// the general path over `references(in:)` for the others.
extension VariableExpander {
    func expandUncached(_ s: String) -> Result {
        guard Self.mayContainReference(s) else { return Result(text: s, symbolic: [], unresolved: []) }
        var copy = s
        if let fast = copy.withUTF8({ expandFast($0) }) { return fast }
        return expandGeneral(s)
    }

    /// Whether `expand(s).unresolved` is not empty, without building the expanded text: most
    /// strings with references name only variables of the table or standard ones.
    public func hasUnresolved(_ s: String) -> Bool {
        guard Self.mayContainReference(s) else { return false }
        var copy = s
        if let answer = copy.withUTF8({ hasUnresolvedFast($0) }) { return answer }
        return !expandGeneral(s).unresolved.isEmpty
    }

    /// The simple references of `b`, `$(NAME)` and `${NAME}`, in order: `visit` gets the index of
    /// the `$`, of the closing bracket, and which bracket closes it, and returns false to stop.
    /// Nil when `b` holds a form only `expandGeneral` reads (`{{X}}`, `###X###`, `$(X:modifier)`).
    private static func simpleReferences(_ b: UnsafeBufferPointer<UInt8>,
                                         _ visit: (_ start: Int, _ end: Int, _ close: UInt8) -> Bool) -> Bool? {
        let dollar = UInt8(ascii: "$"), lparen = UInt8(ascii: "("), lbrace = UInt8(ascii: "{")
        let rparen = UInt8(ascii: ")"), rbrace = UInt8(ascii: "}"), hash = UInt8(ascii: "#"), colon = UInt8(ascii: ":")
        var i = 0
        let n = b.count
        var unclosedParen = false, unclosedBrace = false
        while i < n {
            let c = b[i]
            if c == lbrace && i + 1 < n && b[i + 1] == lbrace { return nil }
            if c == hash && i + 2 < n && b[i + 1] == hash && b[i + 2] == hash { return nil }
            guard c == dollar, i + 1 < n, b[i + 1] == lparen || b[i + 1] == lbrace else { i += 1; continue }
            let close = b[i + 1] == lparen ? rparen : rbrace
            // Past an unclosed `$(` (or `${`) no later one is closed either: skipped at once,
            // so that `$($($(...` costs linear time.
            if close == rparen ? unclosedParen : unclosedBrace { i += 1; continue }
            var j = i + 2
            while j < n && b[j] != close {
                if b[j] == colon { return nil }
                j += 1
            }
            guard j < n else {
                if close == rparen { unclosedParen = true } else { unclosedBrace = true }
                i += 1
                continue
            }
            if !visit(i, j, close) { return true }
            i = j + 1
        }
        return true
    }

    /// Whether `name` (bytes `from..<to` of `b`) is the name of `table`'s entry, by bytes.
    /// The entries are read in place: `first(where:)` would copy (retain and release) each.
    private static func lookup(_ table: [([UInt8], String)], _ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> ([UInt8], String)? {
        let length = to - from
        let hit = table.withUnsafeBufferPointer { t -> Int? in
            for index in t.indices {
                let same = t[index].0.withUnsafeBufferPointer { e -> Bool in
                    guard e.count == length else { return false }
                    var k = 0
                    while k < length { if e[k] != b[from + k] { return false }; k += 1 }
                    return true
                }
                if same { return index }
            }
            return nil
        }
        return hit.map { table[$0] }
    }

    /// `hasUnresolved` for the simple forms `expandFast` handles; nil for the others.
    private func hasUnresolvedFast(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        var found = false
        guard Self.simpleReferences(b, { i, j, _ in
            found = Self.lookup(table, b, i + 2, j) == nil && Self.lookup(Self.standardTable, b, i + 2, j) == nil
            return !found
        }) != nil else { return nil }
        return found
    }

    private func expandFast(_ b: UnsafeBufferPointer<UInt8>) -> Result? {
        var out: [UInt8] = []
        var symbolic: [Reference] = []
        var unresolved: [Reference] = []
        var last = 0
        guard Self.simpleReferences(b, { i, j, close in
            if out.isEmpty { out.reserveCapacity(b.count + 32) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last..<i]))
            last = j + 1
            if let hit = Self.lookup(table, b, i + 2, j) {
                out.append(contentsOf: hit.1.utf8)
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...j]))
                let form: Reference.Form = close == UInt8(ascii: ")") ? .parens : .braces
                if let std = Self.lookup(Self.standardTable, b, i + 2, j) {
                    symbolic.append(Reference(name: std.1, form: form, offset: i, length: j + 1 - i))
                } else {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 2)..<j]), as: UTF8.self)
                    unresolved.append(Reference(name: name, form: form, offset: i, length: j + 1 - i))
                }
            }
            return true
        }) != nil else { return nil }
        if last == 0 { return Result(text: String(decoding: b, as: UTF8.self), symbolic: [], unresolved: []) }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last...]))
        return Result(text: String(decoding: out, as: UTF8.self), symbolic: symbolic, unresolved: unresolved)
    }

    func expandGeneral(_ s: String) -> Result {
        let refs = Self.references(in: s)
        if refs.isEmpty { return Result(text: s, symbolic: [], unresolved: []) }
        let b = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 32)
        var symbolic: [Reference] = []
        var unresolved: [Reference] = []
        var last = 0
        for r in refs {
            out.append(contentsOf: b[last..<r.offset])
            last = r.offset + r.length
            if !r.isTemplate, let v = value(of: r.name) {
                out.append(contentsOf: v.utf8)
            } else {
                out.append(contentsOf: r.written.utf8)
                if !r.isTemplate && Self.standardNames.contains(Self.baseName(r.name)) {
                    symbolic.append(r)
                } else {
                    unresolved.append(r)
                }
            }
        }
        out.append(contentsOf: b[last...])
        return Result(text: String(decoding: out, as: UTF8.self), symbolic: symbolic, unresolved: unresolved)
    }
}
