import EntitlintCore
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// What the zip reader's test classes share: archives written to a temporary folder, opened,
/// streamed or linted, and the pieces the hostile ones are made of.
protocol ZipReaderChecks: XCTestCase {}

extension ZipReaderChecks {
    static var executable: String { "Payload/App.app/App" }

    func write(_ bytes: [UInt8], _ name: String = "App.ipa") throws -> String {
        let url = try temporaryFolder().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The archive's error when it is opened, or nil.
    func openError(_ bytes: [UInt8], limits: ZipLimits = .default) throws -> ArtifactError? {
        let path = try write(bytes)
        do throws(ArtifactError) {
            _ = try ZipStorage(path: path, shownRoot: "App.ipa", limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// Streams `entry` of the archive in `chunk`-byte pieces; the error, and the archive for its counters.
    func streamError(_ bytes: [UInt8], entry name: String, chunk: Int = 4096) throws -> (error: ArtifactError?, archive: ZipArchive) {
        let archive = try ZipArchive(path: try write(bytes), limits: .default)
        let entry = try XCTUnwrap(archive.entries.first { $0.name == name })
        do throws(ArtifactError) {
            try archive.stream(entry, chunk: chunk) { _ in true }
            return (nil, archive)
        } catch {
            return (error, archive)
        }
    }

    /// Non-final stored deflate blocks (`BFINAL` 0, `BTYPE` 00) of `size` bytes each: a stream
    /// that never ends, however much of it is read; `final` ends it with the last block.
    static func storedBlocks(_ count: Int, size: Int, final: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<count {
            out += [final && i == count - 1 ? 1 : 0] + ZipWriter.le16(UInt16(size)) + ZipWriter.le16(~UInt16(size))
            out += [UInt8](repeating: UInt8(ascii: "A"), count: size)
        }
        return out
    }

    /// A good app whose bundle is read whole, plus whatever `extra` adds.
    func app(_ extra: (inout ZipWriter) -> Void = { _ in }) -> [UInt8] {
        var w = ZipWriter()
        let files = BundleTests.family(prefix: "Payload/App.app")
        for path in files.keys.sorted() { w.add(path, files[path]!) }
        extra(&w)
        return w.finish()
    }

    func lint(_ bytes: [UInt8], limits: ZipLimits = .default) throws -> ArtifactReadResult {
        ArtifactReader(zipLimits: limits).read(try write(bytes), shown: "App.ipa", limits: .default)
    }
}

/// The zip reader (`ZipArchive`, `ZipStorage`) on hostile archives made here. Each test checks
/// what is reported and bounds the work by the reader's own counters: bytes inflated, bytes of
/// entry data read, bytes read from the file.
final class ZipReaderTests: XCTestCase, ZipReaderChecks {
    // MARK: - Deflate streams that do not end where the header says

    func testNeverEndingDeflateStreamStopsAtTheDeclaredSizes() throws {
        // 65 KB of stored blocks, none final: the stream never ends.
        let endless = Self.storedBlocks(65, size: 1000)
        // Declared output smaller than what the blocks give: stopped just past it.
        var w = ZipWriter()
        w.add("small", [UInt8](repeating: UInt8(ascii: "A"), count: 3000), payload: endless)
        let (overflow, a) = try streamError(w.finish(), entry: "small")
        XCTAssertEqual(overflow?.code, .tooLarge)
        XCTAssertTrue(overflow?.reason.contains("expands past the 3000 bytes its header declares") == true, "\(String(describing: overflow))")
        XCTAssertLessThanOrEqual(a.inflatedBytes, 3000 + 4096)

        // Declared output as large as the blocks give: every compressed byte is used, then the
        // stream wants more than the header declares.
        var whole = ZipWriter()
        whole.add("whole", [UInt8](repeating: UInt8(ascii: "A"), count: 65_000), payload: endless)
        let (unended, b) = try streamError(whole.finish(), entry: "whole")
        XCTAssertEqual(unended?.reason, "the deflate stream does not end within the \(endless.count) compressed bytes its header declares")
        XCTAssertEqual(b.inflatedBytes, 65_000)
        XCTAssertEqual(b.compressedBytesRead, endless.count)

        // Through the linter, as the app's Info.plist (read whole): a parse-error on that file,
        // the nested bundles linted.
        let plist = "Payload/App.app/Info.plist"
        let ipa = app { w in
            w.records.removeAll { String(decoding: $0.name, as: UTF8.self) == plist }
            w.add(plist, [UInt8](repeating: UInt8(ascii: "A"), count: 65_000), payload: endless)
        }
        let result = try lint(ipa)
        let finding = try XCTUnwrap(result.findings.first { $0.path == "App.ipa!" + plist }, "\(result.findings.map(\.message))")
        XCTAssertTrue(finding.message.contains("does not end within the \(endless.count) compressed bytes"), finding.message)
        XCTAssertTrue(Set(result.units.map(\.name)).isSuperset(of: ["Clip", "Share", "Watch"]), "\(result.units.map(\.name))")
    }

    func testDeclaredCompressedSizeSmallerThanTheStream() throws {
        // A proper stream of 20 blocks, declared as its first 10,000 bytes.
        let stream = Self.storedBlocks(20, size: 1000, final: true)
        var w = ZipWriter()
        w.add("cut", [UInt8](repeating: UInt8(ascii: "A"), count: 20_000), payload: stream) { $0.compressedSize = 10_000 }
        let (error, archive) = try streamError(w.finish(), entry: "cut")
        XCTAssertEqual(error?.reason, "the deflate stream does not end within the 10000 compressed bytes its header declares")
        XCTAssertEqual(archive.compressedBytesRead, 10_000, "not a byte past the declared size is read")
        XCTAssertLessThanOrEqual(archive.inflatedBytes, 10_000)
    }

    func testStreamEndingBeforeTheDeclaredCompressedSize() throws {
        let stream = Self.storedBlocks(2, size: 100, final: true)
        var w = ZipWriter()
        w.add("short", [UInt8](repeating: UInt8(ascii: "A"), count: 200), payload: stream + [0, 0, 0, 0])
        let (error, archive) = try streamError(w.finish(), entry: "short")
        XCTAssertEqual(error?.reason, "the deflate stream ends after \(stream.count) of the \(stream.count + 4) compressed bytes its header declares")
        XCTAssertEqual(archive.inflatedBytes, 200)
    }

    // MARK: - Lying central directory

    func testLyingCentralDirectoryCannotExpandPastWhatItDeclares() throws {
        // 64 MiB of zeros deflate to about 64 KB; the header says 100 bytes in, 1,000 out.
        let huge = [UInt8](repeating: 0, count: 64 << 20)
        let deflated = ZipWriter.deflate(huge)
        let ipa = app { w in
            w.records.removeAll { String(decoding: $0.name, as: UTF8.self) == Self.executable }
            w.add(Self.executable, huge, payload: deflated) { r in
                r.flags = 0x8   // sizes in a data descriptor: the local header's are not compared
                r.compressedSize = 100
                r.uncompressedSize = 1_000
            }
        }
        let storage = try ZipStorage(path: try write(ipa), shownRoot: "App.ipa")
        XCTAssertThrowsError(try storage.machO(Self.executable, maxBlob: 1 << 20)) { error in
            XCTAssertEqual((error as? ArtifactError)?.reason, "App.ipa!\(Self.executable): expands past the 1000 bytes its header declares (stopped at \(storage.archive.inflatedBytes))")
        }
        XCTAssertEqual(storage.archive.compressedBytesRead, 100)
        XCTAssertLessThanOrEqual(storage.archive.inflatedBytes, 1_000 + (256 << 10), "one output buffer past the declared size at most")

        // With the declared output big instead, the ratio limit refuses it before inflating.
        let bomb = app { w in
            w.records.removeAll { String(decoding: $0.name, as: UTF8.self) == Self.executable }
            w.add(Self.executable, huge, payload: deflated)
        }
        let refused = try ZipStorage(path: try write(bomb), shownRoot: "App.ipa")
        XCTAssertThrowsError(try refused.machO(Self.executable, maxBlob: 1 << 20)) { error in
            XCTAssertTrue((error as? ArtifactError)?.reason.contains("a zip bomb, not read") == true, "\(error)")
        }
        XCTAssertEqual(refused.archive.inflatedBytes, 0)
    }

    // MARK: - Overlapping entries and duplicate names

    func testOverlappingEntriesAreRefusedBeforeAnythingIsInflated() throws {
        // "a" is stored and its data holds the whole entry "b" (local header and data): each
        // record's local header names its own path, but their ranges overlap.
        var w = ZipWriter()
        let bData = [UInt8](repeating: 0, count: 1 << 20)
        let bBody = ZipWriter.deflate(bData)
        let bOffset = UInt64(30 + 1)
        let b = ZipWriter.Record(name: Array("b".utf8), method: 8, crc: ZipWriter.crc32(bData), compressedSize: UInt64(bBody.count),
                                 uncompressedSize: UInt64(bData.count), localHeaderOffset: bOffset)
        w.add("a", w.localHeader(b) + bBody, stored: true)
        w.records.append(b)
        let path = try write(w.finish())
        let file = try FileBytes(path: path)
        XCTAssertThrowsError(try ZipArchive(file: file, limits: .default)) { error in
            XCTAssertEqual((error as? ArtifactError)?.code, .badArchive)
            XCTAssertTrue((error as? ArtifactError)?.reason.hasPrefix("zip entries \"a\" and \"b\" overlap in the file") == true, "\(error)")
        }
        XCTAssertLessThan(file.bytesRead, 4096, "only the directory and the local headers were read")

        // Many records pointing at one local header: its name matches only one of them.
        var many = ZipWriter()
        many.add("x", bData)
        for i in 0..<1000 { var r = many.records[0]; r.name = Array("x\(i)".utf8); many.records.append(r) }
        let error = try XCTUnwrap(try openError(many.finish()))
        XCTAssertEqual(error.reason, "not a readable zip archive: zip entry \"x0\": its local header names another path")

        // The same record twice (same name, same header): an overlap.
        var twice = ZipWriter()
        twice.add("Payload/App.app/App", bData)
        twice.records.append(twice.records[0])
        let result = try lint(twice.finish())
        XCTAssertEqual(result.units, [])
        XCTAssertEqual(result.findings.map(\.rule), ["parse-error"])
        XCTAssertTrue(result.findings[0].message.contains("overlap in the file"), result.findings[0].message)
    }

    func testDuplicateNamesRefuseTheArchive() throws {
        for second in [Self.executable, "Payload/App.app//App", "Payload/App.app/App/"] {
            let ipa = app { w in w.add(second, BundleTests.binary("<key>get-task-allow</key><true/>")) }
            let result = try lint(ipa)
            if second.hasSuffix("/") {
                // A folder of the same name as a file is not a second copy of the file.
                XCTAssertEqual(result.units.count, 4, second)
                continue
            }
            XCTAssertEqual(result.units, [], second)
            XCTAssertEqual(result.findings.map(\.message),
                           ["cannot read built product: not a readable zip archive: two entries are named \"\(Self.executable)\" (which one a tool reads is ambiguous), not read"], second)
        }
    }

}
