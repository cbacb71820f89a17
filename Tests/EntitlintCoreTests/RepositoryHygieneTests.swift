import Foundation
import XCTest

/// Comments and documentation say what the code guarantees and why, never which work item asked
/// for it: a reader has the code, not the tracker. Fails when a reference to a numbered issue, or
/// to a numbered part of one, comes back into the sources, tests, scripts or README.
final class RepositoryHygieneTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A work item's number after the word for it, a part's number after an opening parenthesis,
    /// or two parts' numbers joined by "and" (the examples below are spelled in pieces so that
    /// this file does not match itself).
    static let pattern = try! NSRegularExpression(pattern: "\\b" + "[Ii]ssue" + " ?#?[0-9]+|\\(" + "parts? [0-9]+|\\b" + "parts [0-9]+ and [0-9]+")

    static func offenders(in text: String) -> [String] {
        var out: [String] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let s = String(line)
            if pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil { out.append("\(n + 1): \(s.prefix(120))") }
        }
        return out
    }

    func testThePatternCatchesWhatItShould() {
        XCTAssertEqual(Self.offenders(in: "// see " + "iss" + "ue 6\nfine\n// (" + "pa" + "rt 4) of it").count, 2)
        XCTAssertEqual(Self.offenders(in: "GitHub " + "Iss" + "ue #12 and " + "pa" + "rts 1 and 2").count, 1)
        XCTAssertEqual(Self.offenders(in: "a part of the walk; apart; the DER part").count, 0)
    }

    func testNoWorkItemReferencesInSourcesTestsScriptsOrREADME() throws {
        let fm = FileManager.default
        var found: [String] = []
        var files = ["README.md", ".ci/run", ".pre-commit-hooks.yaml", "action.yml"].map { Self.root.appendingPathComponent($0) }
        for folder in ["Sources", "Tests", "Scripts", "Examples", "Rules"] {
            guard let walk = fm.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk {
                // Fuzz inputs are data, not prose.
                if url.path.contains("/Tests/Fuzz/Regressions/") || url.path.contains("/Tests/Fuzz/Seeds/") || url.path.contains("/.build") { continue }
                if ["swift", "md", "sh", "py", "yml", "yaml"].contains(url.pathExtension) { files.append(url) }
            }
        }
        XCTAssertGreaterThan(files.count, 100, "the walk found the repository's files")
        for url in files {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for o in Self.offenders(in: text) { found.append("\(url.path.dropFirst(Self.root.path.count + 1)):\(o)") }
        }
        XCTAssertEqual(found, [], found.joined(separator: "\n"))
    }
}

