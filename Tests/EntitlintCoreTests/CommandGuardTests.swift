import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
import EntitlintCore
import TestSupport

/// `OutputText.guardCommandLines` against the runner's own reading of a log (`RunnerCommandParser`):
/// forged commands after every white space the runner trims, and in the legacy `##[` form
/// anywhere in a line, in each output style.
final class CommandGuardTests: XCTestCase {
    /// Every scalar .NET's `Char.IsWhiteSpace` accepts, other than the line breaks.
    static let runnerWhiteSpace: [Unicode.Scalar] = (0...0x3000).compactMap(Unicode.Scalar.init).filter {
        RunnerCommandParser.isWhiteSpace($0) && $0 != "\n" && $0 != "\r"
    }

    static let styles: [CommandGuardStyle] = [.text, .json, .markup]

    /// Lines that forge commands: after each kind of white space, and `##[` in the middle.
    static var forgeries: [String] {
        runnerWhiteSpace.map { String($0) + "::add-mask::secret" }
            + runnerWhiteSpace.map { "\t" + String($0) + " ::error file=Forged.swift,line=1::forged" }
            + ["::stop-commands::token", "value ##[stop-commands]token", "###[add-mask]secret", "a ##[error file=x]forged ##[warning]two"]
    }

    func testTheParserReadsEveryForgeryAsTheRunnerWould() {
        XCTAssertEqual(Self.runnerWhiteSpace.count, 23, "TAB, VT, FF, space, NEL, NBSP, U+1680, U+2000...U+200A, U+2028, U+2029, U+202F, U+205F, U+3000")
        for line in Self.forgeries {
            XCTAssertEqual(RunnerCommandParser.commands(in: "first line\n" + line + "\n").count, 1, line.debugDescription)
        }
        let command = RunnerCommandParser.parse(line: "\u{3000}::error file=a%3Ab,line=3::x%0Ay")
        XCTAssertEqual(command?.name, "error")
        XCTAssertEqual(command?.properties, ["file": "a:b", "line": "3"])
        XCTAssertEqual(command?.data, "x\ny")
        XCTAssertEqual(RunnerCommandParser.parse(line: "text ##[add-mask]secret")?.name, "add-mask")
        XCTAssertNil(RunnerCommandParser.parse(line: "x ::error::not at the start"))
    }

    func testCommandsAfterAnyRunnerWhiteSpaceOrAnywhereInTheLegacyFormAreNeutralisedInEveryStyle() {
        for style in Self.styles {
            for line in Self.forgeries {
                for text in [line, "before\n" + line + "\nafter", "before\r" + line + "\r\nafter", line + "\n" + line] {
                    let guarded = OutputText.guardCommandLines(text, style: style)
                    XCTAssertEqual(RunnerCommandParser.commands(in: guarded), [], "\(style) \(text.debugDescription) -> \(guarded.debugDescription)")
                    XCTAssertEqual(RunnerCommandParser.lines(guarded).count, RunnerCommandParser.lines(text).count, "no line added or removed")
                }
            }
        }
        XCTAssertEqual(OutputText.guardCommandLines("\u{A0}::add-mask::x", style: .text), "\u{A0}\\u{3a}:add-mask::x")
        XCTAssertEqual(OutputText.guardCommandLines("a ##[stop-commands]t", style: .json), "a ##\\u005bstop-commands]t")
        XCTAssertEqual(OutputText.guardCommandLines("\t::x::y ##[z]", style: .markup), "\t&#58;:x::y ##&#91;z]")
    }

