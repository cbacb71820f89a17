import XCTest
@testable import EntitlintCore
import PropertyList
import Provisioning

/// The precedence of `FactResolver`, as a table: which slot gives each fact for the combinations of
/// present and absent sources that decide it, and the certainty of what it gives.
final class FactResolverTests: XCTestCase {
    /// What a row expects of one fact.
    enum Expect: Equatable {
        /// The value that slot offered, known.
        case from(FactSlot)
        /// The value the team's slot offered, taken as the App ID prefix, with that certainty.
        case teamAsPrefix(FactSlot, assumed: Bool)
        /// No value; unknown for this reason.
        case unknown(String)
    }

    struct Row {
        var kind: FactKind
        var offers: [FactKind: [FactSlot]]
        var unknown: [FactKind: [FactSlot: String]] = [:]
        var expect: Expect
        var line: UInt
    }

    static func source(_ slot: FactSlot) -> FactSource {
        switch slot {
        case .flag: return .flag("--team-id")
        case .buildSetting: return .xcode("DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:7")
        case .configApp, .config: return .config(".entitlint.yml")
        case .builtProduct: return .derived("CFBundleIdentifier of App.app")
        case .entitlements: return .entitlements(key: "application-identifier")
        case .profile: return .profile("App.mobileprovision")
        case .team: return .derived("never offered")
        }
    }

    static func value(_ kind: FactKind, _ slot: FactSlot) -> String { "\(kind)-\(slot)" }

    static let missing = "DEVELOPMENT_TEAM comes from Config/Local.xcconfig, which this checkout lacks"

