import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
import EntitlintCore
import PropertyList
import TestSupport
@testable import Reporters

/// Every escaper of every writer, run on each special character `X` of its format as a grapheme
/// cluster would hide it: `X` alone, `X` + U+0301 (a combining acute accent), U+0600 + `X` (a
/// prepended concatenation mark), `X` + U+200D (a zero-width joiner), each also between letters,
/// and random mixes. Each result is read back by a reader of the format (Python's `html.parser`,
/// Graphviz, an XML parser, the SARIF and CommonMark escape rules, the runner's unescaping) and
/// must give exactly the input, with nothing opened, closed or linked by it.
final class ScalarEscapingTests: XCTestCase {
    /// The forms of each special character of `specials`.
    static func cases(_ specials: String, seed: UInt64 = 0xE5CA9E) -> [String] {
        var out: [String] = []
        for u in specials.unicodeScalars {
            let x = String(u)
            for form in [x, x + "\u{301}", "\u{600}" + x, x + "\u{200D}"] { out += [form, "a" + form + "b"] }
        }
        // Random mixes of the specials, marks and letters (seeded: the same on every run).
        var rng = SplitMix64(seed: seed)
        let pieces = specials.unicodeScalars.map(String.init) + ["\u{301}", "\u{600}", "\u{200D}", "\u{FE0F}", "a", "é", " "]
        for _ in 0..<150 {
            out.append((0..<Int.random(in: 1...10, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        return out
    }

    /// `s` with each scalar rewritten by `f` (the tests' own expectation, written independently of
    /// the escapers; Foundation's `replacingOccurrences` compares by `Character` and would miss
    /// the very clusters under test).
    static func mapScalars(_ s: String, _ f: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for u in s.unicodeScalars { if let r = f(u) { out += r } else { out.unicodeScalars.append(u) } }
        return out
    }

    /// Whether `needle` occurs in `hay`, scalar by scalar.
    static func containsScalars(_ hay: String, _ needle: String) -> Bool {
        let h = Array(hay.unicodeScalars), n = Array(needle.unicodeScalars)
        guard n.count <= h.count else { return false }
        return (0...(h.count - n.count)).contains { Array(h[$0..<($0 + n.count)]) == n }
    }

    /// Line breaks as spaces.
    static func spaced(_ s: String) -> String { mapScalars(s) { $0 == "\n" || $0 == "\r" ? " " : nil } }

    /// The hazard is real: each form is one `Character` that is not the special character, so a
    /// table keyed by `Character` would not find it.
    func testTheFormsHideTheirSpecialCharacterInOneGraphemeCluster() {
        for x in ["\"", "<", "`", "[", "|", "&"] {
            for form in [x + "\u{301}", "\u{600}" + x, x + "\u{200D}"] {
                XCTAssertEqual(form.count, 1, form.debugDescription)
                XCTAssertNotEqual(form.first, Character(x), form.debugDescription)
            }
        }
    }

    // MARK: HTML

    func testQuoteOrBracketJoinedToAMarkNeverLeavesItsAttributeOrOpensATagInHTML() throws {
        let inputs = Self.cases("&<>\"'")
        for s in inputs {
            let e = AccessReportHTML.escape(s)
            XCTAssertFalse(e.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }, "\(s.debugDescription) -> \(e)")
        }
        let html = inputs.map { "<p title=\"\(AccessReportHTML.escape($0))\">\(AccessReportHTML.escape($0))</p>" }.joined()
        let events = try ExternalTool.htmlEvents(html)
        var expected: [[String]] = []
        for s in inputs {
            expected.append(["start", "p", "title", s])
            expected.append(["data", s])
            expected.append(["end", "p"])
        }
        let got = events.map { e -> [String] in
            if e.first as? String == "start", let attrs = e[2] as? [[String]] { return ["start", e[1] as? String ?? ""] + attrs.flatMap { $0 } }
            return e.compactMap { $0 as? String }
        }
        XCTAssertEqual(got.count, expected.count, "one element per input, nothing more")
        for (g, x) in zip(got, expected) where g != x { XCTFail("\(x.map(\.debugDescription)) read back as \(g.map(\.debugDescription))") }
    }

    /// The whole HTML report, with hostile values everywhere, has the same tags and attributes
    /// as the report of plain values.
    func testHTMLReportOfHostileValuesHasTheTagsOfAPlainOne() throws {
        func shape(_ report: AccessReport) throws -> [String] {
            try ExternalTool.htmlEvents(AccessReportFormat.html.render(report)).compactMap { e in
                switch e.first as? String {
                case "start": return "<\(e[1]) " + ((e[2] as? [[Any]]) ?? []).map { "\($0[0])" }.joined(separator: " ")
                case "end": return "</\(e[1])"
                case "other": return "other \(e[1])"
                default: return nil
                }
            }
        }
        let hostile = try HostileUnits.report(HostileUnits.hostileValues)
        let plain = try HostileUnits.report(HostileUnits.plainValues)
        XCTAssertEqual(try shape(hostile), try shape(plain))
        let text = try ExternalTool.htmlEvents(AccessReportFormat.html.render(hostile)).filter { $0.first as? String == "data" }.map { "\($0[1])" }.joined()
        XCTAssertTrue(text.contains("<img src=x onerror=alert(1)>"), "the value is shown as text")
    }

    // MARK: Markdown

    /// Reads Markdown inline text as CommonMark does with backslash escapes (section 2.4): a
    /// backslash before ASCII punctuation is that character, literally. Nil when a character of
    /// `active` is left unescaped (it would act: open a link, an image, a span, a tag).
    static let asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

    static func readEscapedMarkdown(_ s: String, active: String) -> String? {
        var out = String.UnicodeScalarView()
        var it = s.unicodeScalars.makeIterator()
        while let u = it.next() {
            if u == "\\" {
                guard let next = it.next(), asciiPunctuation.unicodeScalars.contains(next) else { return nil }
                out.append(next)
            } else if active.unicodeScalars.contains(u) {
                return nil
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    func testBracketOrBacktickJoinedToAMarkNeverMakesALinkImageOrTagInMarkdown() {
        let specials = "\\`*_[]<>~&|$"
        for s in Self.cases(specials + "()!#\n\r") {
            let e = AccessReportMarkdown.escape(s)
            let expected = Self.spaced(s)
            XCTAssertEqual(Self.readEscapedMarkdown(e, active: specials), expected, "\(s.debugDescription) -> \(e)")
            XCTAssertFalse(e.unicodeScalars.contains("\n") || e.unicodeScalars.contains("\r"))
            let summary = GitHubReporter.markdownEscape(s)
            XCTAssertEqual(Self.readEscapedMarkdown(summary, active: specials), expected, "step summary: \(s.debugDescription) -> \(summary)")
        }
    }

    func testBacktickJoinedToAMarkNeverClosesAMarkdownCodeSpan() {
        for s in Self.cases("`|\n\r") + ["``", "a```b", "` [x](http://e) `"] {
            let e = Array(AccessReportMarkdown.code(s).unicodeScalars)
            XCTAssertTrue(e.count >= 2 && e.first == "`" && e.last == "`", "\(e)")
            let inner = e.dropFirst().dropLast()
            XCTAssertFalse(inner.contains("`"), "no backtick of the input is left to close the span: \(s.debugDescription) -> \(e)")
            // GFM tables read `\|` in a cell as `|`, before the span is parsed.
            var read = String.UnicodeScalarView()
            var i = inner.startIndex
            while i < inner.endIndex {
                if inner[i] == "\\", inner.index(after: i) < inner.endIndex, inner[inner.index(after: i)] == "|" { read.append("|"); i += 2; continue }
                read.append(inner[i])
                i += 1
            }
            XCTAssertEqual(String(read), Self.mapScalars(s) { $0 == "`" ? "'" : $0 == "\n" || $0 == "\r" ? " " : nil })
        }
    }

    /// The Markdown report, with hostile values everywhere, holds no link, image or tag of them.
    func testMarkdownReportOfHostileValuesHasNoLiveLinkImageOrTag() throws {
        let md = AccessReportFormat.markdown.render(try HostileUnits.report(HostileUnits.hostileValues))
        // What acts: the text outside code spans (whose text is literal), a backslash-escaped
        // character there replaced by U+FFFC (it is literal too).
        var outside = String.UnicodeScalarView()
        var inCode = false
        var escaped = false
        for u in md.unicodeScalars {
            if escaped {
                outside.append("\u{FFFC}")
                escaped = false
            } else if u == "`" {
                inCode.toggle()
            } else if inCode {
                continue
            } else if u == "\\" {
                escaped = true
            } else {
                outside.append(u)
            }
        }
        XCTAssertFalse(inCode, "every code span is closed")
        let text = String(outside)
        for live in ["](http", "![", "<img", "<script", "[click]"] { XCTAssertFalse(Self.containsScalars(text, live), "\(live) in:\n\(md)") }
        XCTAssertTrue(Self.containsScalars(md, "onerror"), "the values are shown")
        // Each line's backticks that are not escaped pair up: every code span is closed where it was opened.
        for line in md.split(separator: "\n") {
            var count = 0
            var escaped = false
            for u in line.unicodeScalars {
                if u == "`" && !escaped { count += 1 }
                escaped = u == "\\" && !escaped
            }
            XCTAssertEqual(count % 2, 0, String(line))
        }
    }

    // MARK: DOT

    /// A DOT quoted string read as Graphviz's scanner reads it: `\"` is a quote, `\\` is kept
    /// as two backslashes (for the label renderer), the first other `"` ends the string. The
    /// stored text and where the string ended.
    static func readDOTString(_ s: String) -> (stored: String, end: Int)? {
        let u = Array(s.unicodeScalars)
        guard u.first == "\"" else { return nil }
        var out = String.UnicodeScalarView()
        var i = 1
        while i < u.count {
            if u[i] == "\\" && i + 1 < u.count && u[i + 1] == "\"" { out.append("\""); i += 2; continue }
            if u[i] == "\\" && i + 1 < u.count && u[i + 1] == "\\" { out.append(contentsOf: "\\\\".unicodeScalars); i += 2; continue }
            if u[i] == "\"" { return (String(out), i + 1) }
            out.append(u[i])
            i += 1
        }
        return nil
    }

    /// What Graphviz stores for a value Entitlint quoted: the backslash doubled for the label
    /// renderer, line breaks as its `\n` and `\r`.
    static func dotStored(_ s: String) -> String {
        mapScalars(s) { u in u == "\\" ? "\\\\" : u == "\n" ? "\\n" : u == "\r" ? "\\r" : nil }
    }

    func testQuoteJoinedToAMarkNeverEndsADOTString() throws {
        let inputs = Self.cases("\"\\\n\r")
        for s in inputs {
            let q = AccessReportDot.quote(s)
            let read = try XCTUnwrap(Self.readDOTString(q), q)
            XCTAssertEqual(read.end, q.unicodeScalars.count, "the string ends where Entitlint ends it: \(s.debugDescription) -> \(q)")
            XCTAssertEqual(read.stored, Self.dotStored(s))
        }
        let dot = "digraph g {\n" + inputs.enumerated().map { "  \"n\($0.offset)\" [label=\(AccessReportDot.quote($0.element))];\n" }.joined() + "}\n"
        let graph = try ExternalTool.graphvizNodes(dot)
        XCTAssertEqual(graph.nodes.map(\.name), inputs.indices.map { "n\($0)" }, "one node per value, nothing more")
        XCTAssertEqual(graph.edges, 0)
        for (node, s) in zip(graph.nodes, inputs) where node.label != Self.dotStored(s) {
            XCTFail("\(s.debugDescription) read back by Graphviz as \(node.label.debugDescription)")
        }
    }

    /// The Graphviz report of hostile values has the nodes and edges of the plain one.
    func testDOTReportOfHostileValuesHasTheNodesAndEdgesOfAPlainOne() throws {
        let hostile = try ExternalTool.graphvizNodes(AccessReportFormat.dot.render(try HostileUnits.report(HostileUnits.hostileValues)))
        let plain = try ExternalTool.graphvizNodes(AccessReportFormat.dot.render(try HostileUnits.report(HostileUnits.plainValues)))
        XCTAssertEqual(hostile.nodes.count, plain.nodes.count)
        XCTAssertEqual(hostile.edges, plain.edges)
        XCTAssertTrue(hostile.nodes.contains { $0.label?.contains("onerror") == true })
    }

    // MARK: XML (JUnit, checkstyle)

    func testXMLReportTextAndAttributesReadBackEveryJoinedSpecialCharacter() throws {
        let inputs = Self.cases("&<>\"'\n\r\t")
        let root = XMLNode("r", children: inputs.map { XMLNode("v", [("a", $0)], text: $0) })
        let xml = XMLWriter.document(root)
        final class Collect: NSObject, XMLParserDelegate {
            var values: [(attribute: String?, text: String)] = []
            var elements = 0
            func parser(_ parser: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                elements += 1
                if e == "v" { values.append((attributes["a"], "")) }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if !values.isEmpty { values[values.count - 1].text += string }
            }
            func parser(_ parser: XMLParser, didEndElement e: String, namespaceURI: String?, qualifiedName: String?) {
                if e == "v" { values.append((nil, "")) }   // text after the element is not its own
            }
        }
        let collect = Collect()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collect
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(collect.elements, inputs.count + 1, "one element per value, nothing more")
        let read = collect.values.filter { $0.attribute != nil }
        XCTAssertEqual(read.map(\.attribute), inputs.map { Optional($0) })
        XCTAssertEqual(read.map(\.text), inputs)
    }

    // MARK: SARIF

    /// A plain text message read as SARIF 3.11.6 reads one: `\\`, `\[`, `\]` are the characters;
    /// nil when a `[` or `]` is left unescaped (an embedded link could form) or a backslash
    /// escapes anything else.
    static func readSARIFText(_ s: String) -> String? {
        var out = String.UnicodeScalarView()
        var it = s.unicodeScalars.makeIterator()
        while let u = it.next() {
            switch u {
            case "\\":
                guard let next = it.next(), "\\[]".unicodeScalars.contains(next) else { return nil }
                out.append(next)
            case "[", "]": return nil
            default: out.append(u)
            }
        }
        return String(out)
    }

    func testBracketJoinedToAMarkNeverFormsAnEmbeddedLinkInSARIF() throws {
        let inputs = Self.cases("[]\\()") + ["[here](0)", "see [a](sarif:/runs/0/results/1)", "\\[x\\](1)"]
        for s in inputs {
            XCTAssertEqual(Self.readSARIFText(SARIFReporter.plainText(s)), s, SARIFReporter.plainText(s))
        }
        let findings = inputs.enumerated().map { Finding(rule: "wildcard-access-group", severity: .error, message: $0.element, path: "A.entitlements", line: $0.offset + 1, column: 1) }
        let notices = [Notice(message: "not here: [x](1) \u{600}[", path: "B.xcodeproj")]
        var report = Report(findings: findings, files: 1)
        report.notices = notices
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(SARIFReporter().render(report).utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let texts = try XCTUnwrap(run["results"] as? [[String: Any]]).map { ($0["message"] as? [String: Any])?["text"] as? String ?? "" }
        XCTAssertEqual(texts.map(Self.readSARIFText), inputs.map { Optional($0) })
        let notes = try XCTUnwrap(((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"]) as? [[String: Any]])
        XCTAssertEqual(notes.map { Self.readSARIFText(($0["message"] as? [String: Any])?["text"] as? String ?? "") }, notices.map { Optional($0.message) })
    }

    // MARK: GitHub annotations, JSON, text

    func testPercentOrLineBreakJoinedToAMarkStaysEscapedInAnnotations() {
        let inputs = Self.cases("%\r\n:,")
        let findings = inputs.map { Finding(rule: "wildcard-access-group", severity: .warning, message: $0, path: $0 + ".entitlements", line: 3, column: 1) }
        let text = GitHubReporter().render(Report(findings: findings, files: 1, showSummary: false))
        let commands = RunnerCommandParser.commands(in: text)
        XCTAssertEqual(commands.count, inputs.count, "one annotation per finding, on one line each")
        XCTAssertEqual(commands.map(\.data), inputs)
        XCTAssertEqual(commands.map { $0.properties["file"] }, inputs.map { $0 + ".entitlements" })
        XCTAssertTrue(commands.allSatisfy { $0.name == "warning" && $0.properties["line"] == "3" })
    }

    func testJSONFormatsReadBackEveryJoinedSpecialCharacter() throws {
        let inputs = Self.cases("\"\\/\n\r\t\u{1}\u{2028}")
        let findings = inputs.map { Finding(rule: "r", severity: .note, message: $0, path: $0, line: 1, column: 1) }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(JSONReporter().render(Report(findings: findings, files: 1)).utf8)) as? [String: Any])
        let items = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["message"] as? String }, inputs.map { Optional($0) })
        XCTAssertEqual(items.map { $0["path"] as? String }, inputs.map { Optional($0) })
        let issues = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(GitLabReporter().render(Report(findings: findings, files: 1)).utf8)) as? [[String: Any]])
        XCTAssertEqual(issues.map { $0["description"] as? String }, inputs.map { Optional($0 + " [r]") })
    }

    func testControlCharacterJoinedToAMarkIsEscapedInText() {
        for s in Self.cases("\u{1B}\u{7}\n\r\t\u{85}\u{2028}\u{2029}\u{202E}\u{2066}") {
            let e = OutputText.escape(s)
            XCTAssertFalse(e.unicodeScalars.contains(where: OutputText.isEscaped), "\(s.debugDescription) -> \(e.debugDescription)")
            let line = TextReporter().render(Report(findings: [Finding(rule: "r", severity: .error, message: s, path: s, line: 1)], files: 1, showSummary: false))
            XCTAssertEqual(line.unicodeScalars.filter { $0 == "\n" }.count, 1, line.debugDescription)
            XCTAssertTrue(line.hasSuffix("[r]\n"))
        }
    }
}

/// Units whose names, groups, paths and facts hold the values given, for the whole-report tests.
enum HostileUnits {
    static let hostileValues = [
        "<img src=x onerror=alert(1)>", "\"\u{301} onmouseover=alert(1) x=\"", "\u{600}<script>alert(1)</script>",
        "`\u{301} [click](http://evil.example) ![i](http://evil.example/t.png) `", "a|\u{200D}b", "x\" -> \"y\"\u{301}; z [label=\"",
        "\\\"\u{301}", "&amp;\u{301} &#60;",
    ]
    /// The same values with every character that means something to a format written `x`: the
    /// same report (same units, groups, findings), nothing to escape.
    static var plainValues: [String] {
        hostileValues.map { v in String(String.UnicodeScalarView(v.unicodeScalars.map { "<>\"'&`[]()!|\\=;-#".unicodeScalars.contains($0) ? "x" : $0 })) }
    }

    static func report(_ values: [String]) throws -> AccessReport {
        let units = try values.enumerated().map { i, v -> SigningUnit in
            let group = XMLEscaping.escape("ABCDE12345." + v, ["&": "&amp;", "<": "&lt;", ">": "&gt;"])
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>\(group)</string>\n\t</array>\n</dict>\n</plist>\n"
            let document = try PropertyListReader.parse(Array(text.utf8))
            var u = SigningUnit(name: v + " \(i)", entitlementsPath: v + "/\(i).entitlements", document: document,
                                bundleID: Fact("com.example." + v, from: .xcode("PRODUCT_BUNDLE_IDENTIFIER at " + v)),
                                teamID: Fact("ABCDE12345", from: .xcode("DEVELOPMENT_TEAM at " + v)), platform: .iOS)
            u.origin = UnitOrigin(projectFile: v + ".xcodeproj/project.pbxproj", projectName: v, target: v + " \(i)", configuration: v,
                                  kind: .app, sdk: "iphoneos")
            return u
        }
        let findings = values.enumerated().map { i, v in
            Finding(rule: "wildcard-access-group", severity: .error, message: "group \"" + v + "\" is bad", path: v + "/\(i).entitlements", line: 6, column: 3,
                    unit: v + " \(i)", keyPath: "keychain-access-groups[0]")
        }
        return AccessReport(units: units, findings: findings)
    }
}
