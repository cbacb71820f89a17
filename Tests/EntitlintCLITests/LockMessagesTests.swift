import XCTest

/// `lock` says what it did, and each thing the user may act on once per run, not once per unit.
final class LockMessagesTests: XCTestCase {
    func testSymbolicDefaultsAreOneNoteForTheRun() throws {
        let dir = try CLI.temporaryDirectory(self)
        for name in ["One", "Two", "Three", "Four"] {
            try CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])
                .write(to: dir.appendingPathComponent("\(name).entitlements"), atomically: true, encoding: .utf8)
        }
        let r = try CLI.run(["lock"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote entitlint.lock: 4 units locked\n")
        let notes = r.stderr.split(separator: "\n")
        XCTAssertEqual(notes.count, 1, r.stderr)
        XCTAssertTrue(notes.first?.hasPrefix("entitlint: note: 4 units (") == true, r.stderr)
        XCTAssertTrue(r.stderr.contains("recorded symbolically"), r.stderr)

        let withFacts = try CLI.run(["lock", "--team-id", "ABCDE12345", "--bundle-id", "com.example.App"], in: dir)
        XCTAssertFalse(withFacts.stderr.contains("symbolically"), withFacts.stderr)
    }
}
