/// Pairing the units of a run with the entries of a lock file, through indexes.
///
/// Before, each unit scanned every free entry of its bundle ID and of its file: 10,000 units and
/// 10,000 entries sharing one bundle ID were 10^8 comparisons. Now the free entries are kept in
/// three groupings (bundle ID and file, bundle ID, file), each in name order with a cursor for "the
/// first free one", and in the order of their reversed UTF-8 bytes with a minimum tree for "the
/// first free one whose name ends in `(CONFIGURATION)`" (the names that end so are one range of
/// that order). A unit asks at most six such questions, each costing a binary search and a walk of
/// the tree; an entry taken is struck from its three groupings once. The work grows with
/// (units + entries) x log(entries), whatever the entries share.
///
/// The choice is the same as scoring every candidate (bundle ID 4, file 2, configuration 1, then
/// the smaller name): the best grouping that still has a free entry decides, and inside it the
/// configuration. The configuration suffix is compared as UTF-8 bytes (Swift's `hasSuffix` does
/// so for NFC text); it differs from a comparison of Characters only for a name where the `(`
/// follows a prepended mark or that differs by Unicode normalization, which `entitlint lock` never writes.
extension LockFile {
    /// Pairs the units of a run with the entries: by name first; then each unit that no entry
    /// names takes, among the entries no unit of the run names, the one of its bundle ID or read
    /// from its file (both beat one, the bundle ID beats the file; the same configuration breaks
    /// a tie, then the entry's name). `all`: the names of every unit the run formed, context
    /// included. Returns the renamed pairs (unit name -> entry name) and the entries paired with
    /// no unit.
    public func pair(_ units: [SigningUnit], all: Set<String>, cwd: String)
        -> (renamed: [String: String], unpaired: [String]) {
        var work = 0
        return pair(units, all: all, cwd: cwd, work: &work)
    }

    /// `pair`, counting the steps taken (cursor moves, binary-search probes, tree nodes visited).
    public func pair(_ units: [SigningUnit], all: Set<String>, cwd: String, work: inout Int)
        -> (renamed: [String: String], unpaired: [String]) {
        let names = Set(self.units.keys).subtracting(all).sorted()
        guard !names.isEmpty else { return ([:], []) }
        var index = PairingIndex(names: names, entries: names.map { self.units[$0]! })
        var renamed: [String: String] = [:]
        for unit in units.sorted(by: { $0.name < $1.name }) where self.units[unit.name] == nil {
            let file = relativeFile(of: unit, cwd: cwd)
            let suffix = unit.origin.map { Array("(\($0.configuration))".utf8) }
            var groups: [PairingIndex.Key] = []
            if let b = unit.bundleID?.value { groups += [.bundleAndFile(b, file), .bundle(b)] }
            groups.append(.file(file))
            for key in groups {
                guard let rank = index.firstFree(in: key, endingWith: suffix, work: &work) else { continue }
                renamed[unit.name] = names[rank]
                index.take(rank, work: &work)
                break
            }
        }
        return (renamed, index.free().map { names[$0] })
    }
}

/// The free entries of a lock, by rank (their position in name order), in the three groupings
/// `pair` asks about.
struct PairingIndex {
    enum Key: Hashable {
        case bundleAndFile(String, String)
        case bundle(String)
        case file(String)
    }

    /// One grouping's entries: ranks ascending with a cursor, and by reversed name with a
    /// minimum tree of the ranks still free (`Int.max` once taken).
    struct Group {
        var ranks: [Int]
        var cursor = 0
        /// Ranks in the order of their reversed names.
        var byReversed: [Int]
        var tree: [Int]
        var leaves: Int
        /// Rank -> position in `byReversed`.
        var position: [Int: Int]
    }

    /// Groupings are mutated in place (a tree copied per entry taken would be quadratic).
    private var groups: [Group] = []
    private var groupOf: [Key: Int] = [:]
    private var memberships: [[Int]]
    private var taken: [Bool]
    /// Each name's UTF-8 bytes, reversed.
    private let reversedNames: [[UInt8]]

