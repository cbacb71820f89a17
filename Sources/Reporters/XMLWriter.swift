import PropertyList

/// A small XML tree and its serialisation, for the JUnit and checkstyle reports. Attributes keep
/// the order given, so output is byte-stable.
struct XMLNode: Sendable {
    var name: String
    var attributes: [(key: String, value: String)]
    var children: [XMLNode]
    /// Character content (written after the children; the reports never mix the two).
    var text: String?

    init(_ name: String, _ attributes: [(key: String, value: String)] = [], children: [XMLNode] = [], text: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }
}

enum XMLWriter {
    /// The document: declaration, then `root` indented by two spaces per level, ending in a newline.
    static func document(_ root: XMLNode) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(root, depth: 0, into: &out)
        return out
    }

    static func write(_ node: XMLNode, depth: Int, into out: inout String) {
        let indent = String(repeating: "  ", count: depth)
        out += indent + "<" + node.name
        for a in node.attributes {
            out += " " + a.key + "=\"" + escapeAttribute(a.value) + "\""
        }
        if node.children.isEmpty && node.text == nil {
            out += "/>\n"
            return
        }
        out += ">"
        if !node.children.isEmpty {
            out += "\n"
            for c in node.children { write(c, depth: depth + 1, into: &out) }
            out += indent
        }
        if let text = node.text { out += escapeText(text) }
        out += "</" + node.name + ">\n"
    }

    /// Section 2.4: `<` and `&` must be escaped in content; `>` too, so `]]>` never appears. A
    /// line feed is written `&#10;` (the same character to an XML reader), so a value never starts
    /// a line of the document: printed to a CI log, it cannot forge a `::` workflow command. A raw
    /// CR is written `&#13;`: section 2.11 would read it back as a newline.
    static func escapeText(_ s: String) -> String { escape(s, textEscapes) }
    static let textEscapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;", "\n": "&#10;"]

    /// Section 3.3.3 normalises whitespace in attribute values (a raw newline or tab would be read
    /// back as a space), so those are written as character references; quotes are escaped too.
    static func escapeAttribute(_ s: String) -> String { escape(s, attributeEscapes) }
    static let attributeEscapes: [Unicode.Scalar: String] = textEscapes.merging(["\"": "&quot;", "'": "&apos;", "\t": "&#9;"]) { a, _ in a }

    /// Scalar by scalar; a character XML cannot hold (`isXMLChar`) becomes U+FFFD.
    static func escape(_ s: String, _ table: [Unicode.Scalar: String]) -> String { XMLEscaping.escape(s, table) }

    static func isXMLChar(_ u: Unicode.Scalar) -> Bool { XMLEscaping.isXMLChar(u) }
}
