import EntitlintCore

/// `.gitignore` for folder walks: a file or folder that git would ignore is not linted, as ruff
/// and ripgrep do. Rules from gitignore(5):
///
/// - each `.gitignore` applies to its folder and below; a deeper file's patterns take precedence
///   over a shallower one's, and `$GIT_DIR/info/exclude` comes below them all; within a file the
///   last matching pattern decides;
/// - blank lines and lines starting with `#` are skipped; `\#` and `\!` start a pattern with those
///   characters; trailing spaces are dropped unless escaped with `\`;
/// - `!` negates; a trailing `/` matches folders only; a pattern with a `/` at the start or in the
///   middle is relative to the `.gitignore`'s folder, one without matches a name at any depth;
/// - `*` matches anything but `/`, `?` one character but `/`, `[a-z]`/`[!a-z]` a class;
///   `**/` leading, `/**/` inside and `/**` trailing match any number of folders;
/// - "It is not possible to re-include a file if a parent directory of that file is excluded":
///   the walk does not enter an ignored folder.
///
/// Only inside a git work tree (a `.git` folder or file at or above the walked folder), like git.
/// The global `core.excludesFile` is not read, and, as in ruff and ripgrep, patterns apply to
/// tracked files too. A folder named on the command line is walked even when it is ignored.
final class GitIgnore {
    struct Pattern {
        var glob: [UInt8]
        var program: WildcardProgram<UInt8>
        var negated: Bool
        var directoryOnly: Bool
        /// Matched against the path from `base` (else against the last component).
        var anchored: Bool
        /// The folder of the `.gitignore`, relative to the work tree root, "" or ending in `/`.
        var base: [UInt8]
    }

    /// The work tree root, absolute.
    let top: String
    /// The walked folder as the walk spells it, and relative to `top` ("" or ending in `/`).
    let walkRoot: String
    let walkRootFromTop: [UInt8]
    let gitDirectory: Bool
    /// Pattern levels that apply inside a folder (relative to `top`, "" or ending in `/`),
    /// shallowest first.
    private var levels: [[UInt8]: [[Pattern]]] = [:]

    /// Nil outside a git work tree.
    init?(walking root: String, cwd: String = Paths.currentDirectory()) {
        let absRoot = Paths.absolute(root, cwd: cwd)
        var dir = absRoot
        while Paths.kind((dir == "/" ? "" : dir) + "/.git") == .missing {
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
        }
        top = dir
        gitDirectory = Paths.kind((dir == "/" ? "" : dir) + "/.git") == .directory
        walkRoot = root
        let rel = absRoot == dir ? "" : String(absRoot.dropFirst(dir == "/" ? 1 : dir.count + 1)) + "/"
        walkRootFromTop = Array(rel.utf8)
    }

    /// Whether git ignores `path`, a path the walk produced (`walkRoot` joined with a relative part).
    func ignores(_ path: String, isDirectory: Bool) -> Bool {
        var rel = walkRootFromTop
        if walkRoot == "." {
            rel += path.utf8
        } else {
            let prefix = walkRoot.hasSuffix("/") ? walkRoot.utf8.count : walkRoot.utf8.count + 1
            rel += path.utf8.dropFirst(prefix)
        }
        let slash = rel.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { Array(rel[...$0]) } ?? []
        let name = slash.map { Array(rel[($0 + 1)...]) } ?? rel
        for level in patternLevels(folder).reversed() {
            for p in level.reversed() {
                if p.directoryOnly && !isDirectory { continue }
                let subject = p.anchored ? Array(rel.dropFirst(p.base.count)) : name
                if p.program.matches(subject) { return !p.negated }
            }
        }
        return false
    }

    /// The levels for entries of `folder`: its parent's, then its own `.gitignore`.
    private func patternLevels(_ folder: [UInt8]) -> [[Pattern]] {
        if let known = levels[folder] { return known }
        var result: [[Pattern]]
        if folder.isEmpty {
            result = []
            if gitDirectory { result.append(Self.load(top + "/.git/info/exclude", base: [])) }
        } else {
            let parentEnd = folder.dropLast().lastIndex(of: UInt8(ascii: "/"))
            result = patternLevels(parentEnd.map { Array(folder[...$0]) } ?? [])
        }
        let own = Self.load((top == "/" ? "" : top) + "/" + String(decoding: folder, as: UTF8.self) + ".gitignore", base: folder)
        if !own.isEmpty { result.append(own) }
        levels[folder] = result
        return result
    }

    static func load(_ path: String, base: [UInt8]) -> [Pattern] {
        guard let bytes = try? FileReader.read(path, limit: 1 << 20) else { return [] }
        return parse(bytes, base: base)
    }

