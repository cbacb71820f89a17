import EntitlintCore
import EntitlintRules
import Foundation
import PropertyList
import Provisioning
import XCTest

/// The profile rules on the real profiles of `../shared/corpus/profiles`:
/// expired and App Store ones, the development ones, the prefix != team ones, DER copies.
final class CorpusProfileRuleTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/profiles")

    static let appStore = "fastlane__fastlane__match__spec__fixtures__existing__profiles__appstore__Fastlane_PR_test_2.mobileprovision"
    static let development = "fastlane__fastlane__match__spec__fixtures__existing__profiles__appstore__jigx_test_development.mobileprovision"
    static let permissions = "calabash__iOSDeviceManager__Tests__Resources__profiles__PermissionsDevelopment@7744e83.mobileprovision"
    static let legacyPrefix = "calabash__iOSDeviceManager__Tests__Resources__profiles__LJS@7e5fc40.mobileprovision"
    static let adHoc = "calabash__iOSDeviceManager__Tests__Resources__profiles__CalabashWildcardAdHocDistribution.mobileprovision"

    func profile(_ name: String) throws -> ProfileFile {
        let url = Self.root.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("../shared/corpus is absent") }
        return ProfileFile(path: name, profile: try ProfileDecoder.decode(Array(try Data(contentsOf: url))))
    }

    /// Without the corpus every test here skips, once, before any assertion (a skip thrown inside
    /// an assertion's expression would be recorded as a failure).
    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.root.path),
                          "../shared/corpus is absent (../shared beside the repository holds the real profiles): corpus profile tests skipped")
    }

    static func day(_ text: String) -> PlistDate { CheckSettings.parseDate(text)! }

    /// The findings of every rule for an app with this entitlements body, signed with `profile`.
    func findings(_ body: String, bundleID: String, profile name: String, on date: String = "2026-06-01") throws -> [Finding] {
        let linter = Linter(rules: RuleRegistry.all)
        let document = try PropertyListReader.parse(Plist.xml(body))
        let unit = linter.unit(document: document, path: "App.entitlements", bundleID: bundleID, profile: try profile(name))
        return linter.check(unit, settings: CheckSettings(now: Self.day(date)))
    }

    func rules(_ body: String, bundleID: String, profile name: String, on date: String = "2026-06-01") throws -> Set<String> {
        Set(try findings(body, bundleID: bundleID, profile: name, on: date).map(\.rule))
    }

    func testExpiryOfARealAppStoreProfile() throws {
        // Fastlane PR test 2 expires 2024-06-29T12:24:39Z.
        let body = "<key>aps-environment</key><string>development</string>"
        XCTAssertTrue(try rules(body, bundleID: "com.jigx.test.ios", profile: Self.appStore).contains("profile-expired"))
        let expiring = try findings(body, bundleID: "com.jigx.test.ios", profile: Self.appStore, on: "2024-06-15").filter { $0.rule == "profile-expiring" }
        XCTAssertEqual(expiring.count, 1)
        XCTAssertTrue(expiring[0].message.contains("in 14 days"), expiring[0].message)
        XCTAssertEqual(try rules(body, bundleID: "com.jigx.test.ios", profile: Self.appStore, on: "2023-07-01"), [])
    }

    func testExpiredCertificateOfAValidProfile() throws {
        // jigx test development: the certificate expires 2024-04-12, the profile 2024-06-29.
        let f = try findings("", bundleID: "com.jigx.test.ios", profile: Self.development, on: "2024-05-01")
        XCTAssertEqual(f.map(\.rule), ["certificate-expired"])
        XCTAssertEqual(f.first?.severity, .error)
        XCTAssertTrue(f[0].message.contains("Apple Development: Stanislav Gribushin (S3JX7544MC)"), f[0].message)
        XCTAssertEqual(try rules("", bundleID: "com.jigx.test.ios", profile: Self.development, on: "2024-04-01"), [])
    }

    func testDistributionProfilesAgainstGetTaskAllow() throws {
        let body = "<key>get-task-allow</key><true/>"
        XCTAssertTrue(try rules(body, bundleID: "com.jigx.test.ios", profile: Self.appStore, on: "2024-01-01").contains("get-task-allow-in-distribution"))
        XCTAssertTrue(try rules(body, bundleID: "sh.calaba.App", profile: Self.adHoc, on: "2016-09-01").contains("get-task-allow-in-distribution"))
        XCTAssertEqual(try rules(body, bundleID: "com.jigx.test.ios", profile: Self.development, on: "2024-01-01"), [])
    }

    func testPushEnvironmentAgainstTheProfileKind() throws {
        // PermissionsDevelopment allows aps-environment "development".
        let production = "<key>aps-environment</key><string>production</string>"
        XCTAssertEqual(try rules(production, bundleID: "sh.calaba.Permissions", profile: Self.permissions, on: "2022-06-01"), ["aps-environment-mismatch"])
        // With the App Store profile, a source file's "development" is what Xcode rewrites on export.
        XCTAssertEqual(try rules("<key>aps-environment</key><string>development</string>", bundleID: "com.jigx.test.ios",
                                 profile: Self.appStore, on: "2024-01-01"), [])
    }

    func testAllowlistOfARealProfile() throws {
        // 2023+ profiles allow any associated domains with the scalar "*"; HomeKit is not in this one.
        let body = """
        <key>com.apple.developer.associated-domains</key><array><string>applinks:example.com</string></array>
        <key>com.apple.developer.homekit</key><true/>
        <key>com.apple.developer.devicecheck.appattest-environment</key><string>staging</string>
        """
        let f = try findings(body, bundleID: "com.jigx.test.ios", profile: Self.appStore, on: "2024-01-01")
        XCTAssertEqual(f.map(\.rule), ["entitlement-not-in-profile", "entitlement-value-mismatch"], "\(f.map(\.message))")
        XCTAssertTrue(f[0].message.contains("doesn't include the com.apple.developer.homekit entitlement"), f[0].message)
        XCTAssertTrue(f[1].message.contains("\"staging\" is not allowed by \"development\", \"production\""), f[1].message)
    }

    func testLegacyPrefixProfileCoversOnlyItsPrefix() throws {
        // LJS: App ID Y54WEA9F74.*, Team ID 7S6YLL52WH. A literal App ID under the team's prefix is not covered:
        // one wrong value, one finding, from the rule that names the cause (the prefix).
        let body = "<key>application-identifier</key><string>7S6YLL52WH.com.example.app</string>"
        let f = try findings(body, bundleID: "com.example.app", profile: Self.legacyPrefix, on: "2016-06-01")
        XCTAssertEqual(f.filter { $0.keyPath == "application-identifier" }.map(\.rule), ["team-prefix-mismatch"], "\(f.map(\.message))")
        XCTAssertTrue(f[0].message.contains("the App ID prefix is Y54WEA9F74"), f[0].message)
        let ok = "<key>application-identifier</key><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>"
        XCTAssertFalse(try rules(ok, bundleID: "com.example.app", profile: Self.legacyPrefix, on: "2016-06-01").contains("profile-app-id-mismatch"))
    }

    func testEveryCorpusDERCopyAgreesWithItsPlist() throws {
        guard FileManager.default.fileExists(atPath: Self.root.path) else { throw XCTSkip("../shared/corpus is absent") }
        var withDER = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted() {
            guard let bytes = try? Array(Data(contentsOf: Self.root.appendingPathComponent(name))),
                  let p = try? ProfileDecoder.decode(bytes) else { continue }
            guard let decoded = p.decodedDEREncodedProfile() else { continue }
            withDER += 1
            let der = try decoded.get()
            XCTAssertEqual(der["UUID"]?.string?.uppercased(), p.uuid?.uppercased(), name)
            let context = ProfileContext(profile: ProfileFile(path: name, profile: p), settings: CheckSettings(now: Self.day("2020-01-01")))
            let rule = RuleRegistry.rule(id: "profile-der-mismatch") as! any ProfileRule
            XCTAssertEqual(rule.check(profile: context), [], name)
        }
        XCTAssertGreaterThanOrEqual(withDER, 12)
    }

    func testEveryCorpusCertificateDecodes() throws {
        guard FileManager.default.fileExists(atPath: Self.root.path) else { throw XCTSkip("../shared/corpus is absent") }
        var count = 0
        var failures = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted() {
            guard let bytes = try? Array(Data(contentsOf: Self.root.appendingPathComponent(name))),
                  let p = try? ProfileDecoder.decode(bytes) else { continue }
            for result in p.developerCertificates {
                // Test fixtures (rules_apple's fake profiles, ...) hold a few bytes of junk where a
                // certificate should be: a clear reason, never a crash.
                if case .failure(let e) = result {
                    XCTAssertTrue(e.reason.hasPrefix("not an X.509 certificate ("), e.reason)
                    XCTAssertTrue(e.reason.contains("truncated"), "\(name): \(e.reason)")
                    failures += 1
                    continue
                }
                let c = try result.get()
                count += 1
                XCTAssertLessThan(c.notBefore, c.notAfter, name)
                XCTAssertNotNil(c.commonName, name)
            }
        }
        XCTAssertGreaterThan(count, 100)
        XCTAssertLessThanOrEqual(failures, 20)
    }

    func testDamagedCertificatesAreNotFatal() throws {
        var p = try profile(Self.development)
        var root = p.profile.document.root.dict!
        root.append(.init(key: "DeveloperCertificates", keyLocation: .unknown,
                          value: PlistNode(.array([PlistNode(.data([0x30, 0x03, 0x02, 0x01])), PlistNode(.string("x"))]))))
        p.profile.document = PlistDocument(root: PlistNode(.dict(root)), format: .xml)
        let results = p.profile.developerCertificates
        XCTAssertEqual(results.count, 2)
        XCTAssertTrue(results.allSatisfy { if case .failure = $0 { return true } else { return false } })
    }
}
