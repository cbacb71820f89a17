/// The rules cite the project's explanation of Apple's system, `Rules/keychain-access-groups.md`,
/// as "keychain-access-groups.md section N" (or "sections N and M"). Rule texts keep that plain
/// form, which reads the same in a terminal, in SARIF's plain-text help and in source comments;
/// pages rendered as Markdown turn each cited section number into a link to its heading.
public enum GuideCitations {
    /// The page's file name, as rule texts cite it.
    public static let page = "keychain-access-groups.md"

    /// Each section number the page has and the GitHub anchor of its heading. A test checks
    /// this against the page's headings, so a renamed heading cannot leave dead links.
    public static let anchors: [String: String] = [
        "1": "1-the-access-group-list",
        "2": "2-app-id-prefixes-and-build-variables",
        "2.1": "21-build-settings-as-xcode-evaluates-them",
        "3": "3-provisioning-profiles",
        "3.1": "31-how-a-profile-allows-entitlements",
        "4": "4-the-default-group-and-its-drift",
        "5": "5-property-lists-as-apple-reads-them",
        "6": "6-what-real-files-look-like",
        "7": "7-entitlements-inside-built-apps",
        "8": "8-keychain-groups-in-code",
    ]

    /// The section numbers a text cites, in order (with repeats), for checking that each exists.
    public static func citedSections(in text: String) -> [String] {
        citations(in: text).flatMap(\.sections)
    }

    /// `text` with every citation's section numbers linked to `pageURL#anchor`: the page name
    /// itself stays plain, so the sentence reads as before. An unknown section number stays
    /// unlinked (a test reports it).
    public static func linked(_ text: String, pageURL: String) -> String {
        var out = ""
        var rest = Substring(text)
        for c in citations(in: text) {
            out += rest[rest.startIndex..<c.range.lowerBound]
            out += c.render { number in
                guard let anchor = anchors[number] else { return number }
                return "[\(number)](\(pageURL)#\(anchor))"
            }
            rest = text[c.range.upperBound...]
        }
        return out + rest
    }

    struct Citation {
        var range: Range<String.Index>
        /// "section" or "sections", and the numbers with the words between them (", ", " and ").
        var word: String
        var sections: [String]
        var separators: [String]

        func render(_ number: (String) -> String) -> String {
            var s = "\(GuideCitations.page) \(word) "
            for (i, n) in sections.enumerated() {
                if i > 0 { s += separators[i - 1] }
                s += number(n)
            }
            return s
        }
    }

    /// Finds "PAGE section N" and "PAGE sections N, M and K" where N is digits with at most
    /// one ".digits" part; a linear scan over the text, each character looked at a bounded
    /// number of times.
    static func citations(in text: String) -> [Citation] {
        var found: [Citation] = []
        var searchStart = text.startIndex
        while let pageRange = text.range(of: page + " section", range: searchStart..<text.endIndex) {
            var i = pageRange.upperBound
            var word = "section"
            if i < text.endIndex, text[i] == "s" { word = "sections"; i = text.index(after: i) }
            guard i < text.endIndex, text[i] == " " else { searchStart = i; continue }
            i = text.index(after: i)
            var sections: [String] = []
            var separators: [String] = []
            var end = i
            while let (number, afterNumber) = sectionNumber(in: text, from: i) {
                sections.append(number)
                end = afterNumber
                guard word == "sections", let (separator, afterSeparator) = listSeparator(in: text, from: afterNumber),
                      sectionNumber(in: text, from: afterSeparator) != nil else { break }
                separators.append(separator)
                i = afterSeparator
            }
            if !sections.isEmpty {
                found.append(Citation(range: pageRange.lowerBound..<end, word: word, sections: sections, separators: separators))
            }
            searchStart = max(end, pageRange.upperBound)
        }
        return found
    }

    private static func sectionNumber(in text: String, from start: String.Index) -> (String, String.Index)? {
        var i = start
        var number = ""
        var sawDot = false
        while i < text.endIndex, let c = text[i].asciiValue {
            if c >= 48 && c <= 57 {
                number.append(text[i])
            } else if c == 46, !sawDot, !number.isEmpty, text.index(after: i) < text.endIndex,
                      text[text.index(after: i)].isASCII, text[text.index(after: i)].isNumber {
                sawDot = true
                number.append(".")
            } else {
                break
            }
            i = text.index(after: i)
        }
        return number.isEmpty ? nil : (number, i)
    }

    private static func listSeparator(in text: String, from start: String.Index) -> (String, String.Index)? {
        for separator in [" and ", ", "] where text[start...].hasPrefix(separator) {
            return (separator, text.index(start, offsetBy: separator.count))
        }
        return nil
    }
}
