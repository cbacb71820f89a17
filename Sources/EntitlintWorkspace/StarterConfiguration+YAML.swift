import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import YAMLReader

/// How the starter file writes values and comments so that YAML reads back exactly what was meant.
extension StarterConfiguration {
    /// Whether YAML (1.1, as libyaml reads it) cannot carry `u` as it is: characters outside its
    /// printable set (C0 and C1 controls, DEL, U+FEFF, U+FFFE, U+FFFF) and the characters it reads
    /// as line breaks (LF, CR, NEL, U+2028, U+2029).
    static func yamlNeedsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// `s` for a YAML comment: it stays on its line and says nothing to a YAML reader, whatever
    /// it holds (everything `OutputText.escape` escapes, and what YAML cannot carry, is escaped).
    static func comment(_ s: String) -> String {
        var out = ""
        for u in OutputText.escape(s).unicodeScalars {
            if yamlNeedsEscape(u) { out += "\\u{" + String(u.value, radix: 16) + "}" } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// `s` as a YAML scalar that reads back as the same string: plain when YAML would read it as
    /// a string, else double-quoted, with every character YAML cannot carry as it is (including
    /// every line break, which a double-quoted scalar would fold) written as an escape.
    static func quoted(_ s: String) -> String {
        if !s.isEmpty, s.utf8.allSatisfy({ c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x2F || c == 0x5F || c == 0x2D
        }), s.first != "-", s.first != ".",
           let node = try? YAMLNode.compose(yaml: "k: " + s), node.mapping?["k"]?.tag == .str {
            return s
        }
        var q = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": q += "\\\""
            case "\\": q += "\\\\"
            case "\n": q += "\\n"
            case "\t": q += "\\t"
            default:
                if yamlNeedsEscape(u) {
                    // Every character escaped here is at most U+FFFF: `\uXXXX`, four upper-case hex digits.
                    let hex = String(u.value, radix: 16, uppercase: true)
                    q += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    q.unicodeScalars.append(u)
                }
            }
        }
        return q + "\""
    }
}
