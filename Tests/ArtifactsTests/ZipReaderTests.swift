import EntitlintCore
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// The zip reader (`ZipArchive`, `ZipStorage`) on hostile archives made here. Each test checks
/// what is reported and bounds the work by the reader's own counters: bytes inflated, bytes of
/// entry data read, bytes read from the file.
final class ZipReaderTests: XCTestCase {
    static let executable = "Payload/App.app/App"

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

    // MARK: - Names

    func testDeepAndLongNamesAreSkippedAndCostNoFolders() throws {
        let deep = Array(repeating: "d", count: 10_000).joined(separator: "/")
        let long = String(repeating: "n", count: 0xffff)   // the most a 16-bit name length holds
        let ipa = app { w in
            w.add(deep, [1])
            w.add("Payload/" + String(repeating: "l", count: 2_000), [2])
            w.add(long, [3])
        }
        let storage = try ZipStorage(path: try write(ipa), shownRoot: "App.ipa")
        XCTAssertEqual(storage.problems, [
            "zip entry \"\(String(repeating: "d/", count: 60))\"... (19999 bytes) has a name of 19999 bytes, longer than 1024 (limit ZipLimits.maxNameLength): skipped",
            "zip entry \"Payload/\(String(repeating: "l", count: 112))\"... (2008 bytes) has a name of 2008 bytes, longer than 1024 (limit ZipLimits.maxNameLength): skipped",
            "zip entry \"\(String(repeating: "n", count: 120))\"... (65535 bytes) has a name of 65535 bytes, longer than 1024 (limit ZipLimits.maxNameLength): skipped",
        ])
        XCTAssertEqual(storage.children(""), ["Payload"])
        XCTAssertEqual(storage.entries.count, BundleTests.family(prefix: "Payload/App.app").count)

        // Within the length limit, too deep: 65 parts of one byte.
        let tooDeep = Array(repeating: "d", count: 65).joined(separator: "/")
        let deeper = try ZipStorage(path: try write(app { w in for i in 0..<50 { w.add(tooDeep + "\(i)", [1]) } }), shownRoot: "App.ipa")
        XCTAssertEqual(deeper.problems.first, "zip entry \"\(String(repeating: "d/", count: 60))\"... (130 bytes) has a path of 65 parts, deeper than 64 (limit ZipLimits.maxPathDepth): skipped")
        XCTAssertEqual(deeper.problems.last, "47 more zip entries with paths deeper than 64 parts skipped (limit ZipLimits.maxPathDepth)")
        XCTAssertFalse(deeper.isDirectory("d"), "no folder of a skipped entry is registered")

        // At the limits, 2,000 entries of 64 parts: one folder object per distinct folder.
        let atLimit = try ZipStorage(path: try write(app { w in
            for i in 0..<2_000 { w.add(Array(repeating: "f", count: 63).joined(separator: "/") + "/\(i)", [1]) }
        }), shownRoot: "App.ipa")
        XCTAssertEqual(atLimit.problems, [])
        XCTAssertEqual(atLimit.children(Array(repeating: "f", count: 63).joined(separator: "/")).count, 2_000)
        func folders(_ f: ZipStorage.ZipFolder) -> Int { 1 + f.folders.values.reduce(0) { $0 + folders($1) } }
        XCTAssertEqual(folders(atLimit.root), 1 + 63 + 8, "root, f/ x 63, the eight folders of the app")

        // Distinct deep folders are bounded in number (by the entry limit), not only in depth.
        let manyFolders = app { w in
            for i in 0..<100 { w.add("\(i)/" + Array(repeating: "f", count: 62).joined(separator: "/") + "/x", [1]) }
        }
        XCTAssertEqual(try openError(manyFolders, limits: ZipLimits(maxEntries: 5_000))?.reason,
                       "not a readable zip archive: more than 5000 folders (limit ZipLimits.maxEntries)")
        XCTAssertNil(try openError(manyFolders, limits: ZipLimits(maxEntries: 6_400)), "100 x 63 + 8 folders")

        // Through the linter: a finding per kind of skipped name, the app still linted.
        let result = try lint(ipa)
        XCTAssertEqual(result.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        XCTAssertEqual(result.findings.filter { $0.message.contains("ZipLimits.maxNameLength") }.count, 3)
    }

    // MARK: - Truncation, CRC, methods, ZIP64

    func testTruncatedAtEveryPositionIsAnErrorReadingOnlyTheTail() throws {
        let whole = app()
        var cuts = Array(stride(from: 0, to: whole.count, by: 37))
        cuts += (max(0, whole.count - 300)..<whole.count)
        for cut in cuts {
            let file = try FileBytes(path: try write(Array(whole.prefix(cut))))
            XCTAssertThrowsError(try ZipArchive(file: file, limits: .default), "cut at \(cut)") { error in
                let e = error as? ArtifactError
                XCTAssertTrue(e?.code == .badArchive || e?.code == .truncated, "cut at \(cut): \(error)")
            }
            XCTAssertLessThanOrEqual(file.bytesRead, min(cut, 22 + 0xffff) + 20 + 56 + 4096, "cut at \(cut)")
        }
        let result = try lint(Array(whole.prefix(whole.count - 1)))
        XCTAssertEqual(result.findings.map(\.message), ["cannot read built product: not a readable zip archive: no end-of-central-directory record in the last \(whole.count - 1) bytes"])
    }

    func testBadCRCIsReportedAfterReadingTheEntryOnce() throws {
        let data = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        for stored in [false, true] {
            var w = ZipWriter()
            w.add("f", data, stored: stored) { $0.crc ^= 1 }
            let (error, archive) = try streamError(w.finish(), entry: "f")
            let right = ZipWriter.crc32(data)
            XCTAssertEqual(error?.reason, "CRC-32 mismatch: the data gives 0x\(String(format: "%08x", right)), the central directory says 0x\(String(format: "%08x", right ^ 1))")
            XCTAssertEqual(archive.inflatedBytes, data.count)
        }
        // Through the linter, on the Info.plist.
        let ipa = app { w in
            w.records.removeAll { String(decoding: $0.name, as: UTF8.self) == "Payload/App.app/Info.plist" }
            w.add("Payload/App.app/Info.plist", Plist.info(bundleID: "com.example.App", executable: "App")) { $0.crc = 0 }
        }
        let result = try lint(ipa)
        XCTAssertTrue(result.findings.contains { $0.path == "App.ipa!Payload/App.app/Info.plist" && $0.message.contains("CRC-32 mismatch") },
                      "\(result.findings.map(\.message))")
    }

    func testOtherMethodsAndEncryptionAreClearErrors() throws {
        var w = ZipWriter()
        w.add("bz", [1, 2, 3], stored: true) { $0.method = 12 }
        w.add("enc", [1, 2, 3], stored: true) { $0.flags = 1 }
        let bytes = w.finish()
        XCTAssertEqual(try streamError(bytes, entry: "bz").error?.reason, "compression method 12 is not supported (only stored and deflated entries are read)")
        XCTAssertEqual(try streamError(bytes, entry: "enc").error?.reason, "the entry is encrypted")

        // An empty file deflated to no bytes at all (some writers do this) reads as empty.
        var empty = ZipWriter()
        empty.add("empty", [], payload: [])
        let (error, archive) = try streamError(empty.finish(), entry: "empty")
        XCTAssertNil(error)
        XCTAssertEqual(archive.inflatedBytes, 0)
    }

    func testLocalHeaderDisagreeingWithTheCentralDirectory() throws {
        var w = ZipWriter()
        w.add("f", [1, 2, 3])
        w.records[0].uncompressedSize = 4
        XCTAssertEqual(try openError(w.finish())?.reason,
                       "not a readable zip archive: zip entry \"f\": its local header and its central-directory record disagree on method, sizes or CRC")
    }

    func testZIP64ArchiveReadsLikeTheClassicOne() throws {
        var w = ZipWriter()
        w.zip64 = true
        let files = BundleTests.family(prefix: "Payload/App.app")
        for path in files.keys.sorted() { w.add(path, files[path]!) }
        let zip64 = try lint(w.finish())
        let classic = try lint(app())
        XCTAssertEqual(zip64.findings, classic.findings)
        XCTAssertEqual(zip64.units.map(\.name).sorted(), ["App", "Clip", "Share", "Watch"])
        XCTAssertEqual(zip64.units.map(\.bundleID), classic.units.map(\.bundleID))
        let archive = try ZipArchive(path: try write(w.finish()), limits: .default)
        XCTAssertEqual(archive.entries.map(\.name), files.keys.sorted())
        XCTAssertEqual(archive.entries.map(\.uncompressedSize), files.keys.sorted().map { UInt64(files[$0]!.count) })

        // A ZIP64 record that declares more entries than the limit is refused before the
        // directory is read.
        let limited = try openError(w.finish(), limits: ZipLimits(maxEntries: 3))
        XCTAssertEqual(limited?.reason, "not a readable zip archive: more than 3 zip entries (limit ZipLimits.maxEntries): the archive declares \(files.count)")
    }

    func testCentralDirectoryBounds() throws {
        let whole = app()
        XCTAssertEqual(try openError(whole, limits: ZipLimits(maxCentralDirectorySize: 100))?.code, .tooLarge)
        // An entry count the directory cannot hold.
        var lying = whole
        let end = lying.count - 22
        lying[end + 8] = 0xff; lying[end + 9] = 0xff; lying[end + 10] = 0xff; lying[end + 11] = 0xff
        XCTAssertTrue(try openError(lying)?.reason.contains("the archive declares 65535 entries, more than its") == true)
        // A directory offset past the end.
        var outside = whole
        outside[end + 19] = 0x7f
        XCTAssertEqual(try openError(outside)?.code, .truncated)
    }
}