    static let rows: [Row] = [
        // Team ID: flag > build setting > config app > config > profile > the file's team-identifier.
        Row(kind: .teamID, offers: [.teamID: [.flag, .buildSetting, .configApp, .config, .profile, .entitlements]], expect: .from(.flag), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.buildSetting, .configApp, .config, .profile, .entitlements]], expect: .from(.buildSetting), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.configApp, .config, .profile, .entitlements]], expect: .from(.configApp), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.config, .profile, .entitlements]], expect: .from(.config), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.profile, .entitlements]], expect: .from(.profile), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.entitlements]], expect: .from(.entitlements), line: #line),
        Row(kind: .teamID, offers: [:], expect: .unknown("nothing states it"), line: #line),
        // A setting only a missing file sets: unknown, with why, unless a lower slot states it.
        Row(kind: .teamID, offers: [:], unknown: [.teamID: [.buildSetting: missing]], expect: .unknown(missing), line: #line),
        Row(kind: .teamID, offers: [.teamID: [.config]], unknown: [.teamID: [.buildSetting: missing]], expect: .from(.config), line: #line),
        // Bundle ID: flag > build setting > config app > built product > the file's application-identifier > profile.
        Row(kind: .bundleID, offers: [.bundleID: [.flag, .buildSetting, .configApp, .builtProduct, .entitlements, .profile]], expect: .from(.flag), line: #line),
        Row(kind: .bundleID, offers: [.bundleID: [.buildSetting, .configApp, .builtProduct, .entitlements, .profile]], expect: .from(.buildSetting), line: #line),
        Row(kind: .bundleID, offers: [.bundleID: [.configApp, .builtProduct, .entitlements, .profile]], expect: .from(.configApp), line: #line),
        Row(kind: .bundleID, offers: [.bundleID: [.builtProduct, .entitlements, .profile]], expect: .from(.builtProduct), line: #line),
        Row(kind: .bundleID, offers: [.bundleID: [.entitlements, .profile]], expect: .from(.entitlements), line: #line),
        Row(kind: .bundleID, offers: [.bundleID: [.profile]], expect: .from(.profile), line: #line),
        Row(kind: .bundleID, offers: [:], expect: .unknown("nothing states it"), line: #line),
        // App ID prefix: profile > the file's application-identifier > the Team ID (assumed unless stated).
        Row(kind: .appIDPrefix, offers: [.appIDPrefix: [.profile, .entitlements], .teamID: [.flag]], expect: .from(.profile), line: #line),
        Row(kind: .appIDPrefix, offers: [.appIDPrefix: [.entitlements], .teamID: [.flag]], expect: .from(.entitlements), line: #line),
        Row(kind: .appIDPrefix, offers: [.teamID: [.flag]], expect: .teamAsPrefix(.flag, assumed: false), line: #line),
        Row(kind: .appIDPrefix, offers: [.teamID: [.config]], expect: .teamAsPrefix(.config, assumed: false), line: #line),
        Row(kind: .appIDPrefix, offers: [.teamID: [.configApp]], expect: .teamAsPrefix(.configApp, assumed: false), line: #line),
        Row(kind: .appIDPrefix, offers: [.teamID: [.buildSetting]], expect: .teamAsPrefix(.buildSetting, assumed: true), line: #line),
        Row(kind: .appIDPrefix, offers: [.teamID: [.entitlements]], expect: .teamAsPrefix(.entitlements, assumed: true), line: #line),
        Row(kind: .appIDPrefix, offers: [:], expect: .unknown("nothing states it"), line: #line),
        Row(kind: .appIDPrefix, offers: [:], unknown: [.teamID: [.buildSetting: missing]], expect: .unknown(missing), line: #line),
    ]

    func testEachRowResolvesAsThePrecedenceTableSays() {
        for row in Self.rows {
            var r = FactResolver()
            for (kind, slots) in row.offers {
                for slot in slots { r.offer(kind, from: slot, Fact(Self.value(kind, slot), from: Self.source(slot))) }
            }
            for (kind, slots) in row.unknown {
                for (slot, why) in slots { r.offerUnknown(kind, from: slot, why: why) }
            }
            let got = r.resolve(row.kind)
            switch row.expect {
            case .from(let slot):
                XCTAssertEqual(got, .value(Fact(Self.value(row.kind, slot), from: Self.source(slot))), line: row.line)
                XCTAssertEqual(got.fact?.certainty, .known, line: row.line)
            case .teamAsPrefix(let slot, let assumed):
                let fact = got.fact
                XCTAssertEqual(fact?.value, Self.value(.teamID, slot), line: row.line)
                XCTAssertEqual(fact?.certainty.isAssumed, assumed, line: row.line)
                XCTAssertTrue(fact?.source.description.hasPrefix("App ID prefix taken to be the Team ID (") == true, line: row.line)
            case .unknown(let why):
                XCTAssertEqual(got, .unknown(why), line: row.line)
            }
        }
    }

    /// The table covers every kind it orders, and orders each slot at most once.
    func testThePrecedenceTableNamesEachSlotOnce() {
        for (kind, slots) in FactResolver.precedence {
            XCTAssertEqual(Set(slots).count, slots.count, "\(kind)")
            XCTAssertTrue(Self.rows.contains { $0.kind == kind }, "\(kind) has no row")
        }
    }

    func testTheFilesOwnFactsAndTheProfilesAreOfferedAsTheirSlots() throws {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>application-identifier</key><string>ZYXWV98765.com.example.App</string>"
            + "<key>com.apple.developer.team-identifier</key><string>ZYXWV98765</string></dict></plist>"
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(xml.utf8), path: "App.entitlements", limits: .default) else {
            return XCTFail("not parsed")
        }
        var r = FactResolver()
        r.offerEntitlements(document.root.dict!)
        XCTAssertEqual(r.resolve(.bundleID), .value(Fact("com.example.App", from: .entitlements(key: "application-identifier"))))
        XCTAssertEqual(r.resolve(.appIDPrefix), .value(Fact("ZYXWV98765", from: .entitlements(key: "application-identifier"))))
        XCTAssertEqual(r.resolve(.teamID), .value(Fact("ZYXWV98765", from: .entitlements(key: "com.apple.developer.team-identifier"))))
        let profile = ProfileFile(path: "App.mobileprovision", profile: ProvisioningProfile(
            teamIdentifiers: ["ABCDE12345"], applicationIdentifierPrefixes: ["ABCDE12345"], applicationIdentifier: "ABCDE12345.com.example.Other"))
        r.offerProfile(profile)
        // The profile's prefix wins over the file's literal one; the file's bundle ID over the profile's.
        XCTAssertEqual(r.resolve(.appIDPrefix), .value(Fact("ABCDE12345", from: .profile("App.mobileprovision"))))
        XCTAssertEqual(r.resolve(.bundleID).fact?.value, "com.example.App")
        XCTAssertEqual(r.resolve(.teamID), .value(Fact("ABCDE12345", from: .profile("App.mobileprovision"))))
    }

    /// A unit records why an unresolved fact is unknown, and says how far each fact is known.
    func testAUnitSaysHowFarEachFactIsKnown() {
        var unit = SigningUnit(name: "U", entitlementsPath: "U.entitlements", document: PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml))
        var r = FactResolver()
        r.offerUnknown(.teamID, from: .buildSetting, why: Self.missing)
        r.offer(.bundleID, from: .flag, Fact("com.example.App", from: .flag("--bundle-id")))
        r.apply(to: &unit)
        XCTAssertNil(unit.teamID)
        XCTAssertEqual(unit.certainty(of: .teamID), .unknown(Self.missing))
        XCTAssertEqual(unit.certainty(of: .appIDPrefix), .unknown(Self.missing))
        XCTAssertEqual(unit.certainty(of: .bundleID), .known)
        XCTAssertEqual(unit.certainty(of: .profile), .unknown("nothing states the profile"))
        var stated = FactResolver()
        stated.offer(.teamID, from: .buildSetting, Fact("ABCDE12345", from: Self.source(.buildSetting)))
        stated.apply(to: &unit)
        XCTAssertEqual(unit.unknownFacts, [:])
        XCTAssertEqual(unit.certainty(of: .appIDPrefix), .assumed("App ID prefix taken to be the Team ID (DEVELOPMENT_TEAM at App.xcodeproj/project.pbxproj:7)"))
    }
}
