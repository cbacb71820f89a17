/// A property-list value with the source position of the element that produced it.
///
/// The element set is CoreFoundation's (keychain-access-groups.md section 5):
/// `dict, key, array, string, data, date, integer, real, true, false` inside one `plist`.
public struct PlistNode: Sendable, Hashable {
    public var value: PlistValue
    /// Where the value's element starts (`<string>` of `<string>x</string>`).
    public var location: SourceLocation

    public init(_ value: PlistValue, at location: SourceLocation = .unknown) {
        self.value = value
        self.location = location
    }
}

public enum PlistValue: Sendable, Hashable {
    case string(String)
    case integer(PlistInteger)
    case real(Double)
    case bool(Bool)
    case date(PlistDate)
    case data([UInt8])
    case array([PlistNode])
    case dict(PlistDictionary)

    /// The name of the XML element that holds such a value, for messages.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool(let b): return b ? "true" : "false"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dict: return "dict"
        }
    }
}

/// An `<integer>`: CoreFoundation keeps the full range of Int64 and UInt64.
public enum PlistInteger: Sendable, Hashable, CustomStringConvertible {
    case signed(Int64)
    case unsigned(UInt64)   // only for values above Int64.max

    public var description: String {
        switch self {
        case .signed(let v): return String(v)
        case .unsigned(let v): return String(v)
        }
    }

    public var int64: Int64? {
        switch self {
        case .signed(let v): return v
        case .unsigned(let v): return Int64(exactly: v)
        }
    }
}

/// A `<date>`: exactly `YYYY-MM-DDTHH:MM:SSZ`, always UTC.
public struct PlistDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second
    }

    /// Seconds since 1970-01-01T00:00:00Z (proleptic Gregorian calendar).
    public var secondsSince1970: Int64 {
        // Days from civil, after Howard Hinnant's public-domain algorithm description.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
    }

    /// The date `seconds` after 1970-01-01T00:00:00Z.
    public init(secondsSince1970 seconds: Int64) {
        var days = seconds / 86400
        var rem = seconds % 86400
        if rem < 0 { rem += 86400; days -= 1 }
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(year: Int(y), month: Int(m), day: Int(d),
                  hour: Int(rem / 3600), minute: Int(rem % 3600 / 60), second: Int(rem % 60))
    }

    public static func < (a: PlistDate, b: PlistDate) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    public var description: String {
        func p(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(p(year, 4))-\(p(month, 2))-\(p(day, 2))T\(p(hour, 2)):\(p(minute, 2)):\(p(second, 2))Z"
    }
}

/// A `<dict>`: entries in file order, duplicates kept. Lookup follows CoreFoundation: the last
/// occurrence of a key wins; `duplicates` lists the dead earlier ones so a rule can report them.
public struct PlistDictionary: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: PlistNode
        public init(key: String, keyLocation: SourceLocation, value: PlistNode) {
            self.key = key; self.keyLocation = keyLocation; self.value = value
        }
    }

    /// Every entry in file order, including ones shadowed by a later duplicate.
    public private(set) var entries: [Entry]
    /// Key -> position of its winning entry; built only for large dicts (small ones, the usual
    /// entitlements case, are searched linearly: cheaper than hashing every key).
    private var index: [String: Int]?
    static let indexThreshold = 24
    /// Whether a key was given twice (so `shadowedEntries` is not empty); tracked as entries are
    /// appended, so that the usual dict, without duplicates, answers without a search.
    public private(set) var hasShadowedEntries = false

    public init(_ entries: [Entry] = []) {
        self.entries = []
        self.index = nil
        for e in entries { append(e) }
    }

    public mutating func append(_ entry: Entry) {
        if !hasShadowedEntries {
            if let index {
                hasShadowedEntries = index[entry.key] != nil
            } else {
                hasShadowedEntries = position(entry.key) != nil
            }
        }
        entries.append(entry)
        if index != nil {
            index![entry.key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            var idx: [String: Int] = [:]
            for (i, e) in entries.enumerated() { idx[e.key] = i }
            index = idx
        }
    }

    private func position(_ key: String) -> Int? {
        if let index { return index[key] }
        // Comparing UTF-8 lengths first skips most full string comparisons; reading the keys in
        // place (no copy of each, hence no retain and release) halves the cost of a lookup.
        let n = key.utf8.count
        return entries.withUnsafeBufferPointer { b -> Int? in
            var i = b.count - 1
            while i >= 0 {
                if b[i].key.utf8.count == n && b[i].key == key { return i }
                i -= 1
            }
            return nil
        }
    }

    /// The winning value for `key` (the last occurrence).
    public subscript(key: String) -> PlistNode? {
        guard let i = position(key) else { return nil }
        return entries[i].value
    }

    /// The winning entry for `key`.
    public func entry(_ key: String) -> Entry? {
        position(key).map { entries[$0] }
    }

    /// Keys in file order of their winning occurrence, without duplicates.
    public var keys: [String] {
        if !hasShadowedEntries { return entries.map(\.key) }
        return entries.indices.filter { position(entries[$0].key) == $0 }.map { entries[$0].key }
    }

    /// Entries that a later entry with the same key overrides (dead values).
    public var shadowedEntries: [Entry] {
        if !hasShadowedEntries { return [] }
        return entries.indices.filter { position(entries[$0].key) != $0 }.map { entries[$0] }
    }

    /// Number of distinct keys.
    public var count: Int { hasShadowedEntries ? index?.count ?? keys.count : entries.count }
    public var isEmpty: Bool { entries.isEmpty }
}

extension PlistNode {
    public var string: String? { if case .string(let s) = value { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = value { return b }; return nil }
    public var array: [PlistNode]? { if case .array(let a) = value { return a }; return nil }
    public var dict: PlistDictionary? { if case .dict(let d) = value { return d }; return nil }
    public var data: [UInt8]? { if case .data(let d) = value { return d }; return nil }
    public var date: PlistDate? { if case .date(let d) = value { return d }; return nil }
    public var integer: PlistInteger? { if case .integer(let i) = value { return i }; return nil }
    /// Array of strings, or nil if this is not an array or any element is not a string.
    public var stringArray: [String]? {
        guard let a = array else { return nil }
        var out: [String] = []
        out.reserveCapacity(a.count)
        for n in a { guard let s = n.string else { return nil }; out.append(s) }
        return out
    }
}
