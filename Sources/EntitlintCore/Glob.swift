/// Glob patterns for `exclude:`: `*` (any run without `/`), `**` (any run, across folders; a `/`
/// right after it is part of it), `?` (one character). A pattern without `/` matches the file name
/// at any depth. Compiled once to a `WildcardProgram`: matching is linear in the pattern times
/// the path, with no recursion, whatever the pattern.
public struct Glob: Sendable, Hashable {
    public var pattern: String
    /// Whether the pattern is matched against the file name only (it has no `/`).
    let nameOnly: Bool
    let program: WildcardProgram<Character>

    public init(_ pattern: String) {
        self.pattern = pattern
        var p = pattern
        if p.hasPrefix("./") { p.removeFirst(2) }
        nameOnly = !p.containsASCII("/")
        if !nameOnly, p.hasSuffix("/") { p += "**" }
        program = Self.compile(Array(p))
    }

    public static func == (a: Glob, b: Glob) -> Bool { a.pattern == b.pattern }
    public func hash(into h: inout Hasher) { h.combine(pattern) }

    public func matches(_ path: String) -> Bool {
        var steps = 0
        return matches(path, steps: &steps)
    }

    /// `matches`, counting the steps the match takes (`WildcardProgram`).
    func matches(_ path: String, steps: inout Int) -> Bool {
        var s = path
        if s.hasPrefix("./") { s.removeFirst(2) }
        return program.matches(Array(nameOnly ? Paths.baseName(s) : s), steps: &steps)
    }

    static func compile(_ p: [Character]) -> WildcardProgram<Character> {
        var program = WildcardProgram<Character>(separator: "/")
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*":
                if i + 1 < p.count, p[i + 1] == "*" {
                    program.append(.anyRun)
                    i += 2
                    if i < p.count, p[i] == "/" { i += 1 }
                    continue
                }
                program.append(.star)
            case "?":
                program.append(.one)
            default:
                program.append(.literal(p[i]))
            }
            i += 1
        }
        return program
    }
}
