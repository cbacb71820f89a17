/// The definitions of one unit by name and scope, so that finding the candidates of a name costs
/// a few dictionary lookups however many definitions share that name.
///
/// Built in one pass (`byName`, `locals`: what any lookup needs first); the finer tables are made
/// by a `StringResolution` the first time it looks a name up, and kept:
/// - for a last name, a trie of the other components of the unit-wide definitions of that name,
///   read backwards: each node lists the definitions whose path ends with the components walked
///   (`suffix`) and those whose path is exactly them (`exact`);
/// - for a file and a name, the local definitions' scopes as a table of line segments: for each
///   stretch of lines, the definition whose scope is the innermost one holding it.
struct DefinitionIndex: Sendable {
    /// Unit-wide definitions (file-level and type members) by their last path component.
    var byName: [String: [Int]] = [:]
    /// Local definitions by file, then by name, with their scopes.
    var locals: [String: [String: [(index: Int, scope: ClosedRange<Int>)]]] = [:]

    /// The hashing building took.
    var buildWork = 0

    init(_ entries: [StringResolver.Entry]) {
        for (index, entry) in entries.enumerated() {
            guard let name = entry.definition.path.last else { continue }
            buildWork += Self.weight(name)
            if let scope = entry.definition.scope {
                buildWork += Self.weight(entry.file)
                locals[entry.file, default: [:]][name, default: []].append((index, scope))
            } else {
                byName[name, default: []].append(index)
            }
        }
    }

    /// The weight of hashing a name: one, plus one per 64 bytes (a name of thousands of bytes
    /// costs as much as many short ones).
    static func weight(_ name: String) -> Int { 1 + name.utf8.count >> 6 }
}

/// The unit-wide definitions of one last name, by the rest of their paths read backwards.
struct NameTable {
    struct Edge: Hashable {
        var parent: Int32
        var name: String
    }

    var children: [Edge: Int32] = [:]
    /// Per node: the definitions whose path, read backwards after the last name, starts with the
    /// components walked to it; and those whose path is exactly them.
    var suffix: [[Int]] = [[]]
    var exact: [[Int]] = [[]]
    /// The hashing it took to build.
    var buildWork = 0

    init(_ list: [Int], paths: (Int) -> [String]) {
        for index in list {
            let path = paths(index)
            var node = 0
            suffix[0].append(index)
            for name in path.dropLast().reversed() {
                buildWork += DefinitionIndex.weight(name)
                let edge = Edge(parent: Int32(node), name: name)
                if let next = children[edge] {
                    node = Int(next)
                } else {
                    suffix.append([])
                    exact.append([])
                    node = suffix.count - 1
                    children[edge] = Int32(node)
                }
                suffix[node].append(index)
            }
            exact[node].append(index)
        }
        buildWork += list.count
    }

    /// The node reached from `node` by `names` (read in the order given), if any.
    func walk<S: Sequence<String>>(_ names: S, from node: Int = 0, work: inout Int) -> Int? {
        var node = node
        for name in names {
            work += DefinitionIndex.weight(name)
            guard let next = children[Edge(parent: Int32(node), name: name)] else { return nil }
            node = Int(next)
        }
        return node
    }
}

/// For one file and name: the innermost local scope at each line.
struct ScopeTable {
    /// Sorted line numbers where the set of scopes holding a line changes; segment `k` is the
    /// lines `starts[k] ..< starts[k + 1]`.
    var starts: [Int] = []
    /// The definition whose scope is the innermost one holding segment `k` (the fewest lines,
    /// then the first defined), or -1.
    var owner: [Int32] = []

    /// `scoped`: definitions (index, scope) in definition order. Each scope paints the segments
    /// it covers that no smaller (or equal and earlier) scope painted; the next unpainted segment
    /// is found through path-halving links, so painting is near-linear.
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
