import Foundation
import XCTest

/// The shape a reader can hold in mind: no source file over 300 lines, and no type whose
/// declaration and extensions spread over more than 4 files of one module (a type that needs more
/// has responsibilities that belong to types of their own). Extensions of a type of another module
/// (`String`, `Array`) count per module too, as each module's helpers are read with that module.
final class SourceShapeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let maxLines = 300
    static let maxFilesPerType = 4

    /// The type names a file declares or extends at its top level (column 0), after any
    /// attributes and modifiers: `struct A`, `extension A.B` (counted as `A`), `enum C<T>`.
    static func topLevelTypes(in text: String) -> Set<String> {
        let kinds: Set<Substring> = ["struct", "class", "enum", "actor", "protocol", "extension"]
        var out = Set<String>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let first = line.first, first.isLetter || first == "@" else { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let k = words.firstIndex(where: { kinds.contains($0) }), k + 1 < words.count else { continue }
            // Only modifiers and attributes may come before the kind word.
            let modifiers: Set<Substring> = ["public", "internal", "package", "private", "fileprivate", "final", "open", "indirect"]
            guard words[..<k].allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }) else { continue }
            let name = words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty { out.insert(String(name)) }
        }
        return out
    }

    func testTheDeclarationReaderFindsWhatItShould() {
        let text = "public struct A: B {\n  struct Inner {}\n}\nextension A.Inner {}\n@MainActor final class C<T> {}\nlet struct_ = 1\n// enum D\n"
        XCTAssertEqual(Self.topLevelTypes(in: text), ["A", "C"])
    }

    func testNoFileOver300LinesAndNoTypeOverFourFilesOfAModule() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        var long: [String] = []
        var spread: [String] = []
        var fileCount = 0
        for module in modules {
            guard let walk = FileManager.default.enumerator(at: sources.appendingPathComponent(module), includingPropertiesForKeys: nil) else { continue }
            var filesOf: [String: Set<String>] = [:]
            for case let url as URL in walk where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                let relative = String(url.path.dropFirst(sources.path.count + 1))
                fileCount += 1
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
                if lines > Self.maxLines { long.append("\(relative): \(lines) lines") }
                for type in Self.topLevelTypes(in: text) { filesOf[type, default: []].insert(relative) }
            }
            for (type, files) in filesOf where files.count > Self.maxFilesPerType {
                spread.append("\(module): \(type) in \(files.count) files: \(files.sorted().joined(separator: ", "))")
            }
        }
        XCTAssertGreaterThan(fileCount, 100, "the walk found the package's sources")
        XCTAssertEqual(long, [], long.joined(separator: "\n"))
        XCTAssertEqual(spread.sorted(), [], spread.sorted().joined(separator: "\n"))
    }
}
