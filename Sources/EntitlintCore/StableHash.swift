import PropertyList

/// 64-bit FNV-1a (Fowler/Noll/Vo, draft-eastlake-fnv), written as 16 hex digits: defined on bytes,
/// so stable across runs, platforms and releases, which Swift's `Hasher` (seeded per process) is
/// not. An identity for baselines and fingerprints, not a security measure: whoever can change a
/// value to collide can edit the baseline too.
public enum StableHash {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over the UTF-8 of each part, with a 0 byte after each (so `("ab", "c")` and
    /// `("a", "bc")` differ).
    public static func fnv1a64(_ parts: [String]) -> UInt64 {
        var h = offsetBasis
        for part in parts { h = fnv1a64(part.utf8, from: h); h = fnv1a64(CollectionOfOne(0), from: h) }
        return h
    }

    /// The FNV-1a loop: for each byte, `hash ^= byte; hash *= FNV_prime` (64-bit prime 2^40 + 2^8 + 0xb3).
    public static func fnv1a64<S: Sequence>(_ bytes: S, from start: UInt64 = offsetBasis) -> UInt64 where S.Element == UInt8 {
        var h = start
        for b in bytes {
            h ^= UInt64(b)
            h = h &* prime
        }
        return h
    }

    /// 16 lower-case hex digits.
    public static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Values hashed per element at most; the rest of a larger value does not count.
    public static let maxValues = 4_096
    /// Bytes of strings, keys and data hashed per element at most.
    public static let maxBytes = 64 << 10

    /// The hash of an element's value (for a dict entry: its key and value), over a canonical
    /// form: each value's type, then its content with its length, so that no two different
    /// values share an encoding. At most `maxValues` values and `maxBytes` bytes are hashed.
    /// `work`: values hashed, for the tests of that bound.
    public static func of(_ element: PlistWalk.Element, work: inout Int) -> String {
        var h = offsetBasis
        var budget = maxBytes
        var values = 0
        func feed(_ tag: UInt8, _ text: String) {
            let cut = text.utf8.prefix(max(0, budget))
            budget -= cut.count
            h = fnv1a64([tag] + Array(String(text.utf8.count).utf8) + [0x3A], from: h)
            h = fnv1a64(cut, from: h)
        }
        var stack: [PlistWalk.Element] = [element]
        while let e = stack.popLast(), values < maxValues, budget > 0 {
            values += 1
            if case .entry(let entry) = e {
                feed(0x6B, entry.key)   // k
                stack.append(.value(entry.value))
                continue
            }
            switch e.node.value {
            case .string(let s): feed(0x73, s)
            case .integer(let i): feed(0x69, i.description)
            case .real(let r): feed(0x72, String(r.bitPattern))
            case .bool(let b): feed(0x62, b ? "1" : "0")
            case .date(let d): feed(0x64, d.description)
            case .data(let bytes): feed(0x78, StableHash.hex(fnv1a64(bytes)))
            case .array(let items):
                feed(0x61, String(items.count))
                for item in items.reversed() { stack.append(.value(item)) }
            case .dict(let d):
                feed(0x44, String(d.entries.count))
                for entry in d.entries.reversed() { stack.append(.entry(entry)) }
            }
        }
        work += values
        return hex(h)
    }
}
