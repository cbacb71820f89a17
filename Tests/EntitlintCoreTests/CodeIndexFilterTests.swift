import XCTest
import EntitlintCore
import SourceCode

/// The byte pre-filter of the code index: a file is lexed only when its bytes hold a trigger word
/// or it may define a name that the lexed files' groups depend on; the groups resolve exactly as
/// if every file were lexed.
final class CodeIndexFilterTests: XCTestCase {
    private func code(_ files: [String: String], infoPlist: [String: String] = [:]) -> (UnitCode, reads: [String: Int]) {
        let bytes = files.mapValues { Array($0.utf8) }
        let reads = ReadCounter()
        let index = CodeIndex(read: { reads.count($0); return bytes[$0] }, display: { String($0.dropFirst(3)) })
        let code = index.code(for: UnitSources(files: files.keys.sorted(), infoPlist: infoPlist))
        return (code, reads.snapshot)
    }

    private let site = """
        func save(_ data: Data) {
            let query: [String: Any] = [kSecAttrAccessGroup as String: Constants.shared, kSecValueData as String: data]
            SecItemAdd(query as CFDictionary, nil)
        }
        """

    private let ordinary = """
        struct Model {
            var name = "model"
            func describe() -> String { "\\(name)" }
        }
        """

    func testAConstantDefinedInAFileWithoutTriggerWordsStillResolves() {
        XCTAssertFalse(SourceFilter.mayHaveSites(Array("enum Constants {\n    static let shared = \"ABCDE12345.com.example.shared\"\n}\n".utf8)))
        let (code, _) = code(["/p/Site.swift": site,
                              "/p/Constants.swift": "enum Constants {\n    static let shared = \"ABCDE12345.com.example.shared\"\n}\n",
                              "/p/Model.swift": ordinary])
        XCTAssertEqual(code.groups.map(\.resolved.value), ["ABCDE12345.com.example.shared"])
        XCTAssertEqual(code.groups.first?.resolved.steps.first, "Constants.shared (Constants.swift:2)")
        XCTAssertEqual(code.scannedFiles, 3)
        XCTAssertEqual(code.lexedFiles, 2, "the model file holds no trigger word and none of the names: it is not lexed")
        XCTAssertTrue(code.isComplete)
    }

    func testAChainOfDefinitionsThroughFilesWithoutTriggerWordsIsFollowed() {
        let (code, reads) = code(["/p/Site.swift": site,
                                  "/p/Constants.swift": "enum Constants {\n    static let shared = Prefix.team + \".com.example.shared\"\n}\n",
                                  "/p/Prefix.swift": "enum Prefix {\n    static let team = \"ABCDE12345\"\n}\n",
                                  "/p/Model.swift": ordinary])
        XCTAssertEqual(code.groups.map(\.resolved.value), ["ABCDE12345.com.example.shared"])
        XCTAssertEqual(code.lexedFiles, 3)
        XCTAssertEqual(Set(reads.values), [1], "files kept from the first read are not read again: \(reads)")
    }

    func testTwoQuietFilesDefiningTheNameDifferentlyStayAmbiguous() {
        let (code, _) = code(["/p/Site.swift": site,
                              "/p/A.swift": "enum Constants {\n    static let shared = \"ABCDE12345.one\"\n}\n",
                              "/p/B.swift": "enum Constants {\n    static let shared = \"ABCDE12345.two\"\n}\n"])
        XCTAssertEqual(code.groups.map(\.resolved.value), [nil])
        XCTAssertEqual(code.groups.first?.resolved.unknown, "ambiguous: 2 definitions of Constants.shared")
        XCTAssertEqual(code.lexedFiles, 3)
    }

    func testANameInsideALongerIdentifierDoesNotMakeAFileLexed() {
        let (code, _) = code(["/p/Site.swift": site,
                              "/p/Constants.swift": "enum Constants {\n    static let shared = \"ABCDE12345.com.example.shared\"\n}\n",
                              "/p/Other.swift": "let sharedCount = 3\nlet myshared = 4\nlet ConstantsTable = 5\nlet shared_ = 6\n"])
        XCTAssertEqual(code.groups.map(\.resolved.value), ["ABCDE12345.com.example.shared"])
        XCTAssertEqual(code.lexedFiles, 2)
    }

