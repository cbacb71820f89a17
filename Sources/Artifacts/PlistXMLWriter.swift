public import PropertyList

/// Writes a value tree as an XML property list, in Apple's layout (tab indentation, the
/// standard DOCTYPE): what `inspect --format plist` prints for entitlements decoded from DER or
/// gathered from several binaries, or a plist whose own bytes would carry a CI workflow command.
/// Dict entries keep their order. Keys and strings are escaped scalar by scalar (`escape`), so a
/// value can never close its element or open another: the document reads back (libxml2,
/// plistlib, Foundation) as exactly the values written, with no element added.
public enum PlistXMLWriter {
    public static func document(_ root: PlistNode) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        write(root, indent: 0, into: &out)
        out += "</plist>\n"
        return out
    }

    static func write(_ node: PlistNode, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch node.value {
        case .string(let s): out += pad + "<string>" + escape(s) + "</string>\n"
        case .integer(let i): out += pad + "<integer>\(i.description)</integer>\n"
        case .real(let r): out += pad + "<real>\(r)</real>\n"
        case .bool(let b): out += pad + (b ? "<true/>" : "<false/>") + "\n"
        case .date(let d): out += pad + "<date>\(d.description)</date>\n"
        case .data(let d): out += pad + "<data>" + base64(d) + "</data>\n"
        case .array(let items):
            if items.isEmpty { out += pad + "<array/>\n"; return }
            out += pad + "<array>\n"
            for item in items { write(item, indent: indent + 1, into: &out) }
            out += pad + "</array>\n"
        case .dict(let d):
            if d.isEmpty { out += pad + "<dict/>\n"; return }
            out += pad + "<dict>\n"
            for key in d.keys {
                out += pad + "\t<key>" + escape(key) + "</key>\n"
                write(d[key]!, indent: indent + 1, into: &out)
            }
            out += pad + "</dict>\n"
        }
    }

    /// XML 1.0 section 2.4: `&` and `<` escaped, `>` too (so `]]>` never appears); a CR as
    /// `&#13;`, which section 2.11 would otherwise read back as a line feed. A line feed stays
    /// raw, as Apple writes it (the output boundary guards a line that would start a workflow
    /// command). A scalar XML cannot hold (a C0 control a binary plist may carry) becomes U+FFFD.
    static func escape(_ s: String) -> String { XMLEscaping.escape(s, escapes) }
    static let escapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"]

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out += rest == 2 ? String(alphabet[Int(n >> 6 & 63)]) + "=" : "=="
        }
        return out
    }
}
