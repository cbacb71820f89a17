import Foundation
import TestSupport
import XCTest
import EntitlintCore
import EntitlintWorkspace
@_spi(Fuzzing) import XcodeProject

/// The `xcconfig` and `xcodegen` fuzz harnesses. Inputs they kept (`Tests/Fuzz/Regressions/xcconfig/`,
/// `.../xcodegen/`) go the same way as in the harness, over in-memory files: values, problems or
/// findings, never a crash. Their seeds must reach what the harnesses are for: nested references
/// resolved, cycles and growth reported, units built from a spec.
final class SettingsFuzzRegressionTests: XCTestCase {
    /// The xcconfig harness: the input as `/fuzz/Config/Fuzz.xcconfig`, beside an xcconfig that
    /// includes it back and one it may include.
    static func evaluate(_ xcconfig: [UInt8]) -> XCConfigEvaluation.Result {
        var options = LintOptions()
        options.parallel = false
        options.virtualFiles = VirtualFiles(files: [
            "/fuzz/Config/Fuzz.xcconfig": xcconfig,
            "/fuzz/Config/Shared.xcconfig": Array("""
                DEVELOPMENT_TEAM = ABCDE12345
                BUNDLE_ID_PREFIX = com.example
                PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_ID_PREFIX).$(PRODUCT_NAME:rfc1034identifier)
                OTHER[sdk=iphoneos*][arch=arm64] = $(inherited) device

                """.utf8),
            "/fuzz/Config/Loop.xcconfig": Array("#include \"Fuzz.xcconfig\"\nLOOP = 1\n".utf8),
        ], exclusive: true)
        return XCConfigEvaluation.evaluate("/fuzz/Config/Fuzz.xcconfig", options: options, cwd: "/fuzz")
    }

    /// The xcodegen harness: the input as `/fuzz/project.yml`, with `base.yml`, an xcconfig and
    /// an entitlements file beside it.
    static func discover(_ spec: [UInt8]) -> Discovery {
        var options = LintOptions()
        options.paths = ["/fuzz/project.yml"]
        options.parallel = false
        options.virtualFiles = VirtualFiles(files: [
            "/fuzz/project.yml": spec,
            "/fuzz/base.yml": Array("options:\n  bundleIdPrefix: com.example\nsettings:\n  base:\n    DEVELOPMENT_TEAM: ABCDE12345\n".utf8),
            "/fuzz/Config/Release.xcconfig": Array("CODE_SIGN_STYLE = Manual\nHOST_ID = $(PRODUCT_BUNDLE_IDENTIFIER)\n".utf8),
            "/fuzz/App/App.entitlements": Array("<plist><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string></array></dict></plist>".utf8),
        ], exclusive: true)
        return XcodeDiscoverer().discover(DiscoveryRequest(files: [], options: options, cwd: "/fuzz"))
    }

