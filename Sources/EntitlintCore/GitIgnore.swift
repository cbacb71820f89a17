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
                if Self.wildmatch(p.glob, subject) { return !p.negated }
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
            out.append(Pattern(glob: line, negated: negated, directoryOnly: directoryOnly, anchored: anchored, base: base))
        }
        return out
    }

    /// git's wildmatch with `WM_PATHNAME`: `*` and `?` stop at `/`; a `**` that is a whole
    /// component matches any number of components; `[...]` classes with ranges and `!`/`^`;
    /// `\` quotes the next character.
    ///
    /// The pattern is read once into tokens; the one-byte tokens at either end are compared
    /// directly, and what lies between is matched by dynamic programming over (token, path
    /// position), one path position at a time from the end: O(tokens x path) steps and
    /// O(tokens) memory, whatever the pattern (a memoised search that tried every split for every
    /// `*` took cubic time: `*a` 200 times against 800 `a`s took seconds). `steps` counts them.
    static func wildmatch(_ p: [UInt8], _ s: [UInt8]) -> Bool {
        var steps = 0
        return wildmatch(p, s, steps: &steps)
    }

    static func wildmatch(_ p: [UInt8], _ s: [UInt8], steps: inout Int) -> Bool {
        let slash = UInt8(ascii: "/")
        let all = wildTokens(p)
        // Tokens of one byte at the start and at the end match one byte each: checked directly,
        // so most patterns (`name`, `*.ext`, `dir/**`) cost one pass and a mismatch stops at once.
        func one(_ t: WildToken, _ c: UInt8) -> Bool? {
            switch t {
            case .byte(let b): return c == b
            case .one: return c != slash
            case .set(let set): return c != slash && set[Int(c)]
            case .star, .everything, .folders: return nil
            }
        }
        var lo = 0, start = 0
        while lo < all.count, start < s.count, let ok = one(all[lo], s[start]) {
            steps += 1
            guard ok else { return false }
            lo += 1
            start += 1
        }
        var hi = all.count, end = s.count
        while hi > lo, end > start, let ok = one(all[hi - 1], s[end - 1]) {
            steps += 1
            guard ok else { return false }
            hi -= 1
            end -= 1
        }
        let tokens = Array(all[lo..<hi])
        let s = Array(s[start..<end])
        let m = tokens.count
        // `column[k]`: whether tokens k... match s[j...]; `next`: the same for j + 1.
        var column = [Bool](repeating: false, count: m + 1)
        var next = [Bool](repeating: false, count: m + 1)
        // For a `**/` token k: whether some `/` at or after j is followed by a match of k + 1.
        var slashThenRest = [Bool](repeating: false, count: m + 1)
        for j in stride(from: s.count, through: 0, by: -1) {
            let c: UInt8? = j < s.count ? s[j] : nil
            column[m] = c == nil
            for k in stride(from: m - 1, through: 0, by: -1) {
                switch tokens[k] {
                case .byte(let b): column[k] = c == b && next[k + 1]
                case .one: column[k] = c != nil && c != slash && next[k + 1]
                case .set(let set): column[k] = c.map { $0 != slash && set[Int($0)] } == true && next[k + 1]
                case .star: column[k] = column[k + 1] || (c != nil && c != slash && next[k])
                case .everything: column[k] = true
                case .folders:
                    slashThenRest[k] = slashThenRest[k] || (c == slash && next[k + 1])
                    column[k] = column[k + 1] || slashThenRest[k]
                }
            }
            steps += m + 1
            swap(&column, &next)
        }
        return next[0]
    }

    /// A piece of a wildmatch pattern.
    enum WildToken {
        case byte(UInt8)
        /// `?`
        case one
        /// `[...]`: the bytes it matches (negation applied).
        case set([Bool])
        /// `*` (or a run of them that is not a whole component): any run without `/`.
        case star
        /// A trailing `/**`: everything below.
        case everything
        /// `**/` as whole components: zero or more components.
        case folders
    }

    static func wildTokens(_ p: [UInt8]) -> [WildToken] {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        var out: [WildToken] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case star:
                let double = i + 1 < p.count && p[i + 1] == star
                if double && (i == 0 || p[i - 1] == slash) && (i + 2 == p.count || p[i + 2] == slash) {
                    out.append(i + 2 == p.count ? .everything : .folders)
                    i += 3
                } else {
                    i += 1
                    while i < p.count && p[i] == star { i += 1 }
                    out.append(.star)
                }
            case UInt8(ascii: "?"):
                out.append(.one)
                i += 1
            case UInt8(ascii: "["):
                if let (set, next) = classSet(p, i) {
                    out.append(.set(set))
                    i = next
                } else {
                    out.append(.byte(p[i]))   // no closing `]`: a literal `[`
                    i += 1
                }
            case UInt8(ascii: "\\") where i + 1 < p.count:
                out.append(.byte(p[i + 1]))
                i += 2
            default:
                out.append(.byte(p[i]))
                i += 1
            }
        }
        return out
    }

    /// The class starting at `p[start]` (`[`): the bytes it matches, and the index after its `]`;
    /// nil when the class is not closed.
    static func classSet(_ p: [UInt8], _ start: Int) -> ([Bool], Int)? {
        var i = start + 1
        var negated = false
        if i < p.count && (p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^")) { negated = true; i += 1 }
        // Ranges marked as +1 at their start and -1 after their end, summed once at the close.
        var marks = [Int](repeating: 0, count: 257)
        var first = true
        while i < p.count {
            var lo = p[i]
            if lo == UInt8(ascii: "]") && !first {
                var set = [Bool](repeating: false, count: 256)
                var depth = 0
                for b in 0..<256 {
                    depth += marks[b]
                    set[b] = (depth > 0) != negated
                }
                return (set, i + 1)
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
                marks[Int(lo)] += 1
                marks[Int(hi) + 1] -= 1
            }
            i += 1
        }
        return nil
    }
}

