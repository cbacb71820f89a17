import Foundation
import XCTest
import EntitlintCore

/// Inputs kept by `Scripts/fuzz.sh yaml-config` in `Tests/Fuzz/Regressions/yaml-config/`: each
/// must give a configuration or a `ConfigError`, quickly, never crash.
final class ConfigFuzzRegressionTests: XCTestCase {
    func testYAMLConfigRegressionsParseOrThrow() throws {
        let dir = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // EntitlintCoreTests
            .deletingLastPathComponent()   // Tests
            .appendingPathComponent("Fuzz/Regressions/yaml-config")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            let start = Date()
            do {
                _ = try Configuration.parse(String(decoding: data, as: UTF8.self), path: name,
                                            knownRules: ["parse-error", "duplicate-key"])
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name) took too long")
        }
    }
}
