/// The element names of a plist, resolved once per start tag.
enum PlistElement: UInt8 {
    case plist, dict, key, array, string, data, date, integer, real, `true`, `false`

    init?(_ name: UnsafePointer<UInt8>) {
        // Compare without building a String: the names are short ASCII.
        func eq(_ s: StaticString) -> Bool {
            let p = s.utf8Start
            var i = 0
            while i < s.utf8CodeUnitCount {
                if name[i] != p[i] { return false }
                i += 1
            }
            return name[i] == 0
        }
        switch name[0] {
        case UInt8(ascii: "p"): if eq("plist") { self = .plist } else { return nil }
        case UInt8(ascii: "d"):
            if eq("dict") { self = .dict } else if eq("data") { self = .data } else if eq("date") { self = .date } else { return nil }
        case UInt8(ascii: "k"): if eq("key") { self = .key } else { return nil }
        case UInt8(ascii: "a"): if eq("array") { self = .array } else { return nil }
        case UInt8(ascii: "s"): if eq("string") { self = .string } else { return nil }
        case UInt8(ascii: "i"): if eq("integer") { self = .integer } else { return nil }
        case UInt8(ascii: "r"): if eq("real") { self = .real } else { return nil }
        case UInt8(ascii: "t"): if eq("true") { self = .true } else { return nil }
        case UInt8(ascii: "f"): if eq("false") { self = .false } else { return nil }
        default: return nil
        }
    }

    var isContainer: Bool { self == .dict || self == .array || self == .plist }
}
