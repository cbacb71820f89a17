public import PropertyList

/// What every harness does with a result, so the fuzzer exercises the accessors the rules use
/// (and so the optimiser cannot drop the parse).
public enum FuzzCheck {
    /// Visits every value: dict lookup (last wins), keys, shadowed entries, typed accessors.
    /// Returns a count that the harness folds into `sink`.
    @discardableResult
    public static func walk(_ node: PlistNode) -> Int {
        var seen = 1
        switch node.value {
        case .array(let items):
            for item in items { seen &+= walk(item) }
        case .dict(let dict):
            for key in dict.keys {
                precondition(dict[key] != nil, "a key of the dict has no value")
            }
            seen &+= dict.shadowedEntries.count
            for entry in dict.entries { seen &+= walk(entry.value) }
        case .string(let s): seen &+= s.utf8.count
        case .data(let d): seen &+= d.count
        case .date(let d): seen &+= Int(truncatingIfNeeded: d.secondsSince1970)
        case .integer(let i): seen &+= i.description.count
        case .real(let r): seen &+= r.isNaN ? 1 : 0
        case .bool(let b): seen &+= b ? 1 : 0
        }
        _ = node.stringArray
        sink &+= seen
        return seen
    }

    /// Every rejection must come with a reason (it is shown to the user).
    public static func error(_ reason: String) {
        precondition(!reason.isEmpty, "an error without a reason")
        sink &+= reason.utf8.count
    }

    nonisolated(unsafe) public static var sink = 0
}

/// Copies libFuzzer's input (which may be a null pointer when empty).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
