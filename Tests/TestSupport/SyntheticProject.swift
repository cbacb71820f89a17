import Foundation
import XCTest

/// A small project written by a test into a folder: files from a `[path: contents]` map, and,
/// when asked, a git repository with everything committed. git runs with no global or system
/// configuration, hooks disabled, signing off and a fixed identity and date, so a developer's
/// own setup can neither change nor break what the test sees.
public enum SyntheticProject {
    /// What git holds of the written files.
    public enum Git: Sendable {
        /// No repository.
        case none
        /// `git init` only: nothing staged or committed.
        case initialised
        /// `git init`, every file added and committed with this message.
        case committed(String)
    }

    /// The environment git runs in.
    public static let gitEnvironment = [
        "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    ]

    /// Options before every git command: the branch name, no signing, no hooks.
    static let gitOptions = ["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"]

    /// Writes each of `files` (a path relative to `root` -> its text) below `root`, creating the
    /// folders it needs, in path order; then sets up git as `git` says. Returns `root`.
    @discardableResult
    public static func write(_ files: [String: String], in root: URL, git: Git = .none) throws -> URL {
        for path in files.keys.sorted() {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files[path]!.write(to: url, atomically: true, encoding: .utf8)
        }
        switch git {
        case .none: break
        case .initialised:
            try run(["init", "-q"], in: root)
        case .committed(let message):
            try run(["init", "-q"], in: root)
            try run(["add", "-A"], in: root)
            try run(["commit", "-qm", message], in: root)
        }
        return root
    }

    /// The outcome of a git command.
    public struct GitResult: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs git in `root` as `write` does; a failing command throws with its error output.
    @discardableResult
    public static func run(_ arguments: [String], in root: URL) throws -> GitResult {
        let r = try git(arguments, in: root)
        guard r.status == 0 else { throw GitFailure(description: "git \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)") }
        return r
    }

    /// Runs git in `root` as `write` does, whatever its exit status.
    public static func git(_ arguments: [String], in root: URL) throws -> GitResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + gitOptions + arguments
        p.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in gitEnvironment { environment[k] = v }
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return GitResult(status: p.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
    }

    public struct GitFailure: Error, CustomStringConvertible {
        public var description: String
    }
}
