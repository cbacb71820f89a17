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
        // Memoised recursion over (pattern index, string index).
        var memo = [Int: Bool]()
        func m(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let v = memo[key] { return v }
            var r: Bool
            if i == p.count {
                r = j == s.count
            } else if p[i] == "*" {
                if i + 1 < p.count, p[i + 1] == "*" {
                    var ni = i + 2
                    if ni < p.count, p[ni] == "/" { ni += 1 }
                    r = false
                    var k = j
                    while k <= s.count {
                        if m(ni, k) { r = true; break }
                        k += 1
                    }
                } else {
                    r = m(i + 1, j) || (j < s.count && s[j] != "/" && m(i, j + 1))
                }
            } else if j < s.count && (p[i] == "?" ? s[j] != "/" : p[i] == s[j]) {
                r = m(i + 1, j + 1)
            } else {
                r = false
            }
            memo[key] = r
            return r
        }
        return m(0, 0)
    }
}
