public import EntitlintCore

/// A cheap upper bound of how deeply YAML text nests, checked before Yams reads it: Yams builds
/// its node tree recursively, so `[[[[...` (a few hundred KB of it) in `.entitlint.yml`
/// overflowed the stack and crashed the linter (found by fuzzing); so did it in an XcodeGen
/// `project.yml`.
///
/// The bound is the number of open block levels (an indentation stack, plus compact `- ` and `? `
/// indicators) plus the open flow collections (`[`, `{`). Quoted scalars (started where a scalar
/// starts) and comments are skipped; everything else counts, so the bound can only be too high,
/// never too low.
public enum YAMLNestingLimit {
    /// The first line (1-based) where the bound goes past `limit`, or nil.
    public static func firstLineDeeperThan(_ limit: Int, in text: String) -> Int? {
        var indents: [Int] = []
        var flow = 0
        var quote: UInt8? = nil          // `"` or `'` while inside a quoted scalar
        var line = 1
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var start = 0
        while start < bytes.count {
            var end = start
            while bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var i = start
            var block = indents.count
            if quote == nil && flow == 0 {
                while i < end, bytes[i] == UInt8(ascii: " ") { i += 1 }
                let isBlank = i == end || bytes[i] == UInt8(ascii: "#") || bytes[i] == UInt8(ascii: "\r")
                if !isBlank {
                    let indent = i - start
                    while let last = indents.last, last >= indent { indents.removeLast() }
                    indents.append(indent)
                    block = indents.count
                    // Compact nesting on one line: `- - - x`, `? - x`.
                    while i + 1 < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "?"),
                          bytes[i + 1] == UInt8(ascii: " ") {
                        block += 1
                        i += 2
                        while i < end, bytes[i] == UInt8(ascii: " ") { i += 1 }
                    }
                }
            }
            var atScalarStart = true
            while i < end {
                let c = bytes[i]
                if let q = quote {
                    if q == UInt8(ascii: "\""), c == UInt8(ascii: "\\") { i += 2; continue }
                    if c == q {
                        if q == UInt8(ascii: "'"), i + 1 < end, bytes[i + 1] == q { i += 2; continue }
                        quote = nil
                        atScalarStart = false
                    }
                    i += 1
                    continue
                }
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if atScalarStart { quote = c }
                case UInt8(ascii: "#") where i == start || bytes[i - 1] == UInt8(ascii: " ") || bytes[i - 1] == UInt8(ascii: "\t"):
                    i = end
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    flow += 1
                    if block + flow > limit { return line }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    flow = max(0, flow - 1)
                default:
                    break
                }
                // A quote opens a quoted scalar only where a scalar starts: at the start of the
                // line, after `[`, `{`, `,`, or after `: `, `- `, `? `.
                switch c {
                case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","):
                    atScalarStart = true
                case UInt8(ascii: " "), UInt8(ascii: "\t"):
                    if !atScalarStart, i > start, [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "?")].contains(bytes[i - 1]) {
                        atScalarStart = true
                    }
                default:
                    atScalarStart = false
                }
                i += 1
            }
            if block + flow > limit { return line }
            line += 1
            start = end + 1
        }
        return nil
    }
}
