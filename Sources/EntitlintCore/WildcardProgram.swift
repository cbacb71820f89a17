/// A compiled wildcard pattern, matched without recursion or backtracking: `exclude:` globs
/// (`Glob`) and `.gitignore` patterns (`GitIgnore`) compile to it.
///
/// Matching keeps the set of string positions the pattern read so far can end at, one token at a
/// time, so it takes (tokens + 1) x (string length + 1) steps at most, and no stack. Runs of
/// zero-width tokens (`*`, `**`, `**/`) are collapsed when compiled, so a token of width zero is
/// always next to one of width one; a pattern needing more characters than the string has is
/// refused before any step. Together: at most (2 x length + 2) x (length + 1) steps, whatever the
/// pattern (`**/**/**/...` or `*a*a*a...` of a megabyte included).
package struct WildcardProgram<Element: Equatable> {
    package enum Token {
        /// This element.
        case literal(Element)
        /// Any one element but the separator (`?`).
        case one
        /// One element but the separator for which the class holds (`[a-z]`), by index.
        case oneOf(Int)
        /// Any run without the separator (`*`).
        case star
        /// Any run, separators included (`**`).
        case anyRun
        /// Nothing, or any run that ends with the separator (gitignore's `**/`).
        case components
    }

    private(set) var tokens: [Token] = []
    let classes: [@Sendable (Element) -> Bool]
    let separator: Element
    /// Elements the pattern needs at least: its tokens of width one.
    private(set) var width = 0

    package init(separator: Element, classes: [@Sendable (Element) -> Bool] = []) {
        self.separator = separator
        self.classes = classes
    }

    private static func isZeroWidth(_ t: Token) -> Bool {
        switch t {
        case .star, .anyRun, .components: return true
        default: return false
        }
    }

    /// Appends `t`, folding it into a zero-width token before it: `*` then `*` is `*`, anything
    /// with `**` is `**`, `**/` then `**/` is `**/`; `**/` then `*` is kept (each needs its own rule).
    package mutating func append(_ t: Token) {
        guard Self.isZeroWidth(t) else {
            tokens.append(t)
            width += 1
            return
        }
        guard let last = tokens.last, Self.isZeroWidth(last) else { tokens.append(t); return }
        switch (last, t) {
        case (.anyRun, _), (_, .anyRun):
            tokens[tokens.count - 1] = .anyRun
            // `**` takes in the zero-width tokens before it too.
            while tokens.count >= 2, Self.isZeroWidth(tokens[tokens.count - 2]) {
                tokens.remove(at: tokens.count - 2)
            }
        case (.star, .star), (.components, .components):
            break
        default:
            // `*` and `**/` side by side (gitignore's `**/*`): each needs its own rule. Their
            // grammar allows no third zero-width token after them, so runs stay two long.
            tokens.append(t)
        }
    }

    /// Whether the pattern matches all of `s`; `steps` counts the positions visited.
    package func matches(_ s: [Element], steps: inout Int) -> Bool {
        let n = s.count
        guard width <= n else { return false }
        var reach = [Bool](repeating: false, count: n + 1)
        var next = [Bool](repeating: false, count: n + 1)
        reach[0] = true
        for token in tokens {
            var any = false
            steps += n + 1
            switch token {
            case .literal(let c):
                next[0] = false
                for j in 0..<n { next[j + 1] = reach[j] && s[j] == c; any = any || next[j + 1] }
            case .one:
                next[0] = false
                for j in 0..<n { next[j + 1] = reach[j] && s[j] != separator; any = any || next[j + 1] }
            case .oneOf(let k):
                next[0] = false
                let holds = classes[k]
                for j in 0..<n { next[j + 1] = reach[j] && s[j] != separator && holds(s[j]); any = any || next[j + 1] }
            case .star:
                next[0] = reach[0]
                for j in stride(from: 1, through: n, by: 1) { next[j] = reach[j] || (next[j - 1] && s[j - 1] != separator) }
                any = next.contains(true)
            case .anyRun:
                next[0] = reach[0]
                for j in stride(from: 1, through: n, by: 1) { next[j] = reach[j] || next[j - 1] }
                any = next.contains(true)
            case .components:
                var seen = false
                next[0] = reach[0]
                for j in stride(from: 1, through: n, by: 1) {
                    seen = seen || reach[j - 1]
                    next[j] = reach[j] || (seen && s[j - 1] == separator)
                }
                any = next.contains(true)
            }
            guard any else { return false }
            swap(&reach, &next)
        }
        return reach[n]
    }

    package func matches(_ s: [Element]) -> Bool {
        var steps = 0
        return matches(s, steps: &steps)
    }
}

extension WildcardProgram: Sendable where Element: Sendable {}
extension WildcardProgram.Token: Sendable where Element: Sendable {}
