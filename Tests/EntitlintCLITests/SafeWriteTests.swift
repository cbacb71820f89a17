import Foundation
import XCTest

/// Reports, lock files and baselines are written only where asked: to a regular file or nothing
/// yet, or to a stream (`-`, `/dev/stdout`, `/dev/null`). Planted decoys (a symlink to a file
/// outside, a FIFO) are refused before linting and left as they were.
final class SafeWriteTests: XCTestCase {
    static let decoyText = "precious: not to be replaced\n"

    /// A project folder with one entitlements file (a finding), a decoy file outside it, and a
    /// symlink `link` to the decoy and a FIFO `fifo` inside it.
    func plantedFolder() throws -> (dir: URL, decoy: URL) {
        let root = try CLI.temporaryDirectory(self)
        let dir = root.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try CLI.entitlements(["ABCDE12345.*"]).write(to: dir.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        let decoy = root.appendingPathComponent("decoy.txt")
        try Self.decoyText.write(to: decoy, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link").path, withDestinationPath: decoy.path)
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("fifo").path, 0o644), 0)
        return (dir, decoy)
    }

    /// The decoys are as planted: the symlink still a symlink to the decoy, the decoy's content
    /// unchanged, the FIFO still a FIFO, and no temporary file left beside them.
    func assertDecoysUntouched(_ dir: URL, _ decoy: URL, _ context: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fm = FileManager.default
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link").path), decoy.path, context, file: file, line: line)
        XCTAssertEqual(try String(contentsOf: decoy, encoding: .utf8), Self.decoyText, context, file: file, line: line)
        var st = stat()
        XCTAssertEqual(lstat(dir.appendingPathComponent("fifo").path, &st), 0, context, file: file, line: line)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, context, file: file, line: line)
        let leftovers = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], context, file: file, line: line)
    }

    func testSymlinkAndFIFODestinationsAreRefusedBeforeLinting() throws {
        let (dir, decoy) = try plantedFolder()
        for target in ["link", "fifo"] {
            let kind = target == "link" ? "is a symbolic link" : "is not a regular file (a FIFO)"
            let commands: [[String]] = [
                ["lint", ".", "--report", "json:\(target)"],
                ["lock", ".", "--lock", target, "--team-id", "ABCDE12345"],
                ["report", ".", "-o", target],
                ["lint", ".", "--write-baseline", target],
            ]
            for args in commands {
                let r = try CLI.run(args, in: dir)
                let context = "\(args.joined(separator: " ")): \(r.stdout) \(r.stderr)"
                XCTAssertEqual(r.status, 2, context)
                XCTAssertTrue(r.stderr.contains("\(target) \(kind)"), context)
                XCTAssertEqual(r.stdout, "", "refused before linting: \(context)")
                try assertDecoysUntouched(dir, decoy, context)
            }
        }
    }

    func testDevicesOtherThanTheStreamsAreRefused() throws {
        let (dir, decoy) = try plantedFolder()
        let r = try CLI.run(["lint", ".", "--report", "json:/dev/zero"], in: dir)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("/dev/zero is not a regular file (a device)"), r.stderr)
        try assertDecoysUntouched(dir, decoy, r.stderr)
    }

    func testDashDevStdoutAndDevNullAreStreamsNeverReplaced() throws {
        let (dir, _) = try plantedFolder()
        // `-` and /dev/stdout: the report follows the console output on standard output.
        for target in ["-", "/dev/stdout"] {
            let r = try CLI.run(["lint", "App.entitlements", "--format", "text", "--quiet", "--report", "json:\(target)"], in: dir)
            XCTAssertEqual(r.status, 1, r.stderr)
            let json = try XCTUnwrap(r.stdout.range(of: "{\n"), r.stdout)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(r.stdout[json.lowerBound...].utf8)), r.stdout)
        }
        // /dev/null: written nowhere, and still the device afterwards.
        let r = try CLI.run(["lint", "App.entitlements", "--report", "sarif:/dev/null"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        var st = stat()
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
        // A lock to standard output: the lock is the output, the messages go to standard error.
        let lock = try CLI.run(["lock", "App.entitlements", "--lock", "-", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: dir)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lock.stdout.utf8)) as? [String: Any], lock.stdout)
        XCTAssertEqual((parsed["units"] as? [String: Any])?.count, 1)
        XCTAssertTrue(lock.stderr.contains("wrote -: 1 unit locked"), lock.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
        // A baseline to /dev/null: nothing is read from it or written anywhere.
        let b = try CLI.run(["lint", "App.entitlements", "--write-baseline", "/dev/null"], in: dir)
        XCTAssertEqual(b.status, 0, b.stderr)
    }

    func testConfiguredLockAndBaselineMustStayInsideTheProject() throws {
        let (dir, decoy) = try plantedFolder()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let outside = dir.deletingLastPathComponent()
        // A folder link inside the project that leads out of it.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("out").path, withDestinationPath: outside.path)
        let cases = [
            ("lock: ../stolen.lock\n", ["lock", ".", "--team-id", "ABCDE12345"]),
            ("lock: out/stolen.lock\n", ["lock", ".", "--team-id", "ABCDE12345"]),
            ("lock: \(outside.path)/stolen.lock\n", ["lock", ".", "--team-id", "ABCDE12345"]),
            ("baseline: ../decoy.txt\n", ["lint", "."]),
            ("baseline: out/decoy.txt\n", ["lint", "."]),
        ]
        for (config, args) in cases {
            try config.write(to: dir.appendingPathComponent(".entitlint.yml"), atomically: true, encoding: .utf8)
            let r = try CLI.run(args, in: dir)
            let context = "\(config): \(r.stdout) \(r.stderr)"
            XCTAssertEqual(r.status, 2, context)
            XCTAssertTrue(r.stderr.contains("is outside the project root"), context)
            XCTAssertFalse(FileManager.default.fileExists(atPath: outside.appendingPathComponent("stolen.lock").path), context)
            try assertDecoysUntouched(dir, decoy, context)
        }
        // Inside the project (a subfolder of the work tree, above the config's own folder) is fine.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("config"), withIntermediateDirectories: true)
        try "lock: ../locks/app.lock\n".write(to: dir.appendingPathComponent("config/.entitlint.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("locks"), withIntermediateDirectories: true)
        let ok = try CLI.run(["lock", ".", "--config", "config/.entitlint.yml", "--team-id", "ABCDE12345"], in: dir)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("locks/app.lock").path))
        // The command line may name any place.
        let named = try CLI.run(["lock", ".", "--lock", outside.appendingPathComponent("named.lock").path, "--config", "config/.entitlint.yml", "--team-id", "ABCDE12345"], in: dir)
        XCTAssertEqual(named.status, 0, named.stderr)
    }

    /// Eight `entitlint lock` runs at once, each locking its own unit into the same file: the
    /// runs take turns (flock on the folder), and the file ends with all eight entries.
    func testConcurrentLockRunsLoseNoEntry() throws {
        let dir = try CLI.temporaryDirectory(self)
        let n = 8
        for i in 0..<n {
            try CLI.entitlements(["$(AppIdentifierPrefix)com.example.App\(i)"])
                .write(to: dir.appendingPathComponent("App\(i).entitlements"), atomically: true, encoding: .utf8)
        }
        for round in 0..<3 {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("entitlint.lock"))
            let statuses = try CLI.runAtOnce((0..<n).map { ["lock", "App\($0).entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App\($0)"] }, in: dir)
            XCTAssertEqual(statuses, Array(repeating: 0, count: n), "round \(round)")
            let units = try CLI.lockedUnits(in: dir)
            XCTAssertEqual(units.keys.sorted(), (0..<n).map { "App\($0)" }.sorted(), "round \(round)")
        }
    }

    /// SIGTERM or SIGINT while a report's temporary file exists: the run removes it and ends by
    /// the signal; the report keeps its old content. The test watches the folder and signals the
    /// moment a temporary file appears.
    func testSignalRemovesTheTemporaryFile() throws {
        let dir = try CLI.temporaryDirectory(self)
        for i in 0..<1_500 {
            try CLI.entitlements(["ABCDE12345.*", "$(AppIdentifierPrefix)com.example.App\(i)", "x\(i)"])
                .write(to: dir.appendingPathComponent("App\(i).entitlements"), atomically: true, encoding: .utf8)
        }
        let old = "old report\n"
        let formats = ["sarif", "json", "junit", "checkstyle", "gitlab"]
        var caught = 0
        for round in 0..<12 {
            for f in formats { try old.write(to: dir.appendingPathComponent("report.\(f)"), atomically: true, encoding: .utf8) }
            let p = Process()
            p.executableURL = CLI.executable
            p.arguments = ["lint", ".", "--format", "json"] + formats.flatMap { ["--report", "\($0):report.\($0)"] }
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let signal = round % 2 == 0 ? SIGTERM : SIGINT
            var sent = false
            while p.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                if names.contains(where: { $0.contains(".tmp-") }) {
                    kill(p.processIdentifier, signal)
                    sent = true
                    break
                }
            }
            p.waitUntilExit()
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            XCTAssertEqual(leftovers, [], "round \(round)")
            if sent && p.terminationReason == .uncaughtSignal {
                XCTAssertEqual(p.terminationStatus, signal, "round \(round): the run ends by the signal")
                caught += 1
                // Every report is the old one or a complete new one.
                for f in formats {
                    let text = try String(contentsOf: dir.appendingPathComponent("report.\(f)"), encoding: .utf8)
                    XCTAssertTrue(text == old || text.hasSuffix(">\n") || text.hasSuffix("}\n") || text.hasSuffix("]\n"), "round \(round): \(f)")
                }
            }
        }
        XCTAssertGreaterThan(caught, 0, "no round signalled a run while it wrote")
    }
}
