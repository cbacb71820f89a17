import Foundation
import XCTest

/// A unit renamed together with its bundle ID and its file, against the lock file: the entry it
/// was is found by nothing it still shares, so the run pairs the only new unit and the only
/// orphaned entry of a folder as a likely rename (an assumption: a warning at most), and reports
/// an orphaned entry whose file is gone from the folder of a file it read, even when one file is named.
final class LockRenameTests: GitTestCase {
    let own = "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"

    /// `App/OldName.entitlements` (bundle ID com.example.OldName) and `App/Kept.entitlements`
    /// locked, then `OldName` renamed to `NewName` (unless `keepOld`), `extra` written beside.
    func renamedFolder(extra: [String] = [], keepOld: Bool = false) throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        for name in ["OldName", "Kept"] {
            try write(CLI.entitlements([own]), "App/\(name).entitlements", in: dir)
            let lock = try entitlint(["lock", "App/\(name).entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.\(name)"], in: dir)
            XCTAssertEqual(lock.status, 0, lock.stderr)
        }
        let lockText = try String(contentsOf: dir.appendingPathComponent("entitlint.lock"), encoding: .utf8)
        XCTAssertTrue(lockText.contains("\"OldName\"") && lockText.contains("\"Kept\""), lockText)
        if !keepOld { try FileManager.default.removeItem(at: dir.appendingPathComponent("App/OldName.entitlements")) }
        for name in ["NewName"] + extra { try write(CLI.entitlements([own]), "App/\(name).entitlements", in: dir) }
        return dir
    }

    func testTheOnlyNewUnitAndTheOnlyOrphanedEntryOfAFolderAreComparedAsALikelyRename() throws {
        let dir = try renamedFolder()
        let run = try entitlint(["lint", "App/NewName.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.NewName",
                                 "--format", "json"], in: dir)
        XCTAssertEqual(run.status, 0, "a warning: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("default access group changed from \\\"ABCDE12345.com.example.OldName\\\" (lock file) to \\\"ABCDE12345.com.example.NewName\\\" because the bundle ID changed from com.example.OldName to com.example.NewName"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\"severity\" : \"warning\"") || run.stdout.contains("\"severity\":\"warning\""), run.stdout)
        XCTAssertTrue(run.stdout.contains("compared with lock entry \\\"OldName\\\" (App/OldName.entitlements) as a likely rename"), run.stdout)
        XCTAssertFalse(run.stdout.contains("matches no unit of this run"), "the entry is explained by the rename: \(run.stdout)")
    }

    func testWithTwoNewUnitsNothingIsPairedAndTheGoneEntryIsANote() throws {
        let dir = try renamedFolder(extra: ["Other"])
        let run = try entitlint(["lint", "App/NewName.entitlements", "App/Other.entitlements", "--team-id", "ABCDE12345"], in: dir)
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertFalse(run.stdout.contains("likely rename"), run.stdout)
        XCTAssertFalse(run.stdout.contains("default-group-drift]") && run.stdout.contains("warning:"), run.stdout)
        XCTAssertTrue(run.stdout.contains("note: lock entry \"OldName\" (App/OldName.entitlements) matches no unit of this run"), run.stdout)
    }

    func testOneLockedFileNamedReportsTheEntryWhoseFileIsGoneFromItsFolder() throws {
        let dir = try renamedFolder()
        let run = try entitlint(["lint", "App/Kept.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.Kept"], in: dir)
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(run.stdout.contains("note: lock entry \"OldName\" (App/OldName.entitlements) matches no unit of this run"), run.stdout)
        XCTAssertFalse(run.stdout.contains("likely rename"), run.stdout)
    }

    func testAnEntryWhoseFileIsStillThereIsNotOrphanedByARunOverAnotherFile() throws {
        let dir = try renamedFolder(keepOld: true)
        let run = try entitlint(["lint", "App/NewName.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.NewName"], in: dir)
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertFalse(run.stdout.contains("OldName"), run.stdout)
    }
    /// `OldName` locked by a lock file older than entries recording their file (its `entitlements`
    /// field removed), its file then renamed to `NewName`; `extra` written beside.
    func renamedWithoutRecordedFile(extra: [String] = []) throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements([own]), "App/OldName.entitlements", in: dir)
        let lock = try entitlint(["lock", "App/OldName.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.OldName"], in: dir)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let lockURL = dir.appendingPathComponent("entitlint.lock")
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: lockURL)) as? [String: Any])
        var entries = try XCTUnwrap(json["units"] as? [String: Any])
        var old = try XCTUnwrap(entries["OldName"] as? [String: Any])
        XCTAssertNotNil(old.removeValue(forKey: "entitlements"), "the entry recorded its file: \(old)")
        entries["OldName"] = old
        json["units"] = entries
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(to: lockURL)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("App/OldName.entitlements"))
        for name in ["NewName"] + extra { try write(CLI.entitlements([own]), "App/\(name).entitlements", in: dir) }
        return dir
    }

    func testAnEntryRecordingNoFileIsComparedWithTheRunsOnlyNewUnitAsALikelyRename() throws {
        let dir = try renamedWithoutRecordedFile()
        let run = try entitlint(["lint", ".", "--team-id", "ABCDE12345", "--bundle-id", "com.example.NewName"], in: dir)
        XCTAssertEqual(run.status, 0, "a warning: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("default access group changed from \"ABCDE12345.com.example.OldName\" (lock file) to \"ABCDE12345.com.example.NewName\" because the bundle ID changed from com.example.OldName to com.example.NewName"), run.stdout)
        XCTAssertTrue(run.stdout.contains("warning:"), run.stdout)
        XCTAssertTrue(run.stdout.contains("compared with lock entry \"OldName\" as a likely rename: \"NewName\" is the only new unit of this run, and \"OldName\" the only entry recording no file that matches no unit"), run.stdout)
        XCTAssertFalse(run.stdout.contains("matches no unit of this run"), "the entry is explained by the rename: \(run.stdout)")
    }

    func testAnEntryRecordingNoFileIsNotPairedWhenTheRunHasTwoNewUnits() throws {
        let dir = try renamedWithoutRecordedFile(extra: ["Other"])
        let run = try entitlint(["lint", ".", "--team-id", "ABCDE12345", "--bundle-id", "com.example.NewName"], in: dir)
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertFalse(run.stdout.contains("likely rename"), run.stdout)
        XCTAssertFalse(run.stdout.contains("default access group changed"), run.stdout)
        XCTAssertTrue(run.stdout.contains("note: lock entry \"OldName\" matches no unit of this run"), run.stdout)
    }
}
