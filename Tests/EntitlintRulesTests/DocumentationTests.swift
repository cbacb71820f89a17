import EntitlintCore
import EntitlintRules
import Foundation
import XCTest

/// The documentation is in the repository and holds together: the rules cite sections of
/// `Rules/keychain-access-groups.md` that exist, the links between pages resolve to files and
/// headings that exist, and nothing cites a document the repository does not have.
final class DocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// GitHub's heading anchors: lower case, punctuation dropped (hyphens and underscores kept),
    /// spaces turned into hyphens.
    static func anchor(ofHeading heading: String) -> String {
        var out = ""
        for c in heading.lowercased() {
            if c == " " { out.append("-") } else if c.isLetter || c.isNumber || c == "-" || c == "_" { out.append(c) }
        }
        return out
    }

    static func headings(inMarkdown text: String) -> [String] {
        var out: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            out.append(String(line.drop(while: { $0 == "#" }).drop(while: { $0 == " " })))
        }
        return out
    }

    static func markdownFiles() throws -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        let walk = try XCTUnwrap(FileManager.default.enumerator(at: root.appendingPathComponent("Rules"), includingPropertiesForKeys: nil))
        for case let url as URL in walk where url.pathExtension == "md" { files.append(url) }
        return files
    }

    func testTheGuidesNumberedHeadingsAreTheAnchorsRulesLinkTo() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("Rules/\(GuideCitations.page)"), encoding: .utf8)
        var numbered: [String: String] = [:]
        for h in Self.headings(inMarkdown: guide) {
            let number = h.prefix(while: { $0.isNumber || $0 == "." })
            guard !number.isEmpty else { continue }
            numbered[String(number.hasSuffix(".") ? number.dropLast() : number)] = Self.anchor(ofHeading: h)
        }
        XCTAssertEqual(numbered, GuideCitations.anchors)
    }

    func testEveryCitationNamesASectionTheGuideHas() throws {
        var texts: [(String, String)] = RuleRegistry.descriptions.map { ("rule \($0.id)", $0.rationale) }
        let fm = FileManager.default
        for folder in ["Sources", "Tests", "Scripts"] {
            let walk = try XCTUnwrap(fm.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
            // This file's own test of the linker cites a section on purpose.
            for case let url as URL in walk where ["swift", "sh", "py"].contains(url.pathExtension) && url.lastPathComponent != "DocumentationTests.swift" {
                texts.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        for url in try Self.markdownFiles() { texts.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8))) }
        var cited = 0
        for (name, text) in texts {
            for section in GuideCitations.citedSections(in: text) {
                cited += 1
                XCTAssertNotNil(GuideCitations.anchors[section], "\(name) cites section \(section), which the guide does not have")
            }
        }
        XCTAssertGreaterThan(cited, 50, "the rules and the code cite the guide")
        let withoutCitation = RuleRegistry.descriptions.filter { GuideCitations.citedSections(in: $0.rationale).isEmpty }.map(\.id)
        // The findings about the run (unreadable paths, findings left out) say nothing about
        // signing, so they have nothing of the guide to cite.
        XCTAssertEqual(withoutCitation, ToolFindings.ids.filter { $0 != ToolFindings.parseError }, "every rule's rationale cites the guide")
    }

    /// Design notes and domain briefs kept outside the repository are not cited: a reader of the
    /// code has only the repository.
    func testNothingCitesADocumentOutsideTheRepository() throws {
        let fm = FileManager.default
        var found: [String] = []
        var files = try Self.markdownFiles()
        for folder in ["Sources", "Tests", "Scripts", "Examples"] {
            let walk = try XCTUnwrap(fm.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
            for case let url as URL in walk where ["swift", "sh", "py", "md", "yml"].contains(url.pathExtension) { files.append(url) }
        }
        let outside = ["DOMAIN" + ".md", "DESIGN" + ".md", "STYLE" + ".md", "shared/" + "docs"]
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            for name in outside where text.contains(name) { found.append("\(url.path.dropFirst(Self.root.path.count + 1)): \(name)") }
        }
        XCTAssertEqual(found, [])
    }

    func testRelativeLinksReachFilesAndHeadingsThatExist() throws {
        let link = try NSRegularExpression(pattern: "\\]\\(([^)\\s]+)\\)")
        var broken: [String] = []
        var checked = 0
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for m in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(m.range(at: 1), in: text)!])
                if target.hasPrefix("http:") || target.hasPrefix("https:") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let url = parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                checked += 1
                guard FileManager.default.fileExists(atPath: url.path) else { broken.append("\(file.lastPathComponent): \(target)"); continue }
                if parts.count == 2, url.pathExtension == "md" {
                    let anchors = Set(Self.headings(inMarkdown: try String(contentsOf: url, encoding: .utf8)).map(Self.anchor(ofHeading:)))
                    if !anchors.contains(parts[1]) { broken.append("\(file.lastPathComponent): \(target) (no such heading)") }
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the pages link each other")
        XCTAssertEqual(broken, [])
    }

    func testCitationsAreLinkedSectionBySection() {
        let text = "Matched exactly (keychain-access-groups.md sections 1, 2.1 and 4). See keychain-access-groups.md section 7. "
            + "Not a citation: keychain-access-groups.md section x; unknown keychain-access-groups.md section 99."
        let linked = GuideCitations.linked(text, pageURL: "g.md")
        XCTAssertEqual(linked, "Matched exactly (keychain-access-groups.md sections [1](g.md#1-the-access-group-list), "
            + "[2.1](g.md#21-build-settings-as-xcode-evaluates-them) and [4](g.md#4-the-default-group-and-its-drift)). "
            + "See keychain-access-groups.md section [7](g.md#7-entitlements-inside-built-apps). "
            + "Not a citation: keychain-access-groups.md section x; unknown keychain-access-groups.md section 99.")
        XCTAssertEqual(GuideCitations.citedSections(in: text), ["1", "2.1", "4", "7", "99"])
    }
}
