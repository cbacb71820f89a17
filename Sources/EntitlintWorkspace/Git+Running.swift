import EntitlintCore
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How every git command runs: hardened, without a shell, its output bounded.
extension GitRepository {
    // MARK: - Running git

    /// Most bytes a list of names (`ls-tree`, `ls-files`, `diff`) may take: far above any real
    /// repository's (a million paths of 60 bytes), far below what would exhaust memory.
    static let listLimit = 256 << 20

    func names(_ arguments: [String]) throws(GitError) -> [String] {
        let r = try Self.run(arguments, in: topLevel, limit: Self.listLimit)
        guard r.status == 0 else { throw GitError("git \(arguments.first ?? "") failed: \(r.errorText)") }
        return r.stdout.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        var errorText: String {
            String(decoding: stderr, as: UTF8.self).trimmingWhitespace()
                .replacing("\n", with: "; ")
        }
    }

    /// The `git` executable: the first `git` on `PATH`.
    static func executable() -> String? {
        let env = ProcessInfo.processInfo.environment
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The options every git command runs with (see the type's comment). `readsHooksPath` leaves
    /// `core.hooksPath` as configured, for the one command that asks for it (`config --get`, which
    /// runs nothing).
    static func hardenedArguments(readsHooksPath: Bool = false) -> [String] {
        var out = ["--no-pager", "-c", "core.quotepath=false", "-c", "color.ui=false", "-c", "core.fsmonitor=false",
                   "-c", "protocol.allow=never"]
        if !readsHooksPath { out += ["-c", "core.hooksPath=/dev/null"] }
        return out
    }

    /// The environment every git command runs with: the caller's, hardened.
    static func hardenedEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_NO_LAZY_FETCH"] = "1"
        environment["GIT_ALLOW_PROTOCOL"] = ""
        environment["GIT_PROTOCOL_FROM_USER"] = "0"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment["GIT_EXTERNAL_DIFF"] = nil
        environment["GIT_PAGER"] = nil
        environment["GIT_ASKPASS"] = nil
        environment["SSH_ASKPASS"] = nil
        environment["LC_ALL"] = "C"
        return environment
    }

    /// Runs `git ARGUMENTS` in `directory`, hardened, without a shell, feeding `input` on standard
    /// input. Standard output is read as it comes, and git is stopped as soon as it passes `limit`
    /// bytes (an error); standard error keeps its first 64 KiB.
    /// `expected`: the output's size when known (a `cat-file --batch` of known sizes), reserved up
    /// front so that reading it never holds two copies.
    public static func run(_ arguments: [String], in directory: String, input: [UInt8]? = nil, limit: Int = 1 << 20,
                           expected: Int = 0, readsHooksPath: Bool = false) throws(GitError) -> Output {
        guard let git = executable() else { throw GitError("git is not installed (no `git` on PATH)") }
        // `-C` enters the folder inside git: the spawn itself needs no change of folder.
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(git, hardenedArguments(readsHooksPath: readsHooksPath) + ["-C", directory] + arguments,
                                        environment: hardenedEnvironment(), input: input, limit: limit, expected: expected)
        } catch {
            throw GitError("cannot run \(git): \(error)")
        }
        if result.overflowed { throw GitError("git \(arguments.first ?? "") printed more than \(limit) bytes: stopped") }
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
