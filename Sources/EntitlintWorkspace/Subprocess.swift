#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// One child process run to its end without a shell: spawned with `posix_spawn`, its standard
/// input written and its standard error read on their own threads (so no pipe fills up while
/// another is waited on), its standard output read here, and its exit collected with `waitpid`.
/// Nothing polls: the run ends when the child's output ends and it has exited. (Foundation's
/// `Process` on Linux waits for the exit by turning a run loop in steps, which cost a git command
/// of a pre-commit hook tens of milliseconds of idle wall time.)
enum Subprocess {
    struct Result {
        /// The exit status; 128 + the signal's number when a signal ended the child.
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        /// Standard output passed `limit`: the child was stopped and the rest dropped.
        var overflowed: Bool
    }

    enum Failure: Error { case spawn(Int32), pipe(Int32) }

    /// Writing to a child that has gone away must be an `EPIPE` error, not the end of this
    /// process: SIGPIPE is ignored from the first spawn on (the command line ignores it anyway).
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Runs `executable` with `arguments` (not including its own name) and exactly `environment`.
    /// Standard output keeps its first `limit` bytes (past them the child's process group gets
    /// SIGTERM and the rest is drained unread), reserving `expected` bytes up front; standard error its first 64 KiB.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], input: [UInt8]?,
                    limit: Int, expected: Int = 0) throws(Failure) -> Result {
        _ = ignoreBrokenPipes
        let toChild = try makePipe(), fromChild = try makePipe(), errors = try makePipe()
        var pid = pid_t()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        // The child leads a process group of its own, so that stopping it stops what it started
        // too: a grandchild left holding the output pipe would keep the read below from ending.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends are the child's now (or nobody's, when the spawn failed).
        close(toChild.read)
        close(fromChild.write)
        close(errors.write)
        guard spawned == 0 else {
            close(toChild.write)
            close(fromChild.read)
            close(errors.read)
            throw .spawn(spawned)
        }
        let group = DispatchGroup()
        let errorBox = Box()
        DispatchQueue.global().async(group: group) {
            errorBox.bytes = readBounded(errors.read, limit: 64 << 10, onOverflow: {})
            close(errors.read)
        }
        if let input {
            DispatchQueue.global().async(group: group) {
                writeAll(input, to: toChild.write)
                close(toChild.write)
            }
        } else {
            close(toChild.write)
        }
        var overflowed = false
        let out = readBounded(fromChild.read, limit: limit, reserve: expected) {
            overflowed = true
            kill(-pid, SIGTERM)
        }
        close(fromChild.read)
        group.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The wait status's layout (<sys/wait.h>): the low 7 bits hold the signal that ended the
        // child (0 when it exited), bits 8 to 15 its exit code.
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return Result(status: code, stdout: out, stderr: errorBox.bytes, overflowed: overflowed)
    }

    /// A pipe whose two ends are closed in the children this process spawns (each child gets
    /// only the ends `run` passes it, as its standard streams).
    private static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .pipe(errno) }
        // Marked before any spawn of this process can happen on another thread would be
        // better (pipe2); the window only lets a concurrent spawn inherit an end it never uses.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// Writes every byte, retrying after interruptions; stops at the first other error (the
    /// child stopped reading).
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    /// Reads `fd` to its end, keeping at most its first `limit` bytes; past that, calls
    /// `onOverflow` once and keeps draining (so the writer is not blocked) without storing.
    static func readBounded(_ fd: Int32, limit: Int, reserve: Int = 0, onOverflow: () -> Void) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(reserve, limit))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var over = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            if over { continue }
            if out.count + n > limit {
                over = true
                onOverflow()
                continue
            }
            out += chunk[0..<n]
        }
        return out
    }

    /// Bytes handed back from a reader thread (written once, read after `DispatchGroup.wait`).
    private final class Box: @unchecked Sendable {
        var bytes: [UInt8] = []
    }
}
