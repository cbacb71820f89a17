/// How the GitHub Actions runner finds workflow commands in what a step prints, written again for
/// the tests from its behaviour (actions/runner: `src/Runner.Common/ActionCommand.cs`, `TryParseV2`
/// then `TryParse`, as `src/Runner.Worker/ActionCommandManager.cs` calls them on every line of
/// standard output and standard error):
///
/// - lines end at LF, CR or CRLF;
/// - `::name properties::data`: the line, its leading white space trimmed (.NET `TrimStart()`,
///   `Char.IsWhiteSpace`), starts with `::`; the command information runs to the next `::`; the
///   name to its first space; properties are `key=value` separated by `,`; `%0D`, `%0A`, `%3A`,
///   `%2C`, `%25` are unescaped in property values, `%0D`, `%0A`, `%25` in the data;
/// - else `##[name properties]data`: `##[` anywhere in the line, the information up to the next
///   `]`, properties separated by `;`.
///
/// Broader than the runner on purpose: a command of any name counts (the runner acts only on the
/// names registered with it, and on the token a `stop-commands` names), so a test that finds
/// nothing here has found nothing the runner would act on.
public enum RunnerCommandParser {
    public struct Command: Equatable, CustomStringConvertible, Sendable {
        public var name: String
        public var properties: [String: String]
        public var data: String
        /// `::` or `##[`.
        public var form: String
        /// The whole line, as printed.
        public var line: String
        public var description: String { "\(form) \(name) \(properties) \(data.prefix(60)) <- \(line.prefix(160))" }
    }

    /// .NET's `Char.IsWhiteSpace`, what `String.TrimStart()` removes: U+0009...U+000D, space,
    /// U+0085, U+00A0 and the separators (Zs, Zl, Zp): U+1680, U+2000...U+200A, U+2028,
    /// U+2029, U+202F, U+205F, U+3000.
    public static func isWhiteSpace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// The lines of `text`, split at LF, CR and CRLF (.NET `StreamReader.ReadLine`).
    public static func lines(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        var previousCR = false
        for u in text.unicodeScalars {
            if u == "\n" && previousCR { previousCR = false; continue }
            previousCR = u == "\r"
            if u == "\n" || u == "\r" {
                out.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(u)
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    /// Every command the runner would read in `text`.
    public static func commands(in text: String) -> [Command] {
        lines(text).compactMap(parse(line:))
    }

    /// The command on one line, if the runner would read one.
    public static func parse(line: String) -> Command? {
        parseV2(line) ?? parseLegacy(line)
    }

    static func parseV2(_ line: String) -> Command? {
        let trimmed = Array(line.unicodeScalars.drop(while: isWhiteSpace))
        let key: [Unicode.Scalar] = [":", ":"]
        guard trimmed.count >= 2, Array(trimmed[0..<2]) == key, let end = index(of: key, in: trimmed, from: 2) else { return nil }
        let info = Array(trimmed[2..<end])
        let space = info.firstIndex(of: " ")
        let name = String(String.UnicodeScalarView(info[..<(space ?? info.endIndex)]))
        var properties: [String: String] = [:]
        if let space {
            let rest = String(String.UnicodeScalarView(info[(space + 1)...])).trimmingSpaces()
            for pair in split(rest, at: ",") {
                let kv = split(pair, at: "=", maxSplits: 1)
                if kv.count == 2 { properties[kv[0]] = unescape(kv[1], ["%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ",", "%25": "%"]) }
            }
        }
        let data = unescape(String(String.UnicodeScalarView(trimmed[(end + 2)...])), ["%0D": "\r", "%0A": "\n", "%25": "%"])
        return Command(name: name, properties: properties, data: data, form: "::", line: line)
    }

    static func parseLegacy(_ line: String) -> Command? {
        let s = Array(line.unicodeScalars)
        guard let start = index(of: ["#", "#", "["], in: s, from: 0),
              let close = s[(start + 3)...].firstIndex(of: "]") else { return nil }
        let info = Array(s[(start + 3)..<close])
        let space = info.firstIndex(of: " ")
        let name = String(String.UnicodeScalarView(info[..<(space ?? info.endIndex)]))
        var properties: [String: String] = [:]
        if let space {
            for pair in split(String(String.UnicodeScalarView(info[(space + 1)...])), at: ";") {
                let kv = split(pair, at: "=", maxSplits: 1)
                if kv.count == 2 { properties[kv[0]] = unescape(kv[1], ["%3B": ";", "%0D": "\r", "%0A": "\n", "%5D": "]", "%25": "%"]) }
            }
        }
        let data = unescape(String(String.UnicodeScalarView(s[(close + 1)...])), ["%3B": ";", "%0D": "\r", "%0A": "\n", "%5D": "]", "%25": "%"])
        return Command(name: name, properties: properties, data: data, form: "##[", line: line)
    }

    /// .NET `Split(char, count, RemoveEmptyEntries)`: by scalar (a `Character` split would miss
    /// a separator joined to a combining mark), empty parts dropped, at most `maxSplits` splits.
    static func split(_ s: String, at separator: Unicode.Scalar, maxSplits: Int = .max) -> [String] {
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var splits = 0
        for u in s.unicodeScalars {
            if u == separator && splits < maxSplits {
                if !current.isEmpty { parts.append(String(current)); splits += 1 }
                current = String.UnicodeScalarView()
            } else {
                current.append(u)
            }
        }
        if !current.isEmpty { parts.append(String(current)) }
        return parts
    }

    static func index(of needle: [Unicode.Scalar], in hay: [Unicode.Scalar], from: Int) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= hay.count {
            if Array(hay[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    /// The runner's unescaping: each mapping replaced in turn, in the order given.
    static func unescape(_ s: String, _ mappings: KeyValuePairs<String, String>) -> String {
        var out = s
        for (escaped, token) in mappings { out = out.replacingAll(escaped, with: token) }
        return out
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(String.UnicodeScalarView(unicodeScalars.drop(while: RunnerCommandParser.isWhiteSpace).reversed().drop(while: RunnerCommandParser.isWhiteSpace).reversed()))
    }

    /// Every occurrence of `target` replaced, scalar by scalar (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let hay = Array(unicodeScalars), needle = Array(target.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < hay.count {
            if i + needle.count <= hay.count && Array(hay[i..<(i + needle.count)]) == needle {
                out.append(contentsOf: replacement.unicodeScalars)
                i += needle.count
            } else {
                out.append(hay[i])
                i += 1
            }
        }
        return String(out)
    }
}
