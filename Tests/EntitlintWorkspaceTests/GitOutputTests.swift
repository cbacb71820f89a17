@testable import EntitlintWorkspace
import Foundation
import TestSupport
import XCTest

/// The git object ids computed here equal git's own, and the parsers of git's output read what
/// git prints and nothing else.
final class GitOutputTests: XCTestCase {
    /// `git hash-object --stdin` on the same bytes, in a repository of the given format.
    func gitHash(_ bytes: [UInt8], format: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ args: [String], input: [UInt8]? = nil) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git"] + args
            p.currentDirectoryURL = dir
            let out = Pipe(), inp = Pipe()
            p.standardOutput = out
            p.standardInput = inp
            p.standardError = FileHandle.nullDevice
            try p.run()
            if let input { inp.fileHandleForWriting.write(Data(input)) }
            try inp.fileHandleForWriting.close()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try run(["init", "-q", "--object-format=\(format)"])
        return try run(["hash-object", "--stdin"], input: bytes)
    }

    func testBlobIDsEqualGitsForBothObjectFormats() throws {
        // Sizes around the 64-byte block and its 56-byte padding boundary, and a larger one.
        let samples: [[UInt8]] = [[], Array("a".utf8), Array(repeating: 0x41, count: 40), Array(repeating: 0x42, count: 55),
                                  Array(repeating: 0x43, count: 56), Array(repeating: 0x44, count: 64), Array(repeating: 0x45, count: 119),
                                  (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }]
        for sample in samples {
            XCTAssertEqual(GitObjectID.blob(sample, format: .sha1), try gitHash(sample, format: "sha1"), "\(sample.count) bytes")
            XCTAssertEqual(GitObjectID.blob(sample, format: .sha256), try gitHash(sample, format: "sha256"), "\(sample.count) bytes")
        }
        XCTAssertEqual(GitObjectID.blob([], format: .sha1), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
    }

    func testLsTreeAndLsFilesParseGitsRecords() {
        let tree = Array("100644 blob 0123abcd\tA b.entitlements\u{0}120000 blob 4567ef00\tLink\u{0}160000 commit 89ab\tSub\u{0}".utf8)
        XCTAssertEqual(GitOutput.lsTree(tree), [
            .init(mode: "100644", oid: "0123abcd", path: "A b.entitlements"),
            .init(mode: "120000", oid: "4567ef00", path: "Link"),
            .init(mode: "160000", oid: "89ab", path: "Sub"),
        ])
        let index = Array("100644 0123abcd 1\tC.plist\u{0}100644 4567 2\tC.plist\u{0}100755 89ab 0\tnew\nline\u{0}".utf8)
        XCTAssertEqual(GitOutput.lsFilesStage(index).map(\.path), ["C.plist", "new\nline"])
        // Records without a tab or with missing fields are dropped, not guessed.
        XCTAssertEqual(GitOutput.lsTree(Array("100644 blob\tX\u{0}garbage\u{0}\t\u{0}".utf8)), [])
    }

    func testRawDiffKeepsStatusModeAndPath() {
        let raw = Array(":120000 100644 aaaa bbbb T\u{0}Link.entitlements\u{0}:000000 100644 0000 cccc A\u{0}a\tb.plist\u{0}".utf8)
        XCTAssertEqual(GitOutput.rawDiff(raw), [
            .init(status: UInt8(ascii: "T"), newMode: "100644", newOID: "bbbb", path: "Link.entitlements"),
            .init(status: UInt8(ascii: "A"), newMode: "100644", newOID: "cccc", path: "a\tb.plist"),
        ])
        // A header without its path is dropped.
        XCTAssertEqual(GitOutput.rawDiff(Array(":100644 100644 a b M\u{0}".utf8)), [])
    }

    func testBatchOutputMustHaveExactlyTheShapeAsked() {
        XCTAssertEqual(GitOutput.batchCheck(Array("abc1 blob 12\nx missing\nabc2 tree 40\n".utf8)),
                       [.object(oid: "abc1", type: "blob", size: 12), .missing, .object(oid: "abc2", type: "tree", size: 40)])
        // A size git could not mean (negative, too many digits) is not an object.
        XCTAssertEqual(GitOutput.batchCheck(Array("abc1 blob -1\nabc1 blob 99999999999999999999999\n".utf8)), [.missing, .missing])
        let good = Array("ab blob 3\nxyz\ncd blob 0\n\n".utf8)
        XCTAssertEqual(GitOutput.batch(good, expected: [("ab", 3), ("cd", 0)]), ["ab": Array("xyz".utf8), "cd": []])
        // Sizes that disagree, a missing line feed, or bytes left over: not that shape.
        XCTAssertNil(GitOutput.batch(good, expected: [("ab", 4), ("cd", 0)]))
        XCTAssertNil(GitOutput.batch(Array("ab blob 3\nxyz".utf8), expected: [("ab", 3)]))
        XCTAssertNil(GitOutput.batch(good + [0x41], expected: [("ab", 3), ("cd", 0)]))
        XCTAssertNil(GitOutput.batch(good, expected: [("cd", 0), ("ab", 3)]))
    }

    /// The `git-output` fuzz harness's seeds (real git output, a selector byte in front) reach every
    /// parser and parse to what git printed; what the harness kept (`Regressions/git-output`) parses
    /// without a trap.
    func testFuzzSeedsReachEveryParser() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try FuzzInputs.files("Seeds/git-output").map { ($0.name, Array($0.bytes.dropFirst())) })
        XCTAssertEqual(try XCTUnwrap(seeds["ls-tree"]).isEmpty, false)
        XCTAssertEqual(GitOutput.lsTree(try XCTUnwrap(seeds["ls-tree"])).map(\.path), ["App/A.entitlements", "B c.plist", "Link"])
        XCTAssertEqual(GitOutput.lsFilesStage(try XCTUnwrap(seeds["ls-files-stage"])).map(\.mode), ["100644", "100644", "120000"])
        XCTAssertEqual(GitOutput.rawDiff(try XCTUnwrap(seeds["diff-raw"])).map(\.path), ["App/A.entitlements"])
        let batch = try XCTUnwrap(seeds["batch"])
        let split = try XCTUnwrap(batch.indices.dropLast().first { batch[$0] == 0x0A && batch[$0 + 1] == 0x0A }) + 1
        let expected: [(oid: String, size: Int)] = GitOutput.batchCheck(Array(batch[..<split])).compactMap {
            if case .object(let oid, _, let size) = $0 { return (oid, size) }
            return nil
        }
        XCTAssertEqual(expected.map(\.size), [2, 8])
        let contents = try XCTUnwrap(GitOutput.batch(Array(batch[(split + 1)...]), expected: expected))
        XCTAssertEqual(contents[expected[1].oid], Array("changed\n".utf8))
        for (_, bytes) in try FuzzInputs.files("Regressions/git-output") {
            _ = GitOutput.lsTree(bytes); _ = GitOutput.lsFilesStage(bytes); _ = GitOutput.rawDiff(bytes); _ = GitOutput.batchCheck(bytes)
        }
    }
}
