import XCTest
import TestSupport
@testable import EntitlintCore
import PropertyList
import Provisioning

/// Profile pairing through `ProfileIndex`: the same choice as comparing every unit with every
/// profile (the reference below is that comparison), at a cost that does not grow with the number
/// of profiles (5,000 profiles x 1,000 units was five million pattern checks).
final class ProfileIndexTests: XCTestCase {
    /// Every profile checked against the unit: the choice `ProfileIndex` must reproduce.
    static func reference(for unit: SigningUnit, among profiles: [ProfileFile]) -> ProfileFile? {
        guard let bundle = unit.bundleID?.value else { return nil }
        var best: (ProfileFile, Int)?
        for p in profiles {
            guard let pattern = p.profile.applicationIdentifier, let dot = pattern.firstIndex(of: ".") else { continue }
            let prefix = String(pattern[..<dot])
            if let known = unit.appIDPrefix?.value, known != prefix { continue }
            let rest = String(pattern[pattern.index(after: dot)...])
            guard ProfileAllowlist.allows(pattern: rest, value: bundle) else { continue }
            let score = rest.hasSuffix("*") ? rest.count - 1 : rest.count + 1000
            if best == nil || score > best!.1 || (score == best!.1 && p.path < best!.0.path) { best = (p, score) }
        }
        return best?.0
    }

    static func profile(_ appID: String?, path: String, uuid: String? = nil, name: String? = nil) -> ProfileFile {
        ProfileFile(path: path, profile: ProvisioningProfile(name: name, uuid: uuid, applicationIdentifier: appID))
    }

    static func unit(bundle: String?, prefix: String?) -> SigningUnit {
        var u = SigningUnit(name: "U", entitlementsPath: "U.entitlements", document: PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml))
        if let bundle { u.bundleID = Fact(bundle, from: .flag("--bundle-id")) }
        if let prefix { u.appIDPrefix = Fact(prefix, from: .flag("--team-id")) }
        return u
    }

    func testIndexChoosesAsComparingEveryProfileOnRandomProfiles() {
        var rng = SplitMix64(seed: 27)
        let parts = ["com", "example", "app", "a", "ab", "x", "App", "shared"]
        func stem(_ n: Int) -> String { (0..<n).map { _ in parts[Int(rng.next() % UInt64(parts.count))] }.joined(separator: ".") }
        for round in 0..<200 {
            var profiles: [ProfileFile] = []
            for i in 0..<Int(rng.next() % 12) {
                let team = ["ABCDE12345", "ZYXWV98765", ""][Int(rng.next() % 3)]
                let s = stem(Int(rng.next() % 4))
                let appID: String?
                switch rng.next() % 6 {
                case 0: appID = "\(team).*"
                case 1, 2: appID = "\(team).\(s)\(s.isEmpty ? "" : ".")*"
                case 3: appID = "\(team).\(s)*"
                case 4: appID = "\(team).\(s)"
                default: appID = rng.next() % 2 == 0 ? nil : team + s
                }
                // Paths repeat, so ties on score and path are decided by the order of the list.
                profiles.append(Self.profile(appID, path: "p\(rng.next() % 4)/\(i % 3)"))
            }
            let index = ProfileIndex(profiles)
            for _ in 0..<10 {
                let u = Self.unit(bundle: rng.next() % 8 == 0 ? nil : stem(1 + Int(rng.next() % 3)),
                                  prefix: [nil, "ABCDE12345", "ZYXWV98765", ""][Int(rng.next() % 4)])
                let expected = Self.reference(for: u, among: profiles)
                let got = index.best(for: u)
                XCTAssertEqual(got, expected, "round \(round): \(u.bundleID?.value ?? "-") \(u.appIDPrefix?.value ?? "-") among \(profiles.map { "\($0.path)=\($0.profile.applicationIdentifier ?? "-")" })")
            }
        }
    }

    func testFiveThousandProfilesAndAThousandUnitsCostTheBundleIDsNotTheProduct() {
        var profiles: [ProfileFile] = []
        for i in 0..<5_000 {
            let appID = i % 2 == 0 ? "ABCDE12345.com.example.app\(i)" : "ABCDE12345.com.example.app\(i).*"
            profiles.append(Self.profile(appID, path: "Profiles/\(i).mobileprovision"))
        }
        profiles.append(Self.profile("ABCDE12345.*", path: "Profiles/wild.mobileprovision"))
        let index = ProfileIndex(profiles)
        var work = 0
        var paired = 0
        for u in 0..<1_000 {
            let unit = Self.unit(bundle: "com.example.app\(u * 5).widget", prefix: u % 2 == 0 ? "ABCDE12345" : nil)
            if let m = index.best(for: unit, work: &work) {
                paired += 1
                // The reference is the slow product this replaces: checked on a sample of units.
                if u % 50 == 0 { XCTAssertEqual(index.profiles[m.position], Self.reference(for: unit, among: profiles)) }
            }
        }
        XCTAssertEqual(paired, 1_000)
        // Each unit: its bundle ID's bytes and the nodes on the way, not 5,001 profiles.
        XCTAssertLessThanOrEqual(work, 1_000 * 64, "work \(work)")
    }

    func testManyProfilesOfOneStemAreLookedAtOncePerUnit() {
        // 5,000 profiles of the same pattern: the first by path is taken without a scan.
        let profiles = (0..<5_000).map { Self.profile("ABCDE12345.com.example.*", path: String(format: "P/%05d", 4_999 - $0)) }
        let index = ProfileIndex(profiles)
        var work = 0
        for _ in 0..<1_000 {
            XCTAssertEqual(index.best(for: Self.unit(bundle: "com.example.App", prefix: "ABCDE12345"), work: &work).map { index.profiles[$0.position].path }, "P/00000")
        }
        XCTAssertLessThanOrEqual(work, 1_000 * 32, "work \(work)")
    }

    func testExcludedProfilesAreSkippedAndUUIDAndNameLookupsFollowTheOrder() {
        let profiles = [
            Self.profile("ABCDE12345.com.example.*", path: "b", uuid: "AAAA", name: "Dev"),
            Self.profile("ABCDE12345.com.example.*", path: "a", uuid: "aaaa", name: "Dev"),
            Self.profile("ABCDE12345.com.*", path: "c", uuid: "BBBB", name: "Other"),
        ]
        let index = ProfileIndex(profiles, keys: ["/abs/b", "/abs/a", "/abs/c"])
        let u = Self.unit(bundle: "com.example.App", prefix: nil)
        var work = 0
        XCTAssertEqual(index.best(for: u, work: &work).map { index.profiles[$0.position].path }, "a")
        XCTAssertEqual(index.best(for: u, excluding: ["/abs/a"], work: &work).map { index.profiles[$0.position].path }, "b")
        XCTAssertEqual(index.best(for: u, excluding: ["/abs/a", "/abs/b"], work: &work).map { index.profiles[$0.position].path }, "c")
        // `first(uuid:)` is the first in the run's order, ignoring case; the specifier lookup the smallest path.
        XCTAssertEqual(index.first(uuid: "aaaa")?.path, "b")
        XCTAssertEqual(index.first(uuid: "AAAA", excluding: ["/abs/b"])?.path, "a")
        XCTAssertEqual(index.smallestPath(named: "Dev", orUUID: "x")?.path, "a")
        XCTAssertEqual(index.smallestPath(named: "none", orUUID: "bbbb")?.path, "c")
    }
}