    func testXCConfigRegressionsEvaluate() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/xcconfig") {
            let result = Self.evaluate(bytes)
            XCTAssertTrue(result.values.values.allSatisfy { $0.count == 2 }, name)
            XCTAssertFalse(result.problems.contains(""), "\(name): a problem without a message")
        }
    }

    func testXcodeGenRegressionsDiscover() throws {
        for (name, bytes) in try FuzzInputs.files("Regressions/xcodegen") {
            for f in Self.discover(bytes).findings { XCTAssertFalse(f.message.isEmpty, "\(name): a finding without a message") }
        }
    }

    /// Found while writing the xcodegen harness (inputs made by hand): Yams reads nesting
    /// recursively, so 100,000 `[` in a project.yml overflowed the stack; and nine lines of
    /// nested YAML aliases (each naming the one before ten times) made 10^9 nodes, out of memory.
    /// Both are now a parse-error on the spec.
    func testHostileYAMLInASpecIsAFinding() throws {
        let deep = Self.discover(Array(("name: " + String(repeating: "[", count: 100_000) + "\n").utf8))
        XCTAssertTrue(deep.units.isEmpty)
        XCTAssertEqual(deep.findings.map(\.message), ["cannot parse the XcodeGen spec: nested more than 200 levels deep"])
        XCTAssertEqual(deep.findings.first?.line, 1)

        var lines = ["name: X", "a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"]
        for i in 1...8 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]") }
        lines.append("targets: {App: {type: application, platform: iOS, settings: {base: {X: *a8}}}}")
        let laughs = Self.discover(Array(lines.joined(separator: "\n").utf8))
        XCTAssertTrue(laughs.units.isEmpty)
        XCTAssertEqual(laughs.findings.map(\.message),
                       ["the spec holds more than 100000 values once its aliases, includes and templates are expanded (an alias or include bomb?); it is not read"])
        // A few aliases, as real specs use them, are read.
        let fine = Self.discover(Array("name: X\nbase: &b {PRODUCT_BUNDLE_IDENTIFIER: com.example.App, DEVELOPMENT_TEAM: ABCDE12345}\ntargets:\n  App:\n    type: application\n    platform: iOS\n    settings: {base: *b}\n".utf8))
        XCTAssertEqual(fine.units.first?.bundleID?.value, "com.example.App")
        for (name, bytes) in try FuzzInputs.files("Regressions/xcodegen") {
            XCTAssertTrue(Self.discover(bytes).findings.contains { $0.rule == "parse-error" }, name)
        }
    }

    /// A spec of `"\r" + "- " x 100,000` (or any other line break libyaml knows before it) went
    /// past a nesting pre-check that split lines at LF only, and Yams overflowed the stack.
    func testSpecNestedAfterEveryLineBreakFormIsAFindingNotACrash() {
        let breaks = ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"]
        for br in breaks {
            for deep in [br + String(repeating: "- ", count: 100_000) + "x",
                         "name: X" + br + "targets: " + String(repeating: "[a: ", count: 100_000),
                         "name: X" + br + String(repeating: "? - ", count: 100_000)] {
                let result = Self.discover(Array(deep.utf8))
                XCTAssertTrue(result.units.isEmpty)
                XCTAssertEqual(result.findings.map(\.rule), ["parse-error"], deep.prefix(20).debugDescription)
                XCTAssertEqual(result.findings.map(\.message), ["cannot parse the XcodeGen spec: nested more than 200 levels deep"])
                XCTAssertEqual(result.findings.first?.line, 2, deep.prefix(20).debugDescription)
            }
        }
    }

    func testXCConfigSeedsReachNestedReferencesAndCycles() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try FuzzInputs.files("Seeds/xcconfig").map { ($0.name, $0.bytes) })
        let nested = Self.evaluate(try XCTUnwrap(seeds["nested-references.xcconfig"]))
        XCTAssertEqual(nested.values["KIND"], ["development", "development"], "$(KIND_$(SUFFIX))")
        XCTAssertEqual(nested.values["PRODUCT_BUNDLE_IDENTIFIER"], ["com.example.app.DEBUG", "com.example.app.DEBUG"])
        XCTAssertEqual(nested.values["CODE_SIGN_ENTITLEMENTS"], ["App/App.entitlements", "Mac/App.entitlements"], "conditions per context")
        XCTAssertEqual(nested.values["DEVELOPMENT_TEAM"], ["ABCDE12345", "ABCDE12345"], "from the included file")

        let cycles = Self.evaluate(try XCTUnwrap(seeds["cycle-and-growth.xcconfig"]))
        XCTAssertEqual(cycles.values["A"], [nil, nil])
        XCTAssertTrue(cycles.problems.contains { $0.hasPrefix("A: $(A) refers to itself through A -> B -> A") }, "\(cycles.problems)")
        XCTAssertTrue(cycles.problems.contains { $0.contains("#include loop") }, "\(cycles.problems)")
        XCTAssertTrue(cycles.problems.contains { $0.contains("not an xcconfig line") }, "\(cycles.problems)")
        XCTAssertEqual(cycles.values["X3"]?.first??.utf8.count, 8 * 64)
        XCTAssertTrue(cycles.problems.contains { $0.contains("the operator :nosuchop") }, "\(cycles.problems)")
    }

    func testXcodeGenSeedReachesUnits() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try FuzzInputs.files("Seeds/xcodegen").map { ($0.name, $0.bytes) })
        let discovery = Self.discover(try XCTUnwrap(seeds["small-spec.yml"]))
        let names = Set(discovery.units.map(\.name))
        XCTAssertTrue(names.isSuperset(of: ["App (Debug)", "App (Release)"]), "\(names)")
        let app = try XCTUnwrap(discovery.units.first { $0.name == "App (Debug)" })
        XCTAssertEqual(app.teamID?.value, "ABCDE12345", "from the included base.yml")
        XCTAssertEqual(app.bundleID?.value, "com.example.App")
    }
}
