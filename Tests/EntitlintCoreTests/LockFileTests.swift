import Foundation
import XCTest
@testable import EntitlintCore
import PropertyList

/// The lock file's format across versions, and how a run's units pair with its entries.
final class LockFileTests: XCTestCase {
    func unit(_ name: String, bundleID: String?, file: String, configuration: String? = nil) throws -> SigningUnit {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n"
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(text.utf8), path: file, limits: .default) else {
            throw XCTSkip("unreachable: the document parses")
        }
        var unit = SigningUnit(name: name, entitlementsPath: file, document: document,
                               bundleID: bundleID.map { Fact($0, from: .flag("--bundle-id")) })
        if let configuration {
            unit.origin = UnitOrigin(projectFile: "App.xcodeproj/project.pbxproj", projectName: "App", target: name, configuration: configuration, kind: .app)
        }
        return unit
    }

    func entry(_ bundleID: String?, file: String?) -> LockFile.Entry {
        LockFile.Entry(bundleID: bundleID, defaultAccessGroup: "ABCDE12345.\(bundleID ?? "x")", accessGroups: [], entitlements: file)
    }

    /// A target renamed in both configurations takes each configuration's entry; an entry that
    /// a unit of the run names is never taken by another; what is left is unpaired.
    func testRenamedUnitsPairByBundleIDThenFileThenConfiguration() throws {
        let lock = LockFile(units: [
            "App (Debug)": entry("com.example.App", file: "App/App.entitlements"),
            "App (Release)": entry("com.example.App", file: "App/App.entitlements"),
            "Kept": entry("com.example.App", file: "App/App.entitlements"),
            "Gone": entry("com.example.Gone", file: "Gone/Gone.entitlements"),
            "SameFile": entry("com.example.Other", file: "Shared.entitlements"),
        ])
        let units = [
            try unit("Notes (Release)", bundleID: "com.example.App", file: "App/App.entitlements", configuration: "Release"),
            try unit("Notes (Debug)", bundleID: "com.example.App", file: "App/App.entitlements", configuration: "Debug"),
            try unit("Kept", bundleID: "com.example.App", file: "App/App.entitlements"),
            try unit("Renamed", bundleID: "com.example.New", file: "Shared.entitlements"),
            try unit("New", bundleID: "com.example.Brand", file: "Brand.entitlements"),
        ]
        let cwd = "/project"
        let (renamed, unpaired) = lock.pair(units, all: Set(units.map(\.name)), cwd: cwd)
        XCTAssertEqual(renamed, ["Notes (Debug)": "App (Debug)", "Notes (Release)": "App (Release)", "Renamed": "SameFile"])
        XCTAssertEqual(unpaired, ["Gone"])
        XCTAssertTrue(lock.hasReference(for: units[3], cwd: cwd), "by file")
        XCTAssertFalse(lock.hasReference(for: units[4], cwd: cwd))
    }

    /// A lock of the first format (no file, facts or sources) decodes, and encodes back the same.
    func testFirstFormatRoundTrips() throws {
        let old = """
        {
          "units" : {
            "App" : {
              "access-groups" : [
                "ABCDE12345.com.example.App"
              ],
              "bundle-id" : "com.example.App",
              "default-access-group" : "ABCDE12345.com.example.App"
            }
          },
          "version" : 1
        }

        """
        let lock = try JSONDecoder().decode(LockFile.self, from: Data(old.utf8))
        XCTAssertNil(lock.units["App"]?.entitlements)
        XCTAssertNil(lock.units["App"]?.sources)
        XCTAssertFalse(lock.units["App"]!.prefixWasGuessed)
        XCTAssertEqual(String(decoding: lock.encoded(), as: UTF8.self), old)
        XCTAssertEqual(lock.lines(of: ["App", "Nope"]), ["App": 3, "Nope": 1])
    }
}
