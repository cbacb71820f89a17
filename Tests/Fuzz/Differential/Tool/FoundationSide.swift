import Foundation

/// Foundation's `PropertyListSerialization` (swift-corelibs-foundation: CoreFoundation's
/// CFPropertyList parser, XML and binary).
enum FoundationSide {
    static func result(_ bytes: [UInt8]) -> String {
        var out = CanonicalJSON()
        do {
            let value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            out.raw("{\"ok\":true,\"value\":")
            write(value, &out)
            out.raw("}")
        } catch {
            let ns = error as NSError
            let reason = ns.userInfo[NSDebugDescriptionErrorKey] as? String ?? ns.localizedDescription
            out.raw("{\"ok\":false,\"error\":")
            out.string(reason)
            out.raw("}")
        }
        return out.text
    }

    static func write(_ value: Any, _ out: inout CanonicalJSON) {
        // Bool first: on Linux CF booleans arrive as Swift Bool, and an NSNumber holding 0 or 1
        // would also cast to Bool.
        if type(of: value) == Bool.self, let b = value as? Bool {
            out.tagged("b") { $0.raw(b ? "true" : "false") }
        } else if let s = value as? String {
            out.tagged("s") { $0.string(s) }
        } else if let n = value as? NSNumber {
            switch String(cString: n.objCType) {
            case "d", "f": out.real(n.doubleValue)
            case "Q", "L", "I", "S", "C": out.tagged("i") { $0.string(String(n.uint64Value)) }
            case "c" where type(of: value) == Bool.self: out.tagged("b") { $0.raw(n.boolValue ? "true" : "false") }
            default: out.tagged("i") { $0.string(String(n.int64Value)) }
            }
        } else if let d = value as? Date {
            out.tagged("d") { $0.raw("\(d.timeIntervalSince1970)") }
        } else if let d = value as? Data {
            out.data(d)
        } else if let a = value as? [Any] {
            out.tagged("a") { o in
                o.raw("[")
                for (n, item) in a.enumerated() {
                    if n > 0 { o.raw(",") }
                    write(item, &o)
                }
                o.raw("]")
            }
        } else if let d = value as? [AnyHashable: Any] {
            out.tagged("D") { o in
                o.raw("[")
                for (n, (key, item)) in d.enumerated() {
                    if n > 0 { o.raw(",") }
                    o.raw("[")
                    o.string("\(key.base)")
                    o.raw(",")
                    write(item, &o)
                    o.raw("]")
                }
                o.raw("]")
            }
        } else {
            // CFKeyedArchiverUID and anything unforeseen: keep its description.
            out.tagged("?") { $0.string("\(type(of: value)): \(value)") }
        }
    }
}
