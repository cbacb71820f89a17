/// "Did you mean": the known name closest to a mistyped one, by edit distance (insertions,
/// deletions, substitutions and swaps of two neighbours each cost one).
public enum Suggestion {
    /// The candidate nearest to `word` when it is near enough to be a typo of it: at most one
    /// edit for names up to four characters, two up to eight, three beyond. Nil for words
    /// longer than 64 characters (no name is that long; the work stays small).
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased().unicodeScalars)
        guard !w.isEmpty, w.count <= 64 else { return nil }
        let allowed = w.count <= 4 ? 1 : w.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let c = Array(candidate.lowercased().unicodeScalars)
            guard abs(c.count - w.count) <= allowed, c.count <= 64 else { continue }
            let d = distance(w, c)
            if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// " (did you mean 'NAME'?)" or "".
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal string alignment distance over two rows of the table before this one.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, older[j - 2] + 1) }
                current[j] = v
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
