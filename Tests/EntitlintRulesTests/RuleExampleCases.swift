import EntitlintCore
import Foundation
import Testing
@testable import EntitlintRules

/// Every rule's examples are its tests, one test case per rule: triggering examples must produce
/// findings exactly at their `↓` markers, at most at the rule's severity; non-triggering ones none.
/// A failure is reported at the example's own line in the rule's source file.
@Suite("Rule examples")
struct RuleExampleCases {
    static let ids = RuleRegistry.descriptions.map(\.id)

    @Test("each rule's examples", arguments: ids)
    func examples(of id: String) throws {
        let rule = try #require(RuleRegistry.all.first { type(of: $0).description.id == id })
        let d = type(of: rule).description
        for (i, ex) in d.triggering.enumerated() {
            let at = ex.location
            let prepared = RuleExampleRunner.prepare(ex)
            let findings = RuleExampleRunner.run(rule, on: ex)
            #expect(!(prepared.markers.isEmpty && prepared.profileMarkers.isEmpty && prepared.projectMarkers.isEmpty),
                    "\(id) triggering example \(i) has no ↓ marker", sourceLocation: at)
            #expect(!findings.isEmpty, "\(id) triggering example \(i) found nothing:\n\(prepared.text)", sourceLocation: at)
            // Markers in the entitlements are findings in Example.entitlements, markers in the
            // profile findings in Example.mobileprovision (sorted by path, then position).
            let got = findings.map { "\($0.path):\($0.line):\(id == "parse-error" ? 0 : $0.column)" }
            let want = prepared.markers.map { "\(RuleExampleRunner.entitlementsPath):\($0.line):\(id == "parse-error" ? 0 : $0.column)" }
                + prepared.profileMarkers.map { "\(RuleExampleRunner.profilePath):\($0.line):\($0.column)" }
                + prepared.projectMarkers.map { "\($0.path):\($0.location.line):\($0.location.column)" }
            #expect(got == want, "\(id) triggering example \(i): findings \(findings.map(\.message))", sourceLocation: at)
            for f in findings {
                // A rule may report a finding below its default severity (certificate-expired
                // warns when only some certificates expired), never above.
                #expect(f.severity <= d.severity, "\(id): \(f.message)", sourceLocation: at)
                #expect(!f.message.isEmpty, sourceLocation: at)
            }
        }
        for (i, ex) in d.nonTriggering.enumerated() {
            let findings = RuleExampleRunner.run(rule, on: ex)
            #expect(findings == [], "\(id) non-triggering example \(i)", sourceLocation: ex.location)
        }
    }
}

extension RuleExample {
    /// The example's line in its rule's source, for Swift Testing.
    var location: SourceLocation {
        SourceLocation(fileID: "EntitlintRules/" + URL(fileURLWithPath: sourceFile).lastPathComponent, filePath: sourceFile,
                       line: max(1, sourceLine), column: 1)
    }
}
