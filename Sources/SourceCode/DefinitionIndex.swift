/// The definitions of one unit indexed by name and scope, so that finding the candidates of a
/// name costs a few dictionary lookups however many definitions share that name.
///
/// - Unit-wide definitions (file-level and type members) sit in two tries of path components: one
///   read forwards (the definitions whose path is exactly a given path) and one read backwards
///   (those whose path ends with given components). Each list keeps the order of the definitions.
/// - Local definitions sit, per file and name, in a table of line segments: for each stretch of
///   lines, the definition whose scope is the innermost one holding it.
///
/// Building is O(Σ path lengths + L log L) for L locals; every lookup is O(path length).
struct DefinitionIndex: Sendable {
    /// A trie of path components; node 0 is the root.
    struct PathTrie: Sendable {
        struct Edge: Hashable, Sendable {
            var parent: Int32
            var name: String
        }

        var children: [Edge: Int32] = [:]
        /// The definitions listed at each node (exact paths or suffixes, as inserted).
        var lists: [[Int]] = [[]]

        func child(_ node: Int, _ name: String) -> Int? {
            children[Edge(parent: Int32(node), name: name)].map(Int.init)
        }

        /// Walks `names` from the root, adding nodes; lists `entry` at every node passed
        /// (`everyNode`) or at the last one only.
        mutating func insert<S: Sequence<String>>(_ names: S, entry: Int, everyNode: Bool) {
            var node = 0
            for name in names {
                let edge = Edge(parent: Int32(node), name: name)
                if let next = children[edge] {
                    node = Int(next)
                } else {
                    lists.append([])
                    node = lists.count - 1
                    children[edge] = Int32(node)
                }
                if everyNode { lists[node].append(entry) }
            }
            if !everyNode { lists[node].append(entry) }
        }
    }

    /// For one file and name: the innermost local scope at each line.
    struct Scopes: Sendable {
        /// Sorted line numbers where the set of scopes holding a line changes; segment `k` is the
        /// lines `starts[k] ..< starts[k + 1]`.
        var starts: [Int] = []
        /// The definition whose scope is the innermost one holding segment `k` (the fewest lines,
        /// then the first defined), or -1.
        var owner: [Int32] = []

        /// `scoped`: definitions (index, scope) in definition order. Each scope paints the segments
        /// it covers that no smaller (or equal and earlier) scope painted; the next unpainted
        /// segment is found by path-halving links, so painting is near-linear.
        init(_ scoped: [(index: Int, scope: ClosedRange<Int>)]) {
            var points = Set<Int>()
            for s in scoped {
                points.insert(s.scope.lowerBound)
                points.insert(s.scope.upperBound == Int.max ? Int.max : s.scope.upperBound + 1)
            }
            starts = points.sorted()
            let segments = max(0, starts.count - 1)
            owner = Array(repeating: -1, count: segments)
            var next = Array(0...segments)
            func find(_ k: Int) -> Int {
                var k = k
                while next[k] != k {
                    next[k] = next[next[k]]
                    k = next[k]
                }
                return k
            }
            let order = scoped.sorted { a, b in
                let (ca, cb) = (a.scope.upperBound - a.scope.lowerBound, b.scope.upperBound - b.scope.lowerBound)
                return ca != cb ? ca < cb : a.index < b.index
            }
            for s in order {
                let first = segment(startingAt: s.scope.lowerBound)
                let end = s.scope.upperBound == Int.max ? segments : segment(startingAt: s.scope.upperBound + 1)
                var k = find(first)
                while k < end {
                    owner[k] = Int32(s.index)
                    next[k] = k + 1
                    k = find(k + 1)
                }
            }
        }

        /// The index of the segment that starts at `line` (a breakpoint).
        private func segment(startingAt line: Int) -> Int {
            var (lo, hi) = (0, starts.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] < line { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        /// The definition whose scope is the innermost one holding `line`, if any.
        func innermost(at line: Int) -> Int? {
            // The last start <= line.
            var (lo, hi) = (0, starts.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] <= line { lo = mid + 1 } else { hi = mid }
            }
            let k = lo - 1
            guard k >= 0, k < owner.count, owner[k] >= 0 else { return nil }
            return Int(owner[k])
        }
    }

    /// Where a list of candidates comes from: the memo of a resolution is keyed by it.
    enum ListKey: Hashable, Sendable {
        case entry(Int)
        case exact(Int)
        case suffix(Int)
    }

    var forward = PathTrie()
    var backward = PathTrie()
    var locals: [String: [String: Scopes]] = [:]
    /// How many trie steps and scope records building took (the unit's share of the run's budget).
    var buildWork = 0

    init(_ entries: [(definition: StringDefinition, file: String)]) {
        var scoped: [String: [String: [(index: Int, scope: ClosedRange<Int>)]]] = [:]
        for (index, entry) in entries.enumerated() {
            guard let name = entry.definition.path.last else { continue }
            if let scope = entry.definition.scope {
                scoped[entry.file, default: [:]][name, default: []].append((index, scope))
                buildWork += 1
            } else {
                forward.insert(entry.definition.path, entry: index, everyNode: false)
                backward.insert(entry.definition.path.reversed(), entry: index, everyNode: true)
                buildWork += 2 * entry.definition.path.reduce(0) { $0 + 1 + $1.utf8.count >> 6 }
            }
        }
        for (file, names) in scoped {
            locals[file] = names.mapValues(Scopes.init)
        }
    }

    /// The candidates of `names` written at `line` of `file` inside the definition whose enclosing
    /// types are `context`: the innermost local constant of that name whose scope holds the line
    /// (a plain name only); else the unit-wide definitions whose path is exactly a prefix of the
    /// context followed by `names` (longest prefix first); else those whose path ends with `names`.
    /// `work` counts the lookups made, each weighted by the length of the name it hashes (a name
    /// of thousands of bytes costs as much as many short ones).
    func candidates(_ names: [String], file: String, line: Int, context: ArraySlice<String>, work: inout Int) -> (key: ListKey, list: [Int])? {
        guard let last = names.last else { return nil }
        func weight(_ name: String) -> Int { 1 + name.utf8.count >> 6 }
        work += weight(file) + names.reduce(0) { $0 + weight($1) }
        if names.count == 1, let scopes = locals[file]?[last], let local = scopes.innermost(at: line) {
            return (.entry(local), [local])
        }
        if !context.isEmpty {
            // The nodes of the context's prefixes, shortest first.
            var prefixes: [Int] = []
            var node = 0
            for name in context {
                work += weight(name)
                guard let next = forward.child(node, name) else { break }
                prefixes.append(next)
                node = next
            }
            for start in prefixes.reversed() {
                var at: Int? = start
                for name in names {
                    work += weight(name)
                    guard let n = at else { break }
                    at = forward.child(n, name)
                }
                if let at, !forward.lists[at].isEmpty { return keyed(.exact(at), forward.lists[at]) }
            }
        }
        var at = 0
        for name in names.reversed() {
            work += weight(name)
            guard let next = backward.child(at, name) else { return nil }
            at = next
        }
        return keyed(.suffix(at), backward.lists[at])
    }

    private func keyed(_ key: ListKey, _ list: [Int]) -> (key: ListKey, list: [Int])? {
        if list.isEmpty { return nil }
        return list.count == 1 ? (.entry(list[0]), list) : (key, list)
    }
}
