import Foundation
import XCTest
@testable import EntitlintCore

/// `hasUnresolved(s)` is a shortcut for `!expand(s).unresolved.isEmpty` (used by
/// `unresolved-variable` on every string): the two must agree on every string.
final class VariableExpanderAgreementTests: XCTestCase {
    func testHasUnresolvedAgreesWithExpand() throws {
        let expanders = [
            VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil),
            VariableExpander(appIDPrefix: "ABCDE12345", teamID: "ABCDE12345", bundleID: "com.example.App", extra: ["KNOWN": "k", "BUNDLE_ID_PREFIX": "com.example"]),
        ]
        var strings = [
            "", "plain", "$", "$(", "$()", "$(AppIdentifierPrefix)", "$(AppIdentifierPrefix)com.example.shared",
            "${AppIdentifierPrefix}x", "$(TeamIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(KNOWN).x", "$(UNKNOWN).x",
            "$(PRODUCT_BUNDLE_IDENTIFIER:lower)", "$(PRODUCT_NAME:rfc1034identifier)", "{{TEMPLATE}}", "###NAME###",
            "$(AppIdentifierPrefix)$(UNKNOWN", "$(A)$(B)", "${KNOWN}", "${UNKNOWN}", "$(DEVELOPMENT_TEAM).group",
            "group.$(BUNDLE_ID_PREFIX).shared", "$(BUNDLE_ID_PREFIX:upper)", "a$(KNOWN)b$(AppIdentifierPrefix)c",
            "$$(KNOWN)", "$(KNOWN)$", "$($(KNOWN))", "$(CFBundleIdentifier)", "$(TARGET_NAME)", "é$(UNKNOWN)é",
        ]
        // Every string of the corpus too.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/entitlements")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) {
            for name in names {
                guard let text = try? String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8) else { continue }
                for part in text.components(separatedBy: "<string>").dropFirst() {
                    if let end = part.range(of: "</string>") { strings.append(String(part[..<end.lowerBound])) }
                }
            }
            XCTAssertGreaterThan(strings.count, 300)
        }
        for e in expanders {
            for s in strings {
                XCTAssertEqual(e.hasUnresolved(s), !e.expand(s).unresolved.isEmpty, s)
            }
        }
    }
}
