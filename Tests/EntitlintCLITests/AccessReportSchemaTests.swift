import Foundation
import XCTest
import TestSupport

/// `entitlint report --format json` is valid against `Rules/reference/access-report.schema.json`,
/// and against what `Scripts/validate-report.py report` checks beyond it (every unit in one
/// section of its target, the matrix made of the units' lists, findings on the units they name).
final class AccessReportSchemaTests: XCTestCase {
    /// Two targets in two configurations each: App's configurations list different vault groups (so
    /// App has a section per configuration), Share's agree (one section); App lists a wildcard
    /// group (a finding on a unit and a group).
    static let spec = SyntheticProject.spec("Suite", targets: [
        SpecTarget("App", bundleID: "com.example.App",
                   settings: ["  configs:", "    Debug:", "      VAULT_NAME: vault.debug", "    Release:", "      VAULT_NAME: vault.release"],
                   entitlements: "App/App.entitlements", dependencies: ["Share"]),
        SpecTarget("Share", type: "app-extension", bundleID: "com.example.App.Share", entitlements: "Share/Share.entitlements"),
    ])

    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        let files = [
            "project.yml": Self.spec,
            "App/App.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)com.example.shared",
                                                      "$(AppIdentifierPrefix)com.example.$(VAULT_NAME)", "ABCDE12345.*"],
                                                     extra: "\n\t<key>com.apple.security.application-groups</key>\n\t<array>\n\t\t<string>group.com.example.suite</string>\n\t</array>"),
            "Share/Share.entitlements": CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"],
                                                         extra: "\n\t<key>com.apple.security.application-groups</key>\n\t<array>\n\t\t<string>group.com.example.suite</string>\n\t</array>"),
        ]
        return try SyntheticProject.write(files, in: dir)
    }

    func testTheReportOfTwoTargetsInTwoConfigurationsIsValid() throws {
        let dir = try project()
        let r = try CLI.run(["report", "--format", "json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        try SchemaValidator.validate(r.stdout, format: "report")
        // What the report holds, so the validation is of a report with every part present.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let units = try XCTUnwrap(object["units"] as? [[String: Any]])
        XCTAssertEqual(units.compactMap { $0["name"] as? String }, ["App (Debug)", "App (Release)", "Share (Debug)", "Share (Release)"])
        let targets = try XCTUnwrap(object["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.map { ($0["sections"] as? [Any])?.count }, [2, 1], "\(targets)")
        XCTAssertTrue(units.contains { !(($0["findings"] as? [Any]) ?? []).isEmpty }, "a unit with findings: \(r.stdout)")
        XCTAssertFalse((object["appGroups"] as? [Any] ?? []).isEmpty, r.stdout)
    }

    func testTheExampleReportIsValid() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Examples/AppSuite/expected-report.json"), encoding: .utf8)
        try SchemaValidator.validate(text, format: "report")
    }

    /// The validator fails a report that breaks what the schema or its own checks say: a unit in
    /// no section, and an unknown key.
    func testABrokenReportIsNotValid() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Examples/AppSuite/expected-report.json"), encoding: .utf8)
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var targets = try XCTUnwrap(object["targets"] as? [[String: Any]])
        targets.removeFirst()
        object["targets"] = targets
        let orphaned = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let (valid, output) = try SchemaValidator.check(orphaned, format: "report")
        XCTAssertFalse(valid)
        XCTAssertTrue(output.contains("is in no section"), output)
        object["extra"] = true
        let extra = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let (valid2, output2) = try SchemaValidator.check(extra, format: "report")
        XCTAssertFalse(valid2)
        XCTAssertTrue(output2.contains("'extra' was unexpected"), output2)
    }
}
