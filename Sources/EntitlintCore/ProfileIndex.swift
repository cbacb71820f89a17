import Provisioning

/// The profiles of a run, indexed once for pairing with units: by App ID pattern (exact, and a
/// prefix trie for `PREFIX.stem*` wildcards), by UUID and by name. Pairing a unit costs the
/// length of its bundle ID plus the depth of the trie, whatever the number of profiles; before,
/// every unit was compared with every profile (5,000 profiles x 1,000 units: five million
/// pattern checks).
///
/// The choice is `UnitFormer.bestProfile`'s: the profile whose `application-identifier` pattern
/// covers the unit's App ID (the prefix must be the unit's when it is known), an exact pattern
/// over any wildcard, a longer wildcard stem (counted in Characters) over a shorter one, then the
/// smaller path, then the earlier profile. Wildcard stems are matched as UTF-8 bytes (Swift's own
/// `hasPrefix` does so for NFC text); App IDs are ASCII, so this differs from a comparison of
/// Characters only for a stem that ends inside a grapheme cluster, which no App ID can hold.
public struct ProfileIndex: Sendable {
    /// A profile a query chose: its position in `profiles`, its score and its rank (the order the
    /// run lists it in, the last tie-breaker).
    public struct Match: Sendable {
        public var position: Int
        public var score: Int
        public var path: String
        public var rank: Int

        /// Whether `self` beats `other` as `bestProfile` ranks: score, then path, then rank.
        public func beats(_ other: Match?) -> Bool {
            guard let other else { return true }
            if score != other.score { return score > other.score }
            if path != other.path { return path < other.path }
            return rank < other.rank
        }
    }

    public let profiles: [ProfileFile]
    /// The run's order of each profile (its position in `profiles` unless told).
    let ranks: [Int]
    /// What `excluding:` sets are matched against (absolute paths, say); the shown path unless told.
    let keys: [String]
    /// Positions by (path, rank).
    private var byPath: [Int] = []
    /// Exact patterns by the part after the dot: of any team prefix, and by team prefix.
    private var exactAnyTeam: [String: [Int]] = [:]
    private var exactByTeam: [String: [String: [Int]]] = [:]
    /// Wildcard stems: of any team prefix, and by team prefix.
    private var stemsAnyTeam = PrefixTrie()
    private var stemsByTeam: [String: PrefixTrie] = [:]
    /// Each profile's score when it matches (`UnitFormer.bestProfile`'s).
    private var scores: [Int] = []
    /// Lower-cased UUID -> positions in rank order, and by (path, rank); name -> positions by (path, rank).
    private var byUUID: [String: [Int]] = [:]
    private var byUUIDByPath: [String: [Int]] = [:]
    private var byName: [String: [Int]] = [:]

    public init(_ profiles: [ProfileFile], ranks: [Int]? = nil, keys: [String]? = nil) {
        self.profiles = profiles
        self.ranks = ranks ?? Array(profiles.indices)
        self.keys = keys ?? profiles.map(\.path)
        let ordered = profiles.indices.sorted { a, b in
            profiles[a].path != profiles[b].path ? profiles[a].path < profiles[b].path : self.ranks[a] < self.ranks[b]
        }
        byPath = ordered
        scores = Array(repeating: 0, count: profiles.count)
        for i in ordered {
            let p = profiles[i].profile
            if let name = p.name { byName[name, default: []].append(i) }
            if let uuid = p.uuid { byUUIDByPath[uuid.lowercased(), default: []].append(i) }
            guard let pattern = p.applicationIdentifier, let dot = pattern.firstIndex(of: ".") else { continue }
            let prefix = String(pattern[..<dot])
            let rest = pattern[pattern.index(after: dot)...]
            if rest.hasSuffix("*") {
                scores[i] = rest.count - 1
                let stem = Array(rest.dropLast().utf8)
                stemsAnyTeam.insert(stem, i)
                stemsByTeam[prefix, default: PrefixTrie()].insert(stem, i)
            } else {
                scores[i] = rest.count + 1000
                exactAnyTeam[String(rest), default: []].append(i)
                exactByTeam[prefix, default: [:]][String(rest), default: []].append(i)
            }
        }
        for (i, p) in profiles.enumerated().sorted(by: { self.ranks[$0.offset] < self.ranks[$1.offset] }) {
            if let uuid = p.profile.uuid { byUUID[uuid.lowercased(), default: []].append(i) }
        }
    }

