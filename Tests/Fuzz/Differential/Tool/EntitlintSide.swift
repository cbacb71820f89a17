import PropertyList

/// Entitlint's reader, as the linter calls it (`PropertyListReader.parse`, default limits).
enum EntitlintSide {
    static func result(_ bytes: [UInt8]) -> String {
        var out = CanonicalJSON()
        do {
            let document = try PropertyListReader.parse(bytes)
            out.raw("{\"ok\":true,\"value\":")
            write(document.root.value, &out)
            out.raw("}")
        } catch {
            out.raw("{\"ok\":false,\"error\":")
            out.string("\(error.code.rawValue): \(error)")
            out.raw("}")
        }
        return out.text
    }

    static func write(_ value: PlistValue, _ out: inout CanonicalJSON) {
        switch value {
        case .string(let s): out.tagged("s") { $0.string(s) }
        case .integer(let i): out.tagged("i") { $0.string(i.description) }
        case .real(let r): out.real(r)
        case .bool(let b): out.tagged("b") { $0.raw(b ? "true" : "false") }
        case .date(let d): out.tagged("d") { $0.raw("\(d.secondsSince1970)") }
        case .data(let d): out.data(d)
        case .array(let items):
            out.tagged("a") { o in
                o.raw("[")
                for (n, item) in items.enumerated() {
                    if n > 0 { o.raw(",") }
                    write(item.value, &o)
                }
                o.raw("]")
            }
        case .dict(let dict):
            out.tagged("D") { o in
                o.raw("[")
                for (n, entry) in dict.entries.enumerated() {
                    if n > 0 { o.raw(",") }
                    o.raw("[")
                    o.string(entry.key)
                    o.raw(",")
                    write(entry.value.value, &o)
                    o.raw("]")
                }
                o.raw("]")
            }
        }
    }
}