    func testAUnitWithoutAnyTriggerWordLexesNothingAndIsComplete() {
        let (code, reads) = code(["/p/Model.swift": ordinary, "/p/Other.swift": "let x = 1\n"])
        XCTAssertEqual(code.groups, [])
        XCTAssertEqual(code.saves, [])
        XCTAssertEqual(code.scannedFiles, 2)
        XCTAssertEqual(code.lexedFiles, 0)
        XCTAssertEqual(reads, ["/p/Model.swift": 1, "/p/Other.swift": 1])
        XCTAssertTrue(code.isComplete, "every file was read: its code is known to pass no group")
    }

    func testAQuietFileThatCannotBeReadAgainIsUnreadable() {
        // Two units share the quiet file; for the second, its bytes are read again (the first
        // unit's were not kept) and by then it is gone.
        let gone = ReadCounter()
        let files = ["/p/Site.swift": Array(site.utf8),
                     "/p/Constants.swift": Array("enum Constants {\n    static let shared = \"ABCDE12345.x\"\n}\n".utf8)]
        let index = CodeIndex(read: { path in
            gone.count(path)
            return path == "/p/Constants.swift" && gone.snapshot[path]! > 1 ? nil : files[path]
        }, display: { String($0.dropFirst(3)) })
        let first = index.code(for: UnitSources(files: ["/p/Constants.swift"]))
        XCTAssertEqual(first.lexedFiles, 0)
        let second = index.code(for: UnitSources(files: ["/p/Constants.swift", "/p/Site.swift"]))
        XCTAssertEqual(second.unreadable, ["Constants.swift"])
        XCTAssertEqual(second.groups.map(\.resolved.value), [nil])
        XCTAssertFalse(second.isComplete)
    }
}

/// Counts the reads of each path (the index may read from several threads).
/// Reading a unit's files on several threads gives what reading them one by one gives, in the
/// project's order, each file read once.
final class CodeIndexParallelTests: XCTestCase {
    func testManyFilesReadOnTwoThreadsGiveTheSameCodeAsOneThread() {
        // 600 files: past two chunks of reads; every 50th passes a group, six others define one each.
        var files: [String: [UInt8]] = [:]
        for k in 0..<600 {
            let text: String
            if k % 50 == 0 {
                text = "func save\(k)() {\n    let q: [String: Any] = [kSecAttrAccessGroup as String: Names.group\(k / 50 % 6 + 1)]\n    SecItemAdd(q as CFDictionary, nil)\n}\n"
            } else if k < 7 {
                text = "extension Names {\n    static let group\(k) = \"ABCDE12345.group\(k)\"\n}\n"
            } else {
                text = "struct Model\(k) {\n    var name = \"m\"\n}\n"
            }
            files[String(format: "/p/F%04d.swift", k)] = Array(text.utf8)
        }
        let paths = files.keys.sorted()
        let contents = files
        func run(jobs: Int) -> (UnitCode, [String: Int]) {
            let reads = ReadCounter()
            let index = CodeIndex(read: { reads.count($0); return contents[$0] }, display: { $0 })
            index.jobs = jobs
            return (index.code(for: UnitSources(files: paths, infoPlist: [:])), reads.snapshot)
        }
        let (one, _) = run(jobs: 1)
        let (two, reads) = run(jobs: 2)
        XCTAssertEqual(one.groups.count, 12)
        XCTAssertEqual(two.groups.map(\.path), one.groups.map(\.path))
        XCTAssertEqual(two.groups.map(\.resolved.value), one.groups.map(\.resolved.value))
        XCTAssertEqual(two.groups.first?.resolved.value, "ABCDE12345.group1")
        XCTAssertEqual(two.lexedFiles, one.lexedFiles)
        XCTAssertEqual(two.lexedFiles, 12 + 6)
        XCTAssertTrue(two.isComplete)
        XCTAssertEqual(two.scannedFiles, 600)
        XCTAssertEqual(Set(reads.values), [1], "each file read once")
        XCTAssertEqual(reads.count, 600)
    }
}

final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func count(_ path: String) {
        lock.lock()
        counts[path, default: 0] += 1
        lock.unlock()
    }

    var snapshot: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}
