import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Values of megabytes made of one grapheme cluster (a letter and a million combining marks):
/// Character-based string work walked all of them for every configuration (a 2 MB build setting
/// cost 0.65 s per configuration). Work on them is now in bytes and scalars, and values past the
/// byte caps are unknown or refused, each with a finding.
final class LargeValueTests: XCTestCase {
    /// "e" and `marks` combining acute accents: one Character, 2 x `marks` + 1 bytes.
    static func grapheme(_ marks: Int) -> String { "e" + String(repeating: "\u{301}", count: marks) }

    func testTrimmingAOneGraphemeValueTrimsScalarsAtTheEnds() {
        let big = Self.grapheme(1_000_000)
        XCTAssertEqual(big.count, 1)
        XCTAssertEqual((" \t" + big + " ").trimmed(" \t").utf8.count, big.utf8.count)
        XCTAssertEqual("\"a\"".trimmed("\""), "a")
        XCTAssertEqual(" \t ".trimmed(" \t"), "")
    }

    func testSigningSettingOfTwoMegabytesIsUnknownWithAProblem() {
        let big = Self.grapheme(1_000_000)
        let e = SettingsEvaluator(entries: [SettingAssignment(name: "PRODUCT_BUNDLE_IDENTIFIER", conditions: [], value: big, file: "p", location: SourceLocation(line: 3, column: 1)),
                                            SettingAssignment(name: "DEVELOPMENT_TEAM", conditions: [], value: "ABCDE12345", file: "p", location: SourceLocation(line: 4, column: 1))],
                                  builtins: [:], context: SettingContext(sdk: "iphoneos", configuration: "Release"))
        let r = e.resolveForSigning("PRODUCT_BUNDLE_IDENTIFIER", structural: true)
        XCTAssertNil(r.value)
        XCTAssertEqual(r.problem, "its value is 2000001 bytes long, more than the 4096 bytes a signing setting is read to")
        XCTAssertEqual(e.resolveForSigning("DEVELOPMENT_TEAM").value, "ABCDE12345")
        // The cap is on signing settings only: the evaluator still gives the value to others.
        XCTAssertEqual(e.resolve("PRODUCT_BUNDLE_IDENTIFIER").value?.utf8.count, 2_000_001)
    }

    func testTwoMegabyteBundleIDInEveryConfigurationIsAWarningPerConfigurationNotAPassOverIt() throws {
        let root = try Fixture.temporaryDirectory(self)
        let big = Self.grapheme(1_000_000)
        var p = ProjectFixture()
        let configurations = (0..<4).map { "Config\($0)" }
        p.projectSettings = configurations.map { ($0, [("SDKROOT", "iphoneos")]) }
        p.targets = [.init(name: "App", settings: configurations.map { ($0, [("PRODUCT_BUNDLE_IDENTIFIER", big), ("DEVELOPMENT_TEAM", "ABCDE12345"),
                                                                             ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")]) })]
        try p.write(to: root)
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "App/App.entitlements", in: root)
        let result = try Fixture.lint([root.path])
        XCTAssertEqual(result.units.count, 4)
        XCTAssertTrue(result.units.allSatisfy { $0.bundleID == nil }, "the bundle ID is unknown")
        let warnings = result.findings.filter { $0.rule == "unresolved-variable" && $0.message.hasPrefix("PRODUCT_BUNDLE_IDENTIFIER = ") }
        XCTAssertFalse(warnings.isEmpty, "\(result.findings.map(\.message))")
        for w in warnings {
            XCTAssertTrue(w.message.contains("more than the 4096 bytes a signing setting is read to"), w.message)
            // The value is quoted as an excerpt of at most 80 scalars, not as the whole grapheme.
            XCTAssertLessThan(w.message.utf8.count, 600, "message of \(w.message.utf8.count) bytes")
        }
        XCTAssertTrue(result.findings.allSatisfy { $0.message.utf8.count < 4_096 })
    }

    func testEntitlementsStringOfTwoMegabytesIsAParseErrorNotCheckedPerConfiguration() throws {
        let root = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [.init(name: "App", settings: [("Debug", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")]),
                                                   ("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements")])])]
        try p.write(to: root)
        try Fixture.write(Fixture.entitlements(["ABCDE12345." + Self.grapheme(1_000_000)]), "App/App.entitlements", in: root)
        let result = try Fixture.lint([root.path])
        XCTAssertEqual(result.units.count, 0)
        let errors = result.findings.filter { $0.rule == "parse-error" }
        // One place, one message (the project and the folder walk both read the file).
        XCTAssertFalse(errors.isEmpty, "\(result.findings.map(\.message))")
        XCTAssertEqual(Set(errors.map { "\($0.path):\($0.line)" }).count, 1)
        XCTAssertEqual(errors.first?.message,
                       "cannot parse property list: a string of 2000012 bytes, more than the 4096 bytes an entitlement's key or value is read to (no real one is that long)")
        XCTAssertEqual(errors.first?.line, 6)
    }
}
