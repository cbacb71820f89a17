import Foundation
import TestSupport
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace

/// Inputs kept by `Scripts/fuzz.sh yaml-config` in `Tests/Fuzz/Regressions/yaml-config/`: each
/// must give a configuration or a `ConfigError`, quickly, never crash.
final class ConfigFuzzRegressionTests: XCTestCase {
    func testYAMLConfigRegressionsParseOrThrow() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/yaml-config") {
            do {
                _ = try Configuration.parse(String(decoding: bytes, as: UTF8.self), path: name,
                                            knownRules: ["parse-error", "duplicate-key"])
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
        }
    }
}

/// Found by fuzzing: Yams reads nesting recursively, and `[[[[...` in `.entitlint.yml` crashed
/// the linter with a stack overflow. Deep nesting is now an error naming the line.
final class ConfigNestingTests: XCTestCase {
    func expectNestingError(_ text: String, line: Int? = nil, file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try Configuration.parse(text, path: "c.yml", knownRules: []), file: file, line: l) { error in
            guard let e = error as? Configuration.ConfigError else { return XCTFail("\(error)", file: file, line: l) }
            XCTAssertTrue(e.reason.contains("nested more than 100 levels"), e.reason, file: file, line: l)
            if let line { XCTAssertEqual(e.line, line, file: file, line: l) }
        }
    }

    func testDeepFlowSequencesAreAnErrorNotACrash() {
        expectNestingError(String(repeating: "[", count: 200_000), line: 1)
        expectNestingError("team: ABCDE12345\nexclude: " + String(repeating: "{a: ", count: 5_000), line: 2)
    }

    func testDeepBlockNestingIsAnErrorNotACrash() {
        expectNestingError(String(repeating: "- ", count: 50_000) + "x")
        var text = ""
        for depth in 0..<500 { text += String(repeating: " ", count: depth) + "k\(depth):\n" }
        expectNestingError(text, line: 101)
    }

    func testBracketsInQuotesAndCommentsDoNotCount() throws {
        let brackets = String(repeating: "[", count: 300)
        let text = """
        team: ABCDE12345   # \(brackets)
        exclude: ["\(brackets)", '\(brackets)', "a\\"\(brackets)"]
        variables:
          X: "it's \(brackets)"
        """
        let config = try Configuration.parse(text, path: "c.yml", knownRules: [])
        XCTAssertEqual(config.team, "ABCDE12345")
        XCTAssertEqual(config.variables["X"], "it's " + brackets)
    }

    func testRealConfigurationsAreFarBelowTheLimit() {
        XCTAssertNil(YAMLNestingLimit.firstLineDeeperThan(8, in: """
        team: ABCDE12345
        apps:
          - name: AppOne
            entitlements: AppOne/AppOne.entitlements
            bundle-id: com.example.AppOne
        rules: { comment-in-plist: off, duplicate-key: warning }
        exclude: ["Tests/**", "*.xcent"]
        """))
    }
}