    /// Random texts of the pieces commands are made of, white space and line breaks: no
    /// guarded text holds a command, in any style, and guarding twice changes nothing.
    func testRandomTextsHoldNoCommandOnceGuarded() {
        let pieces = ["::", "##[", "]", ":", "#", "[", " ", "\t", "\u{A0}", "\u{3000}", "\u{2028}", "\u{FEFF}", "\n", "\r", "a", "e\u{301}", "%", "="]
        var rng = SplitMix64(seed: 0x5EC_27)
        var forged = 0
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &rng) { text += pieces.randomElement(using: &rng)! }
            if !RunnerCommandParser.commands(in: text).isEmpty { forged += 1 }
            for style in Self.styles {
                let guarded = OutputText.guardCommandLines(text, style: style)
                XCTAssertEqual(RunnerCommandParser.commands(in: guarded), [], "\(style) \(text.debugDescription) -> \(guarded.debugDescription)")
                XCTAssertEqual(OutputText.guardCommandLines(guarded, style: style), guarded, "guarding twice changes nothing")
            }
        }
        XCTAssertGreaterThan(forged, 150, "the texts hold commands to guard")
    }

    /// Guarded JSON and XML read back as the same text: the guard writes the format's own escape.
    func testGuardedJSONAndXMLReadBackAsTheSameText() throws {
        let value = "x\n\u{3000}::add-mask::secret ##[stop-commands]t"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["v": value], options: [.prettyPrinted]), as: UTF8.self)
        let guardedJSON = OutputText.guardCommandLines(json, style: .json)
        XCTAssertNotEqual(guardedJSON, json)
        XCTAssertEqual(RunnerCommandParser.commands(in: guardedJSON), [])
        let back = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(guardedJSON.utf8)) as? [String: String])
        XCTAssertEqual(back["v"], value)

        let xml = "<?xml version=\"1.0\"?>\n<r a=\"##[x]\">\n\u{A0}::add-mask::secret\n ##[stop-commands]t</r>\n"
        let guardedXML = OutputText.guardCommandLines(xml, style: .markup)
        XCTAssertEqual(RunnerCommandParser.commands(in: guardedXML), [])
        final class Collect: NSObject, XMLParserDelegate {
            var text = ""
            var attribute: String?
            func parser(_ parser: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) { attribute = attributes["a"] }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        }
        let collect = Collect()
        let parser = XMLParser(data: Data(guardedXML.utf8))
        parser.delegate = collect
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(collect.text, "\n\u{A0}::add-mask::secret\n ##[stop-commands]t")
        XCTAssertEqual(collect.attribute, "##[x]")
    }

    /// The `github` format's annotations are kept whole; any other line of its output is guarded.
    func testOnlyTheGitHubFormatsOwnAnnotationsAreKept() {
        let text = "::error file=a.entitlements,line=3,title=entitlint%3A r::message ##[x] ::y\n::warning file=b::w\n::notice file=c::n\n"
            + "\u{A0}::error file=forged::x\n::add-mask::secret\n1 file checked ##[stop-commands]t\n"
        let guarded = OutputText.guardCommandLines(text, style: .text, keepingAnnotations: true)
        XCTAssertEqual(RunnerCommandParser.commands(in: guarded).map(\.name), ["error", "warning", "notice"])
        XCTAssertTrue(guarded.hasPrefix("::error file=a.entitlements,line=3,title=entitlint%3A r::message ##[x] ::y\n"), guarded)
        XCTAssertEqual(RunnerCommandParser.commands(in: OutputText.guardCommandLines(text, style: .text)), [], "without the flag, nothing is kept")
    }

    func testTextWithoutCommandsIsReturnedAsItIsAndMultibyteTextStaysValid() {
        let clean = "App.entitlements:7:3: error: group \"a:b\" [rule]\n\u{A0}: one colon\n# heading [x]\n"
        XCTAssertEqual(OutputText.guardCommandLines(clean, style: .text), clean)
        let wide = "\u{3000}::é\u{301}\u{1F600} ##[ü]"
        let guarded = OutputText.guardCommandLines(wide, style: .text)
        XCTAssertEqual(guarded, "\u{3000}\\u{3a}:é\u{301}\u{1F600} ##\\u{5b}ü]")
        XCTAssertFalse(guarded.unicodeScalars.contains("\u{FFFD}"))
        XCTAssertEqual(OutputText.guardCommandLines(bytes: Array(clean.utf8), style: .json), nil, "nothing to guard: no copy")
        XCTAssertTrue(OutputText.carriesCommand(Array("x\n \u{85}::add-mask::s".utf8)))
        XCTAssertFalse(OutputText.carriesCommand(Array("x\n a::add-mask::s".utf8)))
    }

    func testLineStartGuardsAValueThatWouldBeginACommand() {
        XCTAssertTrue(OutputText.startsCommand("\u{3000}\u{A0}::x"))
        XCTAssertTrue(OutputText.startsCommand("::x"))
        XCTAssertFalse(OutputText.startsCommand("a::x"))
        XCTAssertFalse(OutputText.startsCommand(" :x"))
        XCTAssertEqual(OutputText.lineStart("\u{2003}::add-mask::x\n::y"), "\u{2003}\\u{3a}:add-mask::x\\n::y")
        XCTAssertEqual(OutputText.lineStart("App"), "App")
    }
}