    init(names: [String], entries: [LockFile.Entry]) {
        reversedNames = names.map { Array($0.utf8.reversed()) }
        taken = Array(repeating: false, count: names.count)
        memberships = Array(repeating: [], count: names.count)
        var lists: [Key: [Int]] = [:]
        for (rank, e) in entries.enumerated() {
            var keys: [Key] = []
            if let b = e.bundleID {
                keys.append(.bundle(b))
                if let f = e.entitlements { keys.append(.bundleAndFile(b, f)) }
            }
            if let f = e.entitlements { keys.append(.file(f)) }
            for k in keys { lists[k, default: []].append(rank) }
        }
        for (key, ranks) in lists {
            let byReversed = ranks.sorted { reversedNames[$0].lexicographicallyPrecedes(reversedNames[$1]) }
            var leaves = 1
            while leaves < byReversed.count { leaves *= 2 }
            var tree = Array(repeating: Int.max, count: 2 * leaves)
            var position: [Int: Int] = [:]
            for (i, r) in byReversed.enumerated() {
                tree[leaves + i] = r
                position[r] = i
            }
            for k in stride(from: leaves - 1, through: 1, by: -1) { tree[k] = min(tree[2 * k], tree[2 * k + 1]) }
            groupOf[key] = groups.count
            for r in ranks { memberships[r].append(groups.count) }
            groups.append(Group(ranks: ranks, byReversed: byReversed, tree: tree, leaves: leaves, position: position))
        }
    }

    /// The smallest free rank of the grouping `key` whose name ends in `suffix`, else (or with no
    /// suffix) the smallest free rank of it; nil when it has none free.
    mutating func firstFree(in key: Key, endingWith suffix: [UInt8]?, work: inout Int) -> Int? {
        guard let gi = groupOf[key] else { return nil }
        while groups[gi].cursor < groups[gi].ranks.count, taken[groups[gi].ranks[groups[gi].cursor]] {
            groups[gi].cursor += 1
            work += 1
        }
        guard groups[gi].cursor < groups[gi].ranks.count else { return nil }
        if let suffix, let r = firstFree(groups[gi], endingWith: suffix, work: &work) { return r }
        return groups[gi].ranks[groups[gi].cursor]
    }

    /// The range of `g.byReversed` whose reversed names start with `suffix` reversed, then the
    /// least free rank in it.
    private func firstFree(_ g: Group, endingWith suffix: [UInt8], work: inout Int) -> Int? {
        let wanted = Array(suffix.reversed())
        // Ordering of a reversed name's first `wanted.count` bytes against `wanted`.
        func compare(_ rank: Int) -> Int {
            let key = reversedNames[rank]
            for i in 0..<wanted.count {
                guard i < key.count else { return -1 }
                if key[i] != wanted[i] { return key[i] < wanted[i] ? -1 : 1 }
            }
            return 0
        }
        func bound(_ isAfter: (Int) -> Bool) -> Int {
            var lo = 0, hi = g.byReversed.count
            while lo < hi {
                work += 1
                let mid = (lo + hi) / 2
                if isAfter(compare(g.byReversed[mid])) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let lo = bound { $0 >= 0 }
        let hi = bound { $0 > 0 }
        guard lo < hi else { return nil }
        // Minimum over leaves lo..<hi.
        var best = Int.max
        var l = lo + g.leaves, r = hi + g.leaves
        while l < r {
            work += 1
            if l & 1 == 1 { best = min(best, g.tree[l]); l += 1 }
            if r & 1 == 1 { r -= 1; best = min(best, g.tree[r]) }
            l /= 2
            r /= 2
        }
        return best == Int.max ? nil : best
    }

    /// Strikes `rank` from its groupings.
    mutating func take(_ rank: Int, work: inout Int) {
        taken[rank] = true
        for gi in memberships[rank] {
            guard let p = groups[gi].position[rank] else { continue }
            var k = p + groups[gi].leaves
            groups[gi].tree[k] = Int.max
            while k > 1 {
                work += 1
                k /= 2
                groups[gi].tree[k] = min(groups[gi].tree[2 * k], groups[gi].tree[2 * k + 1])
            }
        }
    }

    /// The ranks never taken, ascending.
    func free() -> [Int] { taken.indices.filter { !taken[$0] } }
}
