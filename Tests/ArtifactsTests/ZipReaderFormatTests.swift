import EntitlintCore
import Foundation
import PropertyList
import XCTest
@testable import Artifacts

/// The zip reader on archives made here that try the format's corners: names too deep or too long,
/// truncation, bad CRCs, other methods and encryption, lying local headers, ZIP64, and the central
/// directory's bounds. Work is bounded by the reader's own counters, as in `ZipReaderTests`.
final class ZipReaderFormatTests: XCTestCase, ZipReaderChecks {
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
