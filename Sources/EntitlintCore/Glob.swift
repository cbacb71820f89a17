/// Glob patterns for `exclude:`: `*` (any run without `/`), `**` (any run, across folders),
/// `?` (one character). A pattern without `/` matches the file name at any depth.
public struct Glob: Sendable, Hashable {
    public var pattern: String
    public init(_ pattern: String) { self.pattern = pattern }

    public func matches(_ path: String) -> Bool {
        var p = pattern
        if p.hasPrefix("./") { p.removeFirst(2) }
        var s = path
        if s.hasPrefix("./") { s.removeFirst(2) }
        if !p.containsASCII("/") {
            return Self.match(Array(p), Array(Paths.baseName(s)))
        }
        if p.hasSuffix("/") { p += "**" }
        return Self.match(Array(p), Array(s))
    }

    static func match(_ p: [Character], _ s: [Character]) -> Bool {
        var cells = 0
        return match(p, s, cells: &cells)
    }

    /// Whether `p` matches all of `s`, by dynamic programming over (pattern index, string index):
    /// row `i` holds, for each `j`, whether `p[i...]` matches `s[j...]`. A row needs at most the
    /// three rows after it, so four are kept: O(p·s) time and O(s) memory, whatever the pattern
    /// (a memoised search over `**` took cubic time: 150 `**/` against a path 300 folders deep
    /// took seconds). `cells` counts the table entries computed.
    static func match(_ p: [Character], _ s: [Character], cells: inout Int) -> Bool {
        // Characters before the first `*`, and after the last one (but not a `/` that follows a
        // `*`, which may belong to `**/`), match one character each: compared directly, so most
        // patterns (`Tests/**`, `*.xcent`) cost one pass and a mismatch stops at once.
        var i = 0, j = 0
        while i < p.count, p[i] != "*", j < s.count {
            cells += 1
            guard p[i] == "?" ? s[j] != "/" : p[i] == s[j] else { return false }
            i += 1
            j += 1
        }
        var pe = p.count, se = s.count
        while pe > i, p[pe - 1] != "*", !(p[pe - 1] == "/" && pe >= 2 && p[pe - 2] == "*"), se > j {
            cells += 1
            guard p[pe - 1] == "?" ? s[se - 1] != "/" : p[pe - 1] == s[se - 1] else { return false }
            pe -= 1
            se -= 1
        }
        return table(Array(p[i..<pe]), Array(s[j..<se]), cells: &cells)
    }

    /// The table for what lies between (see `match`).
    static func table(_ p: [Character], _ s: [Character], cells: inout Int) -> Bool {
        let width = s.count + 1
        var rows = [[Bool]](repeating: [Bool](repeating: false, count: width), count: 4)
        rows[p.count % 4][s.count] = true   // the empty pattern matches only the empty rest
        var i = p.count - 1
        while i >= 0 {
            var row = [Bool](repeating: false, count: width)
            cells += width
            if p[i] == "*", i + 1 < p.count, p[i + 1] == "*" {
                // `**` (and the `/` after it) matches any run, across folders.
                var ni = i + 2
                if ni < p.count, p[ni] == "/" { ni += 1 }
                let next = rows[ni % 4]
                var any = false
                for j in stride(from: s.count, through: 0, by: -1) {
                    any = any || next[j]
                    row[j] = any
                }
            } else if p[i] == "*" {
                // `*` matches any run without `/`.
                let next = rows[(i + 1) % 4]
                for j in stride(from: s.count, through: 0, by: -1) {
                    row[j] = next[j] || (j < s.count && s[j] != "/" && row[j + 1])
                }
            } else {
                let next = rows[(i + 1) % 4]
                for j in 0..<s.count where p[i] == "?" ? s[j] != "/" : p[i] == s[j] { row[j] = next[j + 1] }
            }
            rows[i % 4] = row
            i -= 1
        }
        return rows[0][0]
    }
}
