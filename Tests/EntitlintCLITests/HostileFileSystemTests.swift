import Foundation
import XCTest

/// File-system attacks and two writers on one lock file: the built
/// `entitlint` is run on each, with a watchdog. Each must end within bounded time with a finding
/// or a clear error naming the file, lint the other files of the run, and write nothing.
final class HostileFileSystemTests: XCTestCase {
    /// A folder holding one good entitlements file (with a wildcard group, so it has a finding).
    func folderWithGoodFile() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try CLI.entitlements(["ABCDE12345.*"]).write(to: dir.appendingPathComponent("Good.entitlements"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Every file below `dir` with its size and modification time: nothing may change.
    func snapshot(_ dir: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let fm = FileManager.default
        for name in try fm.subpathsOfDirectory(atPath: dir.path) {
            let attrs = try? fm.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
            out[name] = "\(attrs?[.size] ?? "-") \(attrs?[.modificationDate] ?? "-") \(attrs?[.type] ?? "-")"
        }
        return out
    }

    func testFIFOAsAPathIsAFindingNotAHang() throws {
        let dir = try folderWithGoodFile()
        let fifo = dir.appendingPathComponent("Pipe.entitlements")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let before = try snapshot(dir)
        // Named on the command line: nobody writes to the FIFO, so a blocking open would hang.
        let named = try runBounded(["lint", "Pipe.entitlements", "Good.entitlements"], in: dir)
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertTrue(named.stdout.contains("Pipe.entitlements"), named.stdout)
        XCTAssertTrue(named.stdout.contains("not a regular file (a FIFO)"), named.stdout)
        XCTAssertTrue(named.stdout.contains("Good.entitlements"), "the other file is still linted: \(named.stdout)")
        XCTAssertTrue(named.stdout.contains("wildcard-access-group"), named.stdout)
        // Found by walking the folder: a FIFO is not a file to lint, and is skipped.
        let walked = try runBounded(["lint", "."], in: dir)
        XCTAssertEqual(walked.status, 1, walked.stderr)
        XCTAssertFalse(walked.stdout.contains("Pipe.entitlements"), walked.stdout)
        XCTAssertTrue(walked.stdout.contains("wildcard-access-group"), walked.stdout)
        XCTAssertEqual(try snapshot(dir), before)
    }

    func testDevZeroAndDevURandomAsPathsAreFindingsNotEndlessReads() throws {
        let dir = try folderWithGoodFile()
        let result = try runBounded(["lint", "/dev/zero", "/dev/urandom", "Good.entitlements", "--format", "json"], in: dir)
        XCTAssertEqual(result.status, 1, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        for device in ["/dev/zero", "/dev/urandom"] {
            let f = findings.first { ($0["path"] as? String) == device }
            XCTAssertEqual(f?["rule"] as? String, "unreadable-path", "\(device): \(findings)")
            XCTAssertTrue((f?["message"] as? String ?? "").contains("not a regular file (a device)"), "\(String(describing: f))")
        }
        XCTAssertTrue(findings.contains { ($0["rule"] as? String) == "wildcard-access-group" }, "\(findings)")
    }

    func testSymlinkLoopsEndTheWalkAndAreAClearErrorWhenNamed() throws {
        let dir = try folderWithGoodFile()
        let fm = FileManager.default
        let sub = dir.appendingPathComponent("Sub")
        try fm.createDirectory(at: sub, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: sub.appendingPathComponent("Up").path, withDestinationPath: "..")   // folder loop
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("A.entitlements").path, withDestinationPath: "B.entitlements")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("B.entitlements").path, withDestinationPath: "A.entitlements")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("Self.entitlements").path, withDestinationPath: "Self.entitlements")
        let walked = try runBounded(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(walked.status, 1, walked.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(walked.stdout.utf8)) as? [String: Any])
        // The good file once (not again through Sub/Up), the looping links skipped.
        let files = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        XCTAssertEqual(Set(files), ["Good.entitlements"], walked.stdout)
        let named = try runBounded(["lint", "Self.entitlements", "A.entitlements", "Good.entitlements"], in: dir)
        XCTAssertEqual(named.status, 1, named.stderr)
        for name in ["Self.entitlements", "A.entitlements"] {
            XCTAssertTrue(named.stdout.contains("\(name):1:1: error: cannot parse property list: cannot read the file: Too many levels of symbolic links")
                          || named.stdout.contains("\(name): error: cannot parse property list: cannot read the file: Too many levels of symbolic links"),
                          "\(name): \(named.stdout)")
        }
        XCTAssertTrue(named.stdout.contains("wildcard-access-group"), named.stdout)
    }

