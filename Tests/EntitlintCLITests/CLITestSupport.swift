import Foundation
import XCTest

/// Runs the built `entitlint` executable, as a user would.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("entitlint"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("entitlint"),
            packageRoot.appendingPathComponent(".build/debug/entitlint"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(_ args: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        // A fixed "today" for the time-dependent rules (profile-expired, profile-expiring, ...).
        try capture(process(args, in: directory, environment: ["ENTITLINT_NOW": "2026-06-01"].merging(environment) { $1 }))
    }

    /// The CLI, not started yet: `args` in `directory`, colours off, `environment` added to this
    /// process's own.
    static func process(_ args: [String], in directory: URL?, environment: [String: String] = [:]) -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return p
    }

    /// Runs `p` to its end and returns its status and output.
    static func capture(_ p: Process) throws -> Result {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs git in `dir` with a fixed default branch, no commit signing and `environment` added.
    @discardableResult
    static func git(_ args: [String], in dir: URL, environment: [String: String]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"] + args
        p.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return try capture(p)
    }

    /// A fresh temporary folder, removed by the test's teardown.
    static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    static func entitlements(_ groups: [String], extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>keychain-access-groups</key>
        \t<array>
        \(groups.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
        \t</array>\(extra)
        </dict>
        </plist>

        """
    }

    /// Starts the CLI once per argument list, all at once in `dir`, output discarded, and waits for
    /// every run: how the tests make writers race. The exit statuses, in the lists' order.
    static func runAtOnce(_ argumentLists: [[String]], in dir: URL) throws -> [Int32] {
        let processes = argumentLists.map { arguments in
            let p = process(arguments, in: dir)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            return p
        }
        for p in processes { try p.run() }
        return processes.map { p in p.waitUntilExit(); return p.terminationStatus }
    }

    /// The `units` object of `dir/entitlint.lock`, read as JSON.
    static func lockedUnits(in dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("entitlint.lock"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(json["units"] as? [String: Any], "\(json.keys)")
    }
}

extension XCTestCase {
    /// Runs the CLI, killing it after `seconds`: a hang is a failure, not a stuck test run.
    func runBounded(_ args: [String], in dir: URL, seconds: Double = 20, file: StaticString = #filePath, line: UInt = #line) throws -> CLI.Result {
        let p = CLI.process(args, in: dir)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let killed = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        killed.pointee = false
        defer { killed.deallocate() }
        nonisolated(unsafe) let flag = killed
        let watchdog = DispatchWorkItem { if p.isRunning { flag.pointee = true; p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        XCTAssertFalse(killed.pointee, "entitlint \(args.joined(separator: " ")) ran longer than \(seconds) s", file: file, line: line)
        XCTAssertNotEqual(p.terminationReason, .uncaughtSignal, "entitlint crashed: \(String(decoding: e, as: UTF8.self))", file: file, line: line)
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs `entitlint args` in `dir`, as `nobody` (setpriv, from util-linux) when root: root reads
    /// every file and folder whatever its mode. `dir` is opened to nobody; a crash fails the test.
    func runAsNobody(_ args: [String], in dir: URL) throws -> CLI.Result {
        var arguments = args
        var executable = CLI.executable.path
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv: cannot make a file or folder unreadable")
            }
            XCTAssertEqual(chmod(dir.path, 0o755), 0)
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + args
            executable = "/usr/bin/setpriv"
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = dir
        p.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let result = try CLI.capture(p)
        XCTAssertNotEqual(p.terminationReason, .uncaughtSignal, result.stderr)
        return result
    }
}

/// Tests that write fixture files.
protocol WritesFixtures {}

extension WritesFixtures {
    /// Writes `text` to `path` below `dir`, making the folders it needs.
    func write(_ text: String, _ path: String, in dir: URL) throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}

/// Tests that run git and the CLI in temporary repositories, with no global or system git
/// configuration; the helpers of `GitTests` and `LockDriftTests`.
class GitTestCase: XCTestCase, WritesFixtures {
    /// git and the CLI see no global or system configuration (a hooksPath, a signing key).
    static let environment = ["GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
                              "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                              "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"]

    @discardableResult
    func git(_ args: [String], in dir: URL, check: Bool = true) throws -> CLI.Result {
        let r = try CLI.git(args, in: dir, environment: Self.environment)
        if check && r.status != 0 { XCTFail("git \(args.joined(separator: " ")) failed: \(r.stderr)") }
        return r
    }

    func entitlint(_ args: [String], in dir: URL) throws -> CLI.Result {
        try CLI.run(args, in: dir, environment: Self.environment)
    }


    func repository() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try git(["init", "-q"], in: dir)
        return dir
    }

    /// Every file below `dir` but `.git`, for "nothing written" checks.
    func listing(_ dir: URL) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.path)
        var out: [String] = []
        while let p = e?.nextObject() as? String { if !p.hasPrefix(".git") { out.append(p) } }
        return out.sorted()
    }
}
