import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import EntitlintRules
import PropertyList

/// Inputs past a limit (file size, nesting depth, values per document,
/// bytes per run) are findings that name the limit and how to raise it; raised limits are honoured;
/// and the run's byte budget cuts the same files whatever the threads do.
final class LimitsTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func failure(_ input: ParsedInput, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .failed(let reason, _) = input else {
            XCTFail("expected a failure, got \(input)", file: file, line: line)
            return ""
        }
        return reason
    }

    /// The reason of a file left unread by a limit of the run (`read-limit`).
    func overLimit(_ input: ParsedInput, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .unread(let reason, let rule) = input else {
            XCTFail("expected a file not read, got \(input)", file: file, line: line)
            return ""
        }
        XCTAssertEqual(rule, "read-limit", file: file, line: line)
        return reason
    }

    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"

    func testA64MiBStringIsRefusedByFileSizeUnlessRaised() throws {
        let dir = try temporaryDirectory()
        let size = 64 << 20
        var bytes = Array((Self.head + "<dict><key>k</key><string>").utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: size)
        bytes += Array("</string></dict></plist>\n".utf8)
        let path = try write(bytes, "Huge.entitlements", in: dir)

        let reason = overLimit(DocumentReader.parse(path: path, limits: .default))
        XCTAssertTrue(reason.contains("larger than the limit of 16777216 bytes"), reason)
        XCTAssertTrue(reason.contains("--max-file-size N or `limits: {max-file-size: N}` in .entitlint.yml"), reason)

        // Under a raised limit the file is read whole; as entitlements, a string that long is
        // then refused on its own (no entitlement value is 64 MiB), not by the file's size.
        var raised = PlistLimits.default
        raised.maxBytes = 80 << 20
        XCTAssertEqual(failure(DocumentReader.parse(path: path, limits: raised)),
                       "a string of \(size) bytes, more than the 4096 bytes an entitlement's key or value is read to (no real one is that long)")
        guard let doc = try? PropertyListReader.parse(bytes, limits: raised) else {
            return XCTFail("a 64 MiB string under a raised limit must parse as a plist")
        }
        XCTAssertEqual(doc.root.dict?["k"]?.string?.utf8.count, size)
    }

    func testATenMillionElementXMLArrayIsRefusedWithTheLimitNamed() throws {
        let dir = try temporaryDirectory()
        var bytes = Array((Self.head + "<array>").utf8)
        let element = Array("<true/>".utf8)
        bytes.reserveCapacity(bytes.count + 10_000_000 * element.count + 32)
        for _ in 0..<10_000_000 { bytes += element }
        bytes += Array("</array></plist>\n".utf8)
        let path = try write(bytes, "Wide.entitlements", in: dir)

        // 70 MB: the file size limit comes first.
        XCTAssertTrue(overLimit(DocumentReader.parse(path: path, limits: .default)).contains("--max-file-size"))
        // With the size raised, the element count stops the parser at its millionth value.
        var raised = PlistLimits.default
        raised.maxBytes = 100 << 20
        let reason = failure(DocumentReader.parse(path: path, limits: raised))
        XCTAssertTrue(reason.contains("more than 1000000 elements"), reason)
        XCTAssertTrue(reason.contains("--max-elements N or `limits: {max-elements: N}`"), reason)
    }

    func testATenMillionElementBinaryArrayIsRefusedBeforeItIsBuilt() {
        // bplist00: object 0 is an array of 10,000,000 one-byte references to object 1 (true).
        let count = 10_000_000
        var bytes = Array("bplist00".utf8)
        bytes += [0xAF, 0x12] + withUnsafeBytes(of: UInt32(count).bigEndian, Array.init)   // array, count as int
        bytes += [UInt8](repeating: 1, count: count)
        let trueOffset = bytes.count
        bytes.append(0x09)
        let tableOffset = bytes.count                                           // two 4-byte offsets
        bytes += withUnsafeBytes(of: UInt32(8).bigEndian, Array.init) + withUnsafeBytes(of: UInt32(trueOffset).bigEndian, Array.init)
        var trailer = [UInt8](repeating: 0, count: 6)
        trailer += [4, 1]                                                      // offset size, ref size
        trailer += withUnsafeBytes(of: UInt64(2).bigEndian, Array.init)        // objects
        trailer += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)        // top object
        trailer += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        bytes += trailer
        let reason = failure(DocumentReader.parse(bytes: bytes, path: "Wide.plist", limits: .default))
        XCTAssertTrue(reason.contains("would exceed the limit of 1000000 values"), reason)
        XCTAssertTrue(reason.contains("--max-elements"), reason)
    }

    func testHundredThousandDeepNestingNamesMaxDepth() {
        let s = Self.head + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"
        let reason = failure(DocumentReader.parse(bytes: Array(s.utf8), path: "Deep.entitlements", limits: .default))
        XCTAssertTrue(reason.contains("nesting deeper than 200 levels"), reason)
        XCTAssertTrue(reason.contains("--max-depth N or `limits: {max-depth: N}`"), reason)
        // Raised, the same depth is refused by libxml2's own bound on nesting, still a finding.
        var raised = PlistLimits.default
        raised.maxDepth = 200_000
        XCTAssertFalse(failure(DocumentReader.parse(bytes: Array(s.utf8), path: "Deep.entitlements", limits: raised)).isEmpty)
    }

    func testProfileWithTooManyASN1ElementsNamesMaxElements() {
        // A SEQUENCE of 2,000 NULLs: more ASN.1 elements than a lowered limit allows.
        var content: [UInt8] = []
        for _ in 0..<2_000 { content += [0x05, 0x00] }
        let bytes: [UInt8] = [0x30, 0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)] + content
        var limits = PlistLimits.default
        limits.maxElements = 1_000
        let reason = failure(DocumentReader.parse(bytes: bytes, path: "Big.mobileprovision", limits: limits))
        XCTAssertTrue(reason.contains("more than 1000 ASN.1 elements"), reason)
        XCTAssertTrue(reason.contains("--max-elements"), reason)
    }

    // MARK: bytes per run

    func makeFolder(files: Int) throws -> (URL, [String]) {
        let dir = try temporaryDirectory()
        var names: [String] = []
        for i in 0..<files {
            let name = String(format: "App%02d.entitlements", i)
            let text = Self.head + "<dict><key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array></dict></plist>\n"
            _ = try write(Array(text.utf8), name, in: dir)
            names.append(name)
        }
        return (dir, names)
    }

    func lint(_ dir: URL, maxTotalBytes: Int, parallel: Bool) throws -> [Finding] {
        var options = LintOptions()
        options.paths = [dir.path]
        options.maxTotalBytes = maxTotalBytes
        options.parallel = parallel
        options.readLock = false
        return try Linter(rules: RuleRegistry.all).lint(options).findings
    }

    func testTotalBytesPerRunCutsTheSameFilesWhateverTheThreads() throws {
        let (dir, names) = try makeFolder(files: 40)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(names[0]).path)[.size] as? Int)
        // Room for 12 and a half files: files 0-11 are read, 12-39 are not.
        let budget = 12 * size + size / 2
        let sequential = try lint(dir, maxTotalBytes: budget, parallel: false)
        for _ in 0..<5 {
            XCTAssertEqual(try lint(dir, maxTotalBytes: budget, parallel: true), sequential)
        }
        let notRead = sequential.filter { $0.message.contains("not read:") }
        XCTAssertEqual(notRead.map { URL(fileURLWithPath: $0.path).lastPathComponent }, Array(names[12...]))
        XCTAssertTrue(notRead.allSatisfy { $0.rule == "read-limit" && $0.severity == .error })
        XCTAssertTrue(notRead[0].message.contains("the limit of \(budget) bytes in total"), notRead[0].message)
        XCTAssertTrue(notRead[0].message.contains("--max-total-bytes N or `limits: {max-total-bytes: N}`"), notRead[0].message)
        let wildcards = sequential.filter { $0.rule == "wildcard-access-group" }
        XCTAssertEqual(wildcards.map { URL(fileURLWithPath: $0.path).lastPathComponent }, Array(names[..<12]))
        // The default budget reads them all.
        XCTAssertEqual(try lint(dir, maxTotalBytes: RunLimits.defaultMaxTotalBytes, parallel: true).filter { $0.rule == "wildcard-access-group" }.count, 40)
    }

    // MARK: configuration

    func testLimitsInTheConfiguration() throws {
        let config = try Configuration.parse("""
            limits:
              max-file-size: 1048576
              max-depth: 50
              max-elements: 5000
              max-total-bytes: 100000000
            """, path: "c.yml", knownRules: [])
        XCTAssertEqual(config.limits, ["max-file-size": 1_048_576, "max-depth": 50, "max-elements": 5_000, "max-total-bytes": 100_000_000])
        for (text, message) in [
            ("limits: {max-size: 3}", "unknown limit 'max-size' (known: max-file-size, max-depth, max-elements, max-total-bytes, max-findings, max-output-bytes)"),
            ("limits: {max-depth: 0}", "limits.max-depth must be a positive whole number, not '0'"),
            ("limits: {max-depth: \"20\"}", "limits.max-depth must be a positive whole number, not '20'"),
            ("limits: {max-depth: 2.5}", "must be a positive whole number"),
            ("limits: [1]", "'limits' must be a mapping"),
        ] {
            XCTAssertThrowsError(try Configuration.parse(text, path: "c.yml", knownRules: []), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }

    // MARK: a file that changes size while it is read

    /// `admit` runs after the size is taken and before the bytes are read: growing the file there
    /// past the limit must not let more than `limit` bytes in.
    func testFileGrowingWhileReadIsRefusedAtTheLimit() throws {
        let dir = try temporaryDirectory()
        let path = try write(Array(repeating: UInt8(ascii: "x"), count: 1_000), "Grows.entitlements", in: dir)
        XCTAssertThrowsError(try FileReader.read(path, limit: 64 * 1024) { size in
            XCTAssertEqual(size, 1_000)
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data(repeating: UInt8(ascii: "y"), count: 1 << 20))
            handle.closeFile()
            return true
        }) { error in
            XCTAssertEqual(error as? FileReader.ReadError, .tooLarge(limit: 64 * 1024))
        }
    }

    func testFileShrinkingWhileReadGivesWhatIsThere() throws {
        let dir = try temporaryDirectory()
        let path = try write(Array(repeating: UInt8(ascii: "x"), count: 100_000), "Shrinks.entitlements", in: dir)
        let bytes = try FileReader.read(path, limit: 1 << 20) { size in
            XCTAssertEqual(size, 100_000)
            XCTAssertEqual(truncate(path, 10), 0)
            return true
        }
        XCTAssertEqual(bytes, Array(repeating: UInt8(ascii: "x"), count: 10))
    }
}