    /// The first of `list` not excluded, as a match.
    private func first(_ list: [Int]?, excluding: Set<String>, work: inout Int) -> Match? {
        for i in list ?? [] {
            work += 1
            if excluding.isEmpty || !excluding.contains(keys[i]) { return Match(position: i, score: scores[i], path: profiles[i].path, rank: ranks[i]) }
        }
        return nil
    }

    /// The profile `UnitFormer.bestProfile` chooses for `unit`, leaving out those whose key is in
    /// `excluding`. `work` counts the profiles and trie nodes looked at.
    public func best(for unit: SigningUnit, excluding: Set<String> = [], work: inout Int) -> Match? {
        guard let bundle = unit.bundleID?.value else { return nil }
        let team = unit.appIDPrefix?.value
        // An exact pattern scores above any stem that is a prefix of the same bundle ID.
        let exact = team.map { exactByTeam[$0]?[bundle] } ?? exactAnyTeam[bundle]
        if let m = first(exact, excluding: excluding, work: &work) { return m }
        guard let trie = team.map({ stemsByTeam[$0] }) ?? stemsAnyTeam else { return nil }
        var best: Match?
        var listed = 0
        trie.forEachPrefix(of: Array(bundle.utf8), work: &work) { positions in
            if let m = first(positions, excluding: excluding, work: &listed), m.beats(best) { best = m }
        }
        work += listed
        return best
    }

    public func best(for unit: SigningUnit) -> ProfileFile? {
        var work = 0
        return best(for: unit, work: &work).map { profiles[$0.position] }
    }

    /// The first profile (in rank order) whose UUID is `uuid`, ignoring case.
    public func first(uuid: String, excluding: Set<String> = []) -> Match? {
        var work = 0
        return first(byUUID[uuid.lowercased()], excluding: excluding, work: &work)
    }

    /// The profile of the smallest path whose name is `name` or whose UUID is `uuid` (ignoring case).
    public func smallestPath(named name: String, orUUID uuid: String, excluding: Set<String> = []) -> Match? {
        var work = 0
        let candidates = [first(byName[name], excluding: excluding, work: &work),
                          first(byUUIDByPath[uuid.lowercased()], excluding: excluding, work: &work)]
            .compactMap { $0 }
        return candidates.min { a, b in a.path != b.path ? a.path < b.path : a.rank < b.rank }
    }
}

/// Byte strings in a compressed trie (one node per branch or end, so nodes are at most twice the
/// strings however long they are), for "every string that is a prefix of this one".
struct PrefixTrie: Sendable {
    /// Each node's incoming edge: bytes `start..<end` of `strings[string]`.
    private var edges: [(string: Int, start: Int, end: Int)] = [(0, 0, 0)]
    private var children: [[UInt8: Int]] = [[:]]
    /// What ends at each node.
    private var values: [[Int]] = [[]]
    private var strings: [[UInt8]] = []

    mutating func insert(_ key: [UInt8], _ value: Int) {
        strings.append(key)
        let s = strings.count - 1
        var node = 0
        var i = 0
        while i < key.count {
            guard let child = children[node][key[i]] else {
                edges.append((s, i, key.count))
                children.append([:])
                values.append([value])
                children[node][key[i]] = edges.count - 1
                return
            }
            let e = edges[child]
            let label = strings[e.string]
            var m = 0
            while e.start + m < e.end, i + m < key.count, label[e.start + m] == key[i + m] { m += 1 }
            if e.start + m == e.end {
                node = child
                i += m
                continue
            }
            // Split the edge at m: a middle node where the key leaves it (or ends).
            edges.append((e.string, e.start, e.start + m))
            children.append([label[e.start + m]: child])
            values.append([])
            let middle = edges.count - 1
            edges[child] = (e.string, e.start + m, e.end)
            children[node][key[i]] = middle
            node = middle
            i += m
        }
        values[node].append(value)
    }

    /// Calls `body` with the values of each string that is a prefix of `key`, shortest first.
    /// Work: the bytes of `key` compared, at most, plus one per node on the way.
    func forEachPrefix(of key: [UInt8], work: inout Int, _ body: ([Int]) -> Void) {
        var node = 0
        var i = 0
        while true {
            work += 1
            if !values[node].isEmpty { body(values[node]) }
            guard i < key.count, let child = children[node][key[i]] else { return }
            let e = edges[child]
            let length = e.end - e.start
            guard key.count - i >= length else { return }
            let label = strings[e.string]
            for m in 0..<length where label[e.start + m] != key[i + m] { return }
            work += length
            node = child
            i += length
        }
    }
}