    /// Root reads every file whatever its mode, so the linter runs as `nobody` (setpriv, from
    /// util-linux) against a file only its owner may read.
    func testUnreadableFileIsAFindingAndTheRunGoesOn() throws {
        let dir = try folderWithGoodFile()
        let secret = dir.appendingPathComponent("Secret.entitlements")
        try CLI.entitlements(["ABCDE12345.com.example.shared"]).write(to: secret, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(secret.path, 0o000), 0)
        let r = try runAsNobody(["lint", "Secret.entitlements", "Good.entitlements"], in: dir)
        let o = r.stdout, e = r.stderr
        XCTAssertEqual(r.status, 1, o + e)
        XCTAssertTrue(o.contains("Secret.entitlements"), o + e)
        XCTAssertTrue(o.contains("cannot read the file: Permission denied"), o + e)
        XCTAssertTrue(o.contains("wildcard-access-group"), "the other file is still linted: \(o)")
    }

    /// 100,000 entitlements files in one folder: all linted, in bounded time and memory (peak
    /// resident memory of the child, from getrusage; the benchmark script measures 10,000 files).
    func testFolderOf100000FilesIsLintedInBoundedMemory() throws {
        let dir = try CLI.temporaryDirectory(self)
        let many = dir.appendingPathComponent("Many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
        let good = Array(CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"]).utf8)
        let bad = Array(CLI.entitlements(["ABCDE12345.*"]).utf8)
        for i in 0..<100_000 {
            let path = many.appendingPathComponent(String(format: "App%06d.entitlements", i)).path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let bytes = i % 10_000 == 0 ? bad : good
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let result = try runBounded(["lint", "Many", "--format", "json", "--team-id", "ABCDE12345"], in: dir, seconds: 300)
        XCTAssertEqual(result.status, 1, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(json["summary"] as? [String: Any], "\(json.keys)")
        XCTAssertEqual(summary["files"] as? Int, 100_000)
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.filter { ($0["rule"] as? String) == "wildcard-access-group" }.count, 10)
        var usage = rusage()
        XCTAssertEqual(getrusage(RUSAGE_CHILDREN.rawValue, &usage), 0)
        // ru_maxrss is in KiB on Linux: the largest child of this test process so far.
        XCTAssertLessThan(usage.ru_maxrss, 512 * 1024, "peak resident memory of a child: \(usage.ru_maxrss) KiB")
    }

    /// Two `entitlint lock` runs writing the same lock file at once leave one
    /// valid file (each writes a temporary file and renames it), and no temporary file behind.
    func testTwoWritersOnOneLockFileLeaveOneValidFile() throws {
        let dir = try CLI.temporaryDirectory(self)
        for i in 0..<20 {
            try CLI.entitlements(["$(AppIdentifierPrefix)com.example.App\(i)"])
                .write(to: dir.appendingPathComponent("App\(i).entitlements"), atomically: true, encoding: .utf8)
        }
        for round in 0..<10 {
            let statuses = try CLI.runAtOnce((0..<2).map { ["lock", ".", "--team-id", "ABCDE12345", "--bundle-id", "com.example.W\($0)"] }, in: dir)
            XCTAssertEqual(statuses, [0, 0], "round \(round)")
            let units = try CLI.lockedUnits(in: dir)
            XCTAssertEqual(units.count, 20, "round \(round)")
            // Every entry comes from one writer or the other, whole.
            let bundles = Set(units.values.compactMap { ($0 as? [String: Any])?["bundle-id"] as? String })
            XCTAssertTrue(bundles == ["com.example.W0"] || bundles == ["com.example.W1"], "round \(round): \(bundles)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
            XCTAssertEqual(leftovers, [], "round \(round)")
        }
    }
    /// A run killed at any moment never leaves a half-written report or lock
    /// file: each holds the old content or a complete new one (temporary file, then rename).
    func testKilledRunsNeverLeaveHalfWrittenReports() throws {
        let dir = try CLI.temporaryDirectory(self)
        for i in 0..<2_000 {
            try CLI.entitlements(["ABCDE12345.*", "$(AppIdentifierPrefix)com.example.App\(i)"])
                .write(to: dir.appendingPathComponent("App\(i).entitlements"), atomically: true, encoding: .utf8)
        }
        // A valid, empty lock file (lint reads ./entitlint.lock too), and the same text as the old report.
        let old = "{\"units\": {}, \"version\": 1}\n"
        let report = dir.appendingPathComponent("report.sarif"), lock = dir.appendingPathComponent("entitlint.lock")
        var sawOld = 0, sawNew = 0
        for (round, delay) in [0, 10, 30, 60, 120, 200, 300, 450, 700, 1000, 1500, 2500].enumerated() {
            try old.write(to: report, atomically: true, encoding: .utf8)
            try old.write(to: lock, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = CLI.executable
            p.arguments = round % 2 == 0 ? ["lint", ".", "--report", "sarif:report.sarif"] : ["lock", ".", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"]
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(useconds_t(delay * 1000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let target = round % 2 == 0 ? report : lock
            let text = try String(contentsOf: target, encoding: .utf8)
            if text == old { sawOld += 1 } else {
                sawNew += 1
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), "round \(round): a half-written \(target.lastPathComponent)")
                XCTAssertTrue(text.hasSuffix("}\n") || text.hasSuffix("}"), "round \(round)")
            }
        }
        // Both outcomes happened: runs killed before writing and runs that finished.
        XCTAssertGreaterThan(sawOld, 0)
        XCTAssertGreaterThan(sawNew, 0)
    }
}
