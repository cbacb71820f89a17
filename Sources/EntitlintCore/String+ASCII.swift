#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Byte scans of strings, without Foundation: trimming spaces, Team-ID-like text, ASCII characters
// and sequences.

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }

    /// Whether the string looks like a Team ID / App ID prefix: 10 upper-case letters or digits.
    public var isTeamIDLike: Bool {
        utf8.count == 10 && utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) }
    }
}

extension String {
    /// Whether the string holds the ASCII character `c` (a byte scan, without Foundation).
    /// (Over the contiguous UTF-8 bytes: `utf8.contains` walks the view generically, ~35
    /// instructions a byte.)
    public func containsASCII(_ c: Unicode.Scalar) -> Bool {
        let byte = UInt8(c.value)
        // memchr: the generic `contains` costs several instructions a byte.
        if let found = utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard let base = b.baseAddress else { return false }
            return memchr(base, Int32(byte), b.count) != nil
        }) { return found }
        return utf8.contains(byte)
    }

    /// Whether the string holds a byte past ASCII (a scalar above U+007F), over the contiguous
    /// UTF-8 bytes.
    public var hasNonASCII: Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains { $0 >= 0x80 } } ?? utf8.contains { $0 >= 0x80 }
    }

    /// Whether the string holds the ASCII sequence `s` (a byte scan, without Foundation).
    public func containsASCII(sequence s: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
        if let found = utf8.withContiguousStorageIfAvailable({ Self.search(needle, in: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { Self.search(needle, in: $0) }
    }

    static func search(_ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= hay.count, let first = needle.first else { return needle.isEmpty }
        var i = 0
        while i + needle.count <= hay.count {
            if hay[i] == first {
                var j = 1
                while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