/// What the git work tree around a path says about a file that is not there: whether git
/// ignores it (a per-developer file), and which submodule it belongs to. Both read only the
/// work tree's own `.gitignore` files, `$GIT_DIR/info/exclude` and `.gitmodules`; no git process.
public enum GitWorkTree {
    /// The root of the work tree holding `absolutePath` (a `.git` folder or file at or above it).
    public static func top(of absolutePath: String) -> String? {
        var dir = Paths.directoryName(absolutePath)
        var levels = 0
        while levels < 256 {
            if Paths.kind((dir == "/" ? "" : dir) + "/.git") != .missing { return dir }
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        return nil
    }

    /// Whether git ignores `absolutePath` or one of the folders above it inside the work tree.
    public static func ignores(_ absolutePath: String) -> Bool {
        guard let top = top(of: absolutePath), let matcher = GitIgnore(walking: top, cwd: "/") else { return false }
        let rel = absolutePath.dropFirst(top == "/" ? 1 : top.count + 1)
        let parts = rel.split(separator: "/")
        var path = top
        for (i, part) in parts.enumerated() {
            path = path == "/" ? "/" + part : path + "/" + part
            if matcher.ignores(path, isDirectory: i < parts.count - 1) { return true }
        }
        return false
    }

    /// The path (relative to the work tree) of the submodule `absolutePath` lies in, from `.gitmodules`.
    public static func submodule(containing absolutePath: String) -> String? {
        guard let top = top(of: absolutePath),
              let bytes = try? FileReader.read(top + "/.gitmodules", limit: 1 << 20) else { return nil }
        let rel = String(absolutePath.dropFirst(top == "/" ? 1 : top.count + 1))
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let t = line.drop { $0 == " " || $0 == "\t" }
            guard t.hasPrefix("path"), let eq = t.firstIndex(of: "=") else { continue }
            guard t[t.startIndex..<eq].trimmingCharacters(in: " \t") == "path" else { continue }
            let value = t[t.index(after: eq)...].trimmingCharacters(in: " \t")
            if !value.isEmpty, rel == value || rel.hasPrefix(value + "/") { return value }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
