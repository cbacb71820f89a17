import Foundation
import XCTest

/// An entitlements file whose root is an array, a string or a number (holding `*`) passed with
/// no finding; it is a `parse-error` now, however the file comes in: a folder walk, a named file,
/// standard input, the index (`--staged`).
final class EntitlementsRootCLITests: GitTestCase {
    static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
    static let arrayRoot = header + "<array><string>*</string></array>\n</plist>\n"
    static let stringRoot = header + "<string>*</string>\n</plist>\n"
    static let integerRoot = header + "<integer>1</integer>\n</plist>\n"
    /// bplist00 of ["*"].
    static let binaryArrayRoot: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x01, 0x51, 0x2A, 8, 10]
        + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 12]

    func message(_ what: String) -> String {
        "error: cannot parse property list: the root of an entitlements file must be a dictionary (<dict>), not \(what) [parse-error]"
    }

    func testArrayStringAndIntegerRootsHoldingAWildcardAreParseErrors() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.arrayRoot, "Array.entitlements", in: dir)
        try write(Self.stringRoot, "String.entitlements", in: dir)
        try write(Self.integerRoot, "Integer.xcent", in: dir)
        try Data(Self.binaryArrayRoot).write(to: dir.appendingPathComponent("Binary.entitlements"))
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, """
            Array.entitlements:3:1: \(message("an array (<array>)"))
            Binary.entitlements: \(message("an array (<array>)"))
            Integer.xcent:3:1: \(message("an integer (<integer>)"))
            String.entitlements:3:1: \(message("a string (<string>)"))
            4 files checked: 4 errors, 0 warnings, 0 notes

            """)
        // A plist named on the command line is read as entitlements too.
        try write(Self.stringRoot, "Named.plist", in: dir)
        let named = try CLI.run(["lint", "Named.plist"], in: dir)
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stdout.hasPrefix("Named.plist:3:1: \(message("a string (<string>)"))"), named.stdout)
    }

    func testRootArrayOnStandardInputIsAParseError() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.arrayRoot, "in.entitlements", in: dir)
        let p = CLI.process(["lint", "-", "--stdin-filename", "App.entitlements"], in: dir)
        p.standardInput = try FileHandle(forReadingFrom: dir.appendingPathComponent("in.entitlements"))
        let r = try CLI.capture(p)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("App.entitlements:3:1: \(message("an array (<array>)"))"), r.stdout)
    }

    func testStagedRootArrayIsAParseError() throws {
        let dir = try repository()
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]), "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        try git(["commit", "-qm", "one"], in: dir)
        try write(Self.arrayRoot, "App/App.entitlements", in: dir)
        try git(["add", "."], in: dir)
        let r = try entitlint(["lint", "--staged"], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "App/App.entitlements:3:1: \(message("an array (<array>)"))\n1 file checked: 1 error, 0 warnings, 0 notes\n")
    }
}
