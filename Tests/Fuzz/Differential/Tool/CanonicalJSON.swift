/// The canonical form both readers' results are printed in, one JSON value per plist value:
///
///     ["s", "text"]          string          ["i", "-42"]    integer (decimal text, any size)
///     ["r", "1.5"]           real ("nan", "inf", "-inf" too)
///     ["b", true]            bool            ["d", 0.0]      date, seconds since 1970 (UTC)
///     ["x", "00ff"]          data (hex)      ["u", 3]        UID (binary plists only)
///     ["a", [ ... ]]         array
///     ["D", [["k", v], ...]] dict, entries in file order, duplicates kept when the reader keeps
///                            them (the comparison applies "last wins", as CoreFoundation does)
///
/// differential.py builds the same form from plistlib's result.
struct CanonicalJSON {
    private(set) var text = ""

    mutating func raw(_ s: String) { text += s }

    mutating func string(_ s: String) {
        text += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(u)
                }
            }
        }
        text += "\""
    }

    mutating func tagged(_ tag: String, _ body: (inout CanonicalJSON) -> Void) {
        text += "[\"\(tag)\","
        body(&self)
        text += "]"
    }

    mutating func real(_ r: Double) {
        if r.isNaN { tagged("r") { $0.string("nan") } }
        else if r.isInfinite { tagged("r") { $0.string(r < 0 ? "-inf" : "inf") } }
        else { tagged("r") { $0.string("\(r)") } }
    }

    mutating func data<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes.count * 2)
        for b in bytes { hex.append(digits[Int(b >> 4)]); hex.append(digits[Int(b & 15)]) }
        tagged("x") { $0.string(String(decoding: hex, as: UTF8.self)) }
    }
}
