import Foundation
import XCTest

/// Integers read from inputs (a baseline's counts, the lock file's version, numbers and limits in
/// `.entitlint.yml`, limit flags) through the built `entitlint`: a value out of range is a usage
/// error naming the file and the key, never a trap (a signal, exit 132).
final class InputIntegerCLITests: XCTestCase, WritesFixtures {
    func run(_ args: [String], in dir: URL, file: StaticString = #filePath, line: UInt = #line) throws -> CLI.Result {
        try runBounded(args, in: dir, seconds: 60, file: file, line: line)
    }

    func testHostileBaselineCountOfInt64MaxIsAUsageErrorNotATrap() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        let entry = #"{"rule": "wildcard-access-group", "path": "A.entitlements", "key-path": "keychain-access-groups[0]", "count": 9223372036854775807}"#
        try write(#"{"version": 1, "findings": [\#(entry), \#(entry)]}"#, "b.json", in: dir)
        for args in [["lint", "--baseline", "b.json"], ["lint", "--baseline", "b.json", "--write-baseline", "b.json"], ["lint", "--write-baseline", "b.json"]] {
            let r = try run(args, in: dir)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stdout + r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("entitlint: the baseline b.json is not valid: bad value at .findings[0].count: 9223372036854775807 is not a count (a whole number from 1 to 1000000000)"),
                          "\(args): \(r.stderr)")
        }
    }

    func testNegativeBaselineCountIsAUsageErrorNamingTheKey() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        try write(#"{"version": 1, "findings": [{"rule": "r", "path": "A.entitlements"}, {"rule": "r", "path": "A.entitlements", "count": -9223372036854775808}]}"#,
                  "b.json", in: dir)
        let r = try run(["lint", "--baseline", "b.json"], in: dir)
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertEqual(r.stderr, "entitlint: the baseline b.json is not valid: bad value at .findings[1].count: -9223372036854775808 is not a count (a whole number from 1 to 1000000000)\n")
    }

    func testHugeLockVersionIsAUsageErrorNamingTheKey() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["ABCDE12345.com.example.App"]), "A.entitlements", in: dir)
        try write(#"{"version": 123456789012345678901234567890, "units": {}}"#, "entitlint.lock", in: dir)
        let r = try run(["lint", "--lock", "entitlint.lock", "--team-id", "ABCDE12345", "."], in: dir)
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("lock file entitlint.lock is not valid: bad value at .version: 1.2345678901234568e+29 is not a version"), r.stderr)
    }

    func testBaseSixtyNumberInTheConfigurationIsABadConfigurationNotATrap() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        let huge = "1" + String(repeating: ":00", count: 12)
        for config in ["profile-expiring-days: \(huge)\n", "limits:\n  max-findings: \(huge)\n"] {
            try write(config, ".entitlint.yml", in: dir)
            let r = try run(["lint", "."], in: dir)
            XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("entitlint: bad configuration: .entitlint.yml:"), r.stderr)
            XCTAssertTrue(r.stderr.contains("not '\(huge)'"), r.stderr)
        }
    }

    func testHugeConfigurationLimitsAreLoweredToTheCeilingsWithANote() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        try write("limits: {max-file-size: 9223372036854775807, max-total-bytes: 0x7fffffffffffffff, max-elements: 9223372036854775807}\n", ".entitlint.yml", in: dir)
        let r = try run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("[wildcard-access-group]"), r.stdout)
        for name in ["max-file-size", "max-total-bytes", "max-elements"] {
            XCTAssertTrue(r.stderr.contains("sets limits.\(name) to 9223372036854775807, above"), r.stderr)
        }
    }

    func testEveryLimitFlagAtIntMaxReadsXMLAndBinaryPlistsWithoutATrap() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["*"]), "A.entitlements", in: dir)
        // bplist00 of { "keychain-access-groups": ["*"] }, written by hand.
        var bplist = Array("bplist00".utf8)
        let objects: [[UInt8]] = [[0xD1, 0x01, 0x02], [0x5F, 0x10, 0x16] + Array("keychain-access-groups".utf8), [0xA1, 0x03], [0x51, 0x2A]]
        var offsets: [UInt8] = []
        for o in objects { offsets.append(UInt8(bplist.count)); bplist += o }
        let tableOffset = UInt8(bplist.count)
        bplist += offsets
        bplist += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, tableOffset]
        try Data(bplist).write(to: dir.appendingPathComponent("B.entitlements"))
        let max = String(Int.max)
        let flags = ["max-file-size", "max-depth", "max-elements", "max-total-bytes", "max-findings", "max-output-bytes"].flatMap { ["--\($0)", max] }
        let r = try run(["lint", "."] + flags, in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("A.entitlements:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("B.entitlements: error: keychain access group \"*\""), r.stdout)
    }
}
