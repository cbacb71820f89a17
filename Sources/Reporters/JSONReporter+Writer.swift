/// The JSON report's text, written straight from `JSONReporter.Document`: the same bytes as
/// `JSONEncoder` with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (a test compares
/// the two on every field and on every kind of character), without building the encoder's tree
/// of boxed values first, which cost several times the linting itself on thousands of findings.
///
/// The shape follows the encoder: two spaces a level, `"key" : value`, keys in byte order, an
/// empty array or object as the bracket, a blank line, and the closing bracket; absent optionals
/// are left out.
extension JSONReporter {
    static func text(_ doc: Document) -> String {
        var w = PrettyJSON()
        w.bytes.reserveCapacity(256 + doc.findings.count * 512)
        w.open(UInt8(ascii: "{"))
        w.key("findings")
        w.open(UInt8(ascii: "["))
        for item in doc.findings {
            w.element()
            write(item, to: &w)
        }
        w.close(UInt8(ascii: "]"))
        w.key("notices")
        w.open(UInt8(ascii: "["))
        for notice in doc.notices {
            w.element()
            w.open(UInt8(ascii: "{"))
            w.key("column"); w.int(notice.column)
            w.key("line"); w.int(notice.line)
            w.key("message"); w.string(notice.message)
            w.key("path"); w.string(notice.path)
            w.close(UInt8(ascii: "}"))
        }
        w.close(UInt8(ascii: "]"))
        w.key("summary")
        w.open(UInt8(ascii: "{"))
        w.key("errors"); w.int(doc.summary.errors)
        w.key("files"); w.int(doc.summary.files)
        w.key("notes"); w.int(doc.summary.notes)
        w.key("warnings"); w.int(doc.summary.warnings)
        w.close(UInt8(ascii: "}"))
        w.key("tool")
        w.open(UInt8(ascii: "{"))
        w.key("name"); w.string(doc.tool.name)
        w.key("version"); w.string(doc.tool.version)
        w.close(UInt8(ascii: "}"))
        w.key("version"); w.int(doc.version)
        w.close(UInt8(ascii: "}"))
        w.bytes.append(UInt8(ascii: "\n"))
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private static func write(_ item: Document.Item, to w: inout PrettyJSON) {
        w.open(UInt8(ascii: "{"))
        if let column = item.column { w.key("column"); w.int(column) }
        if let fix = item.fix {
            w.key("fix")
            w.open(UInt8(ascii: "{"))
            w.key("applicability"); w.string(fix.applicability)
            w.key("edits")
            w.open(UInt8(ascii: "["))
            for edit in fix.edits {
                w.element()
                w.open(UInt8(ascii: "{"))
                w.key("end"); w.int(edit.end)
                w.key("path"); w.string(edit.path)
                w.key("replacement"); w.string(edit.replacement)
                w.key("start"); w.int(edit.start)
                w.close(UInt8(ascii: "}"))
            }
            w.close(UInt8(ascii: "]"))
            w.key("title"); w.string(fix.title)
            w.close(UInt8(ascii: "}"))
        }
        if let help = item.help { w.key("help"); w.string(help) }
        if let line = item.line { w.key("line"); w.int(line) }
        w.key("message"); w.string(item.message)
        w.key("notes"); w.strings(item.notes)
        w.key("path"); w.string(item.path)
        w.key("rule"); w.string(item.rule)
        w.key("severity"); w.string(item.severity)
        if let unit = item.unit { w.key("unit"); w.string(unit) }
        w.key("units"); w.strings(item.units)
        w.close(UInt8(ascii: "}"))
    }
}

/// Pretty-printed JSON as bytes, one value after another; the caller gives keys in order.
/// Depth is the caller's nesting (a fixed shape here), so no input decides how deep it goes.
struct PrettyJSON {
    var bytes: [UInt8] = []
    /// Per open bracket: whether nothing has been written inside it yet.
    private var empty: [Bool] = []

    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        empty.append(true)
    }

    mutating func close(_ bracket: UInt8) {
        let wasEmpty = empty.removeLast()
        bytes.append(UInt8(ascii: "\n"))
        if wasEmpty { bytes.append(UInt8(ascii: "\n")) }
        indent()
        bytes.append(bracket)
    }

    /// Before each member or element: the separator and the indentation.
    mutating func element() {
        if empty[empty.count - 1] {
            empty[empty.count - 1] = false
            bytes.append(UInt8(ascii: "\n"))
        } else {
            bytes.append(UInt8(ascii: ","))
            bytes.append(UInt8(ascii: "\n"))
        }
        indent()
    }

    /// A key (a fixed ASCII name, nothing to escape) and the ` : ` after it.
    mutating func key(_ name: StaticString) {
        element()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func strings(_ values: [String]) {
        open(UInt8(ascii: "["))
        for value in values {
            element()
            string(value)
        }
        close(UInt8(ascii: "]"))
    }

    /// A string with `"`, `\` and the control characters escaped as `JSONEncoder` escapes them
    /// (`\b \t \n \f \r`, others `\u00xx`); `/` and everything from U+007F on as they are.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for i in utf8.indices {
                let c = utf8[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                start = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(c)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func indent() {
        for _ in 0..<empty.count {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }
}