    static func parse(_ bytes: [UInt8], base: [UInt8]) -> [Pattern] {
        var out: [Pattern] = []
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var line = Array(rawLine)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            // Trailing spaces go, unless the last one is escaped.
            while line.last == UInt8(ascii: " ") {
                if line.count >= 2 && line[line.count - 2] == UInt8(ascii: "\\") { break }
                line.removeLast()
            }
            var negated = false
            if line.first == UInt8(ascii: "!") {
                negated = true
                line.removeFirst()
            } else if line.count >= 2 && line[0] == UInt8(ascii: "\\") && (line[1] == UInt8(ascii: "#") || line[1] == UInt8(ascii: "!")) {
                line.removeFirst()
            }
            var directoryOnly = false
            if line.last == UInt8(ascii: "/") {
                directoryOnly = true
                line.removeLast()
            }
            guard !line.isEmpty else { continue }
            let anchored = line.contains(UInt8(ascii: "/"))
            if line.first == UInt8(ascii: "/") { line.removeFirst() }
            guard !line.isEmpty else { continue }
            out.append(Pattern(glob: line, program: compile(line), negated: negated, directoryOnly: directoryOnly, anchored: anchored, base: base))
        }
        return out
    }

    /// git's wildmatch with `WM_PATHNAME`: `*` and `?` stop at `/`; a `**` that is a whole
    /// component matches any number of components; `[...]` classes with ranges and `!`/`^`;
    /// `\` quotes the next character.
    static func wildmatch(_ p: [UInt8], _ s: [UInt8]) -> Bool {
        compile(p).matches(s)
    }

    /// `p` as a `WildcardProgram`: matched in (tokens + 1) x (path + 1) steps, without
    /// recursion, whatever the pattern (a long `**/**/...` chain included).
    static func compile(_ p: [UInt8]) -> WildcardProgram<UInt8> {
        let slash = UInt8(ascii: "/")
        // Classes first: the program holds them by index.
        var classes: [@Sendable (UInt8) -> Bool] = []
        var tokens: [WildcardProgram<UInt8>.Token] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "*"):
                let double = i + 1 < p.count && p[i + 1] == UInt8(ascii: "*")
                if double && (i == 0 || p[i - 1] == slash) && (i + 2 == p.count || p[i + 2] == slash) {
                    if i + 2 == p.count {
                        tokens.append(.anyRun)     // a trailing `**`: everything below
                        i += 2
                    } else {
                        tokens.append(.components) // `**/`: zero or more whole components
                        i += 3
                    }
                } else {
                    while i < p.count && p[i] == UInt8(ascii: "*") { i += 1 }
                    tokens.append(.star)
                }
                continue
            case UInt8(ascii: "?"):
                tokens.append(.one)
            case UInt8(ascii: "["):
                if let (table, next) = parseClass(p, i) {
                    classes.append { c in table[Int(c)] }
                    tokens.append(.oneOf(classes.count - 1))
                    i = next
                    continue
                }
                tokens.append(.literal(p[i]))       // no closing `]`: a literal `[`
            case UInt8(ascii: "\\") where i + 1 < p.count:
                tokens.append(.literal(p[i + 1]))
                i += 2
                continue
            default:
                tokens.append(.literal(p[i]))
            }
            i += 1
        }
        var program = WildcardProgram<UInt8>(separator: slash, classes: classes)
        for t in tokens { program.append(t) }
        return program
    }

    /// The class starting at `p[start]` (`[`): which bytes it holds (256 flags, negation
    /// applied), and the index after its `]`; nil when the class is not closed. One pass over
    /// the class, then 256 steps, however many ranges it lists.
    static func parseClass(_ p: [UInt8], _ start: Int) -> ([Bool], Int)? {
        var i = start + 1
        var negated = false
        if i < p.count && (p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^")) { negated = true; i += 1 }
        // +1 where a range starts, -1 after it ends: summed in one pass below.
        var edges = [Int](repeating: 0, count: 257)
        var first = true
        while i < p.count {
            var lo = p[i]
            if lo == UInt8(ascii: "]") && !first {
                var table = [Bool](repeating: false, count: 256)
                var open = 0
                for c in 0..<256 {
                    open += edges[c]
                    table[c] = (open > 0) != negated
                }
                return (table, i + 1)
            }
            first = false
            if lo == UInt8(ascii: "\\") && i + 1 < p.count { i += 1; lo = p[i] }
            var hi = lo
            if i + 2 < p.count && p[i + 1] == UInt8(ascii: "-") && p[i + 2] != UInt8(ascii: "]") {
                hi = p[i + 2]
                if hi == UInt8(ascii: "\\") && i + 3 < p.count { i += 1; hi = p[i + 2] }
                i += 2
            }
            if lo <= hi {
                edges[Int(lo)] += 1
                edges[Int(hi) + 1] -= 1
            }
            i += 1
        }
        return nil
    }
}
