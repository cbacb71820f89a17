import Foundation
import XCTest
import EntitlintCore
@testable import EntitlintRules

/// The command a `default-group-drift` note suggests (`entitlint lock --drop NAME`) quotes the
/// lock entry's name, which comes from a committed file: a quote joined to a mark (U+0301 after
/// it, U+0600 before it, U+200D after it) must not end the shell word and run what follows.
final class ShellQuotingTests: XCTestCase {
    static let names = [
        "App", "it's", "a'\u{301}; touch pwned; '", "\u{600}'$(touch pwned)'", "'\u{200D}`touch pwned`'", "x'\"\\ $HOME * \n;",
    ]

    /// The shell (`/bin/sh`) reads each quoted name back as the name, and runs nothing in it.
    func testQuoteJoinedToAMarkNeverEndsTheShellWord() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-quote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in Self.names {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "printf '%s' " + name.shellQuoted]
            p.currentDirectoryURL = dir
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
            XCTAssertEqual(Array(String(decoding: data, as: UTF8.self).unicodeScalars), Array(name.unicodeScalars), name.debugDescription)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pwned").path), "nothing ran: \(name.debugDescription)")
        }
    }

    /// The note quotes the name so.
    func testTheDropSuggestionQuotesTheEntryName() {
        for name in Self.names {
            let lock = LockFile(units: [name: .init(bundleID: nil, defaultAccessGroup: "ABCDE12345.x", accessGroups: ["ABCDE12345.x"])])
            let message = DefaultGroupDriftRule().check(unpaired: [name], in: lock, cwd: "/").first?.message ?? ""
            let needle = Array(("`entitlint lock --drop " + name.shellQuoted + "`").unicodeScalars)
            let hay = Array(message.unicodeScalars)
            XCTAssertTrue((0...max(0, hay.count - needle.count)).contains { hay.count >= needle.count && Array(hay[$0..<($0 + needle.count)]) == needle }, message)
        }
    }
}
