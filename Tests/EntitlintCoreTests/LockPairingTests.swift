import Foundation
import XCTest
import TestSupport
@testable import EntitlintCore
import PropertyList

/// Lock pairing through indexes: the same pairs as scoring every candidate entry for every unit
/// (the reference below), with work that grows with units plus entries: 10,000 units and 10,000
/// entries of one bundle ID were 10^8 comparisons.
final class LockPairingTests: XCTestCase {
    static let document = PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml)

    static func unit(_ name: String, bundleID: String?, file: String, configuration: String?) -> SigningUnit {
        var unit = SigningUnit(name: name, entitlementsPath: file, document: document,
                               bundleID: bundleID.map { Fact($0, from: .flag("--bundle-id")) })
        if let configuration {
            unit.origin = UnitOrigin(projectFile: "App.xcodeproj/project.pbxproj", projectName: "App", target: name, configuration: configuration, kind: .app)
        }
        return unit
    }

    /// Every free entry of the unit's bundle ID or file scored for each unit in turn.
    static func reference(_ lock: LockFile, _ units: [SigningUnit], all: Set<String>, cwd: String) -> (renamed: [String: String], unpaired: [String]) {
        var free = Set(lock.units.keys).subtracting(all)
        var renamed: [String: String] = [:]
        for unit in units.sorted(by: { $0.name < $1.name }) where lock.units[unit.name] == nil {
            let file = lock.relativeFile(of: unit, cwd: cwd)
            let bundle = unit.bundleID?.value
            let configuration = unit.origin.map { "(\($0.configuration))" }
            var best: (name: String, score: Int)?
            for name in free.sorted() {
                let e = lock.units[name]!
                guard (bundle != nil && e.bundleID == bundle) || e.entitlements == file else { continue }
                var score = 0
                if let b = e.bundleID, b == bundle { score += 4 }
                if e.entitlements == file { score += 2 }
                if let configuration, name.hasSuffix(configuration) { score += 1 }
                if best == nil || score > best!.score || (score == best!.score && name < best!.name) { best = (name, score) }
            }
            if let best {
                renamed[unit.name] = best.name
                free.remove(best.name)
            }
        }
        return (renamed, free.sorted())
    }

    func testIndexedPairingEqualsScoringEveryCandidateOnRandomLocks() {
        var rng = SplitMix64(seed: 2_7)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        let bundles: [String?] = [nil, "com.example.A", "com.example.B", "com.example.C"]
        let files = ["A.entitlements", "B.entitlements", "Shared.entitlements", "x/A.entitlements"]
        let configurations: [String?] = [nil, "Debug", "Release", "Beta (Debug", "Debug)"]
        let stems = ["App", "Notes", "App (Debug)", "Share", "(Debug)", "Widget ("]
        for round in 0..<300 {
            var entries: [String: LockFile.Entry] = [:]
            for _ in 0..<Int(rng.next() % 14) {
                let config = pick(configurations)
                let name = pick(stems) + (config.map { " (\($0))" } ?? "") + (rng.next() % 3 == 0 ? "\(rng.next() % 5)" : "")
                entries[name] = LockFile.Entry(bundleID: pick(bundles), defaultAccessGroup: "g", accessGroups: [],
                                               entitlements: rng.next() % 5 == 0 ? nil : pick(files))
            }
            var units: [SigningUnit] = []
            var seen = Set<String>()
            for i in 0..<Int(rng.next() % 10) {
                let config = pick(configurations)
                let name = rng.next() % 4 == 0 ? pick(Array(entries.keys) + ["U"]) : "Unit\(i)" + (config.map { " (\($0))" } ?? "")
                guard seen.insert(name).inserted else { continue }
                units.append(Self.unit(name, bundleID: pick(bundles), file: "/p/" + pick(files), configuration: config))
            }
            let lock = LockFile(units: entries)
            let all = Set(units.map(\.name)).union(rng.next() % 3 == 0 ? [pick(Array(entries.keys) + ["none"])] : [])
            let got = lock.pair(units, all: all, cwd: "/p")
            let expected = Self.reference(lock, units, all: all, cwd: "/p")
            XCTAssertEqual(got.renamed, expected.renamed, "round \(round)")
            XCTAssertEqual(got.unpaired, expected.unpaired, "round \(round)")
        }
    }

    func testTenThousandUnitsAndEntriesOfOneBundleIDPairInLinearithmicWork() {
        // Every entry and every unit of one bundle ID and file, half of them in a configuration.
        var entries: [String: LockFile.Entry] = [:]
        for i in 0..<10_000 {
            entries[String(format: "Old%05d", i) + (i % 2 == 0 ? " (Debug)" : " (Release)")] =
                LockFile.Entry(bundleID: "com.example.App", defaultAccessGroup: "g", accessGroups: [], entitlements: "App.entitlements")
        }
        let units = (0..<10_000).map { i in
            Self.unit(String(format: "New%05d", i), bundleID: "com.example.App", file: "/p/App.entitlements", configuration: i % 3 == 0 ? "Release" : nil)
        }
        let lock = LockFile(units: entries)
        var work = 0
        let (renamed, unpaired) = lock.pair(units, all: Set(units.map(\.name)), cwd: "/p", work: &work)
        XCTAssertEqual(renamed.count, 10_000)
        XCTAssertEqual(unpaired, [])
        // The first unit in a configuration takes the first entry of it.
        XCTAssertEqual(renamed["New00000"], "Old00001 (Release)")
        XCTAssertEqual(renamed["New00001"], "Old00000 (Debug)")
        // (units + entries) x log2(entries) x a small constant; scoring every candidate was 5 x 10^7.
        XCTAssertLessThanOrEqual(work, 20_000 * 14 * 6, "work \(work)")
    }
}
