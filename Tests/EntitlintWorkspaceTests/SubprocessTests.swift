import XCTest
@testable import EntitlintWorkspace

/// The spawn-and-wait helper git runs through: exit codes, signals, the three streams, bounds.
final class SubprocessTests: XCTestCase {
    func sh(_ script: String, input: [UInt8]? = nil, limit: Int = 1 << 20) throws -> Subprocess.Result {
        try Subprocess.run("/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], input: input, limit: limit)
    }

    func testStandardInputIsFedAndOutputAndErrorComeBackApart() throws {
        let r = try sh("cat; echo oops >&2; exit 3", input: Array("hello\n".utf8))
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "hello\n")
        XCTAssertEqual(String(decoding: r.stderr, as: UTF8.self), "oops\n")
        XCTAssertFalse(r.overflowed)
    }

    func testTheEnvironmentIsExactlyTheOneGiven() throws {
        setenv("ENTITLINT_SUBPROCESS_PROBE", "leaked", 1)
        defer { unsetenv("ENTITLINT_SUBPROCESS_PROBE") }
        let r = try sh("echo \"[$ENTITLINT_SUBPROCESS_PROBE]\"")
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "[]\n")
    }

    func testOutputPastTheLimitStopsTheChildAndIsDropped() throws {
        // A grandchild (the shell starts `yes`) writes forever: only the limit and the SIGTERM to
        // the whole process group end it.
        let r = try sh("yes entitlint", limit: 4096)
        XCTAssertTrue(r.overflowed)
        XCTAssertLessThanOrEqual(r.stdout.count, 4096)
        XCTAssertEqual(r.status, 128 + SIGTERM)
    }

    func testALargeInputToAChildThatStopsReadingDoesNotHang() throws {
        // 8 MiB offered, none read: the writer gets EPIPE (never SIGPIPE) and the run ends.
        let r = try sh("exit 0", input: [UInt8](repeating: 65, count: 8 << 20))
        XCTAssertEqual(r.status, 0)
    }

    func testAMissingExecutableIsASpawnFailure() {
        XCTAssertThrowsError(try Subprocess.run("/nonexistent/entitlint-probe", [], environment: [:], input: nil, limit: 1024))
    }
}
