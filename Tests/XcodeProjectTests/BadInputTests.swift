import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Each damaged input is a clear finding naming the file and line, and the rest of
/// the project (and the run) is still linted.
final class BadInputTests: XCTestCase {
    /// A folder with a good project `Good` (one app) and whatever `broken` writes.
    func run(_ test: String = #function, broken: (URL) throws -> Void) throws -> LintResult {
        let dir = try Fixture.temporaryDirectory(self)
        var good = ProjectFixture()
        good.name = "Good"
        good.targets = [.init(name: "GoodApp", settings: [("Release", [("CODE_SIGN_ENTITLEMENTS", "Good.entitlements"),
                                                                      ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Good"),
                                                                      ("DEVELOPMENT_TEAM", "ABCDE12345")])])]
        try good.write(to: dir.appendingPathComponent("Good"))
        try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), "Good/Good.entitlements", in: dir)
        try broken(dir.appendingPathComponent("Broken"))
        return try Fixture.lint([dir.path])
    }

    func appTarget(_ name: String, _ settings: [(String, String)]) -> ProjectFixture.Target {
        .init(name: name, settings: [("Release", settings)])
    }

    func assertGoodStillLinted(_ result: LintResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.units.contains { $0.name == "GoodApp (Release)" && $0.bundleID?.value == "com.example.Good" },
                      "the good project is still linted: \(result.units.map(\.name))", file: file, line: line)
    }

    func testDamagedProjectFileReportsLineAndTheRestIsLinted() throws {
        let result = try run { dir in
            try Fixture.write("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tA = { isa = PBXProject\n\t};\n}\n",
                              "Broken.xcodeproj/project.pbxproj", in: dir)
        }
        let f = try XCTUnwrap(result.findings.first { $0.path.hasSuffix("Broken.xcodeproj/project.pbxproj") })
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertEqual(f.line, 6)
        XCTAssertTrue(f.message.contains("cannot parse the Xcode project"), f.message)
        assertGoodStillLinted(result)
    }

    func testDanglingReferenceNamesTheLineAndKeepsTheOtherTargets() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [appTarget("Fine", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Fine")])]
            var text = p.pbxproj()
            // A second target whose configuration list does not exist.
            text = text.replacingOccurrences(of: "\t\t\t);\n\t\t};\n\t};\n\trootObject", with: "\t\t\t);\n\t\t};\n\t};\n\trootObject")
            text = text.replacingOccurrences(of: "\t\t\ttargets = (\n", with: "\t\t\ttargets = (\n\t\t\t\tDEAD00000000000000000001 /* Ghost */,\n")
            text = text.replacingOccurrences(of: "\t};\n\trootObject", with: "\t\tDEAD00000000000000000001 = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = DEAD00000000000000000002;\n\t\t\tname = Ghost;\n\t\t\tproductType = \"com.apple.product-type.application\";\n\t\t};\n\t};\n\trootObject")
            try Fixture.write(text, "Broken.xcodeproj/project.pbxproj", in: dir)
        }
        let f = try XCTUnwrap(result.findings.first { $0.message.contains("DEAD00000000000000000002") }, "\(result.findings.map(\.message))")
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertTrue(f.message.contains("dangling"), f.message)
        XCTAssertGreaterThan(f.line, 0)
        XCTAssertTrue(result.units.contains { $0.name == "Fine (Release)" })
        assertGoodStillLinted(result)
    }

    func testGroupReferenceCycleIsReported() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [.init(name: "Cyclic", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Cyclic")])],
                               baseConfigurations: ["Release": "Base.xcconfig"])]
            var text = p.pbxproj()
            // Put the xcconfig's reference in group G1, whose parent G2 has G1 as parent: a cycle.
            let ref = try XCTUnwrap(text.range(of: #"F0[0-9A-F]{22} /\* Base.xcconfig \*/ = \{isa"#, options: .regularExpression))
            let refID = String(text[ref].prefix(24))
            text = text.replacingOccurrences(of: "\t\t\t\t\(refID),\n", with: "")
            text = text.replacingOccurrences(of: "\t};\n\trootObject", with: """
            \t\tC1C1C1C1C1C1C1C1C1C1C1C1 = {isa = PBXGroup; children = (\(refID), C2C2C2C2C2C2C2C2C2C2C2C2, ); path = a; sourceTree = "<group>"; };
            \t\tC2C2C2C2C2C2C2C2C2C2C2C2 = {isa = PBXGroup; children = (C1C1C1C1C1C1C1C1C1C1C1C1, ); path = b; sourceTree = "<group>"; };
            \t};
            \trootObject
            """)
            try Fixture.write(text, "Broken.xcodeproj/project.pbxproj", in: dir)
        }
        let f = try XCTUnwrap(result.findings.first { $0.message.contains("cycle") }, "\(result.findings.map(\.message))")
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertTrue(f.path.hasSuffix("Broken.xcodeproj/project.pbxproj"))
        XCTAssertGreaterThan(f.line, 0)
        assertGoodStillLinted(result)
    }

    func testMissingXcconfigIsANoticeAndOnlyWhatNoCommittedFileSetsIsUnknown() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [.init(name: "NeedsConfig", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.NeedsConfig"),
                                                                            ("CODE_SIGN_ENTITLEMENTS", "Needs.entitlements")])],
                               baseConfigurations: ["Release": "Config/Missing.xcconfig"])]
            p.projectSettings = [("Release", [("SDKROOT", "iphoneos"), ("DEVELOPMENT_TEAM", "ABCDE12345")])]
            try p.write(to: dir)
            try Fixture.write(Fixture.entitlements(["$(AppIdentifierPrefix)com.example.NeedsConfig", "$(AppIdentifierPrefix)$(VAULT)"]),
                              "Needs.entitlements", in: dir)
            // The folder exists and nothing explains the missing file (a build step may make it):
            // Xcode warns and builds on, so it is a notice, not a finding.
            try Fixture.write("// other settings\n", "Config/Other.xcconfig", in: dir)
        }
        XCTAssertFalse(result.findings.contains { $0.message.contains("Missing.xcconfig") }, "\(result.findings.map(\.message))")
        let n = try XCTUnwrap(result.notices.first { $0.message.contains("Missing.xcconfig") }, "\(result.notices.map(\.message))")
        XCTAssertTrue(n.path.hasSuffix("Broken.xcodeproj/project.pbxproj"))
        XCTAssertGreaterThan(n.line, 0)
        XCTAssertTrue(n.message.contains("$(VAULT)"), "names the setting the entitlements need from it: \(n.message)")
        let unit = try XCTUnwrap(result.units.first { $0.name == "NeedsConfig (Release)" })
        XCTAssertEqual(unit.bundleID?.value, "com.example.NeedsConfig", "set above the missing file: known")
        XCTAssertEqual(unit.teamID?.value, "ABCDE12345", "set by a committed level: known")
        XCTAssertNotNil(unit.origin?.unknownSettings["VAULT"], "set by no committed file: unknown, not empty")
        XCTAssertFalse(result.findings.contains { $0.rule == "empty-setting-in-group" || $0.rule == "unresolved-variable" },
                       "nothing is said about an unknown setting beyond the notice: \(result.findings.map(\.message))")
        assertGoodStillLinted(result)
    }

    func testIncludeLoopIsReportedWithTheChain() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [.init(name: "Looping", settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Looping")])],
                               baseConfigurations: ["Release": "A.xcconfig"])]
            try p.write(to: dir)
            try Fixture.write("DEVELOPMENT_TEAM = ABCDE12345\n#include \"B.xcconfig\"\n", "A.xcconfig", in: dir)
            try Fixture.write("// B\n#include \"A.xcconfig\"\n", "B.xcconfig", in: dir)
        }
        let f = try XCTUnwrap(result.findings.first { $0.message.contains("#include loop") }, "\(result.findings.map(\.message))")
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertTrue(f.path.hasSuffix("B.xcconfig"), f.path)
        XCTAssertEqual(f.line, 2)
        XCTAssertTrue(f.message.contains("A.xcconfig -> ") && f.message.contains("B.xcconfig -> ") && f.message.hasSuffix("A.xcconfig"), f.message)
        assertGoodStillLinted(result)
    }

    func testMissingEntitlementsFileIsReportedAtTheSetting() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [appTarget("Ghostly", [("CODE_SIGN_ENTITLEMENTS", "Ghostly/Ghostly.entitlements"), ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Ghostly")]),
                         appTarget("Solid", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Solid")])]
            try p.write(to: dir)
        }
        let f = try XCTUnwrap(result.findings.first { $0.message.contains("Ghostly.entitlements") }, "\(result.findings.map(\.message))")
        XCTAssertEqual(f.rule, "parse-error")
        XCTAssertTrue(f.path.hasSuffix("Broken.xcodeproj/project.pbxproj"))
        XCTAssertGreaterThan(f.line, 0)
        XCTAssertTrue(f.message.contains("does not exist"), f.message)
        XCTAssertFalse(result.units.contains { $0.name.hasPrefix("Ghostly") })
        XCTAssertTrue(result.units.contains { $0.name == "Solid (Release)" })
        assertGoodStillLinted(result)
    }

    func testUndefinedSettingInTheBundleIDIsEmptyAsInXcode() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [appTarget("Vague", [("PRODUCT_BUNDLE_IDENTIFIER", "$(BUNDLE_PREFIX).vague")])]
            try p.write(to: dir)
        }
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [], "Xcode uses the empty string, silently")
        XCTAssertEqual(result.units.first { $0.name == "Vague (Release)" }?.bundleID?.value, ".vague")
    }

    func testConfigVariablesResolveWhatTheBuildEnvironmentWouldSet() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var p = ProjectFixture()
        p.targets = [appTarget("Vague", [("PRODUCT_BUNDLE_IDENTIFIER", "$(BUNDLE_PREFIX).vague")])]
        try p.write(to: dir)
        var config = Configuration()
        config.variables = ["BUNDLE_PREFIX": "com.example"]
        let result = try Fixture.lint([dir.path]) { $0.configuration = config }
        XCTAssertEqual(result.units.first?.bundleID?.value, "com.example.vague")
        XCTAssertEqual(result.findings.filter { $0.rule == "unresolved-variable" }, [])
    }

    func testWrongIsaIsReported() throws {
        let result = try run { dir in
            var p = ProjectFixture()
            p.name = "Broken"
            p.targets = [appTarget("Odd", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.Odd")])]
            var text = p.pbxproj()
            text = text.replacingOccurrences(of: "rootObject = ", with: "rootObject = F00000000000000000000065; oldRoot = ")
            try Fixture.write(text, "Broken.xcodeproj/project.pbxproj", in: dir)
        }
        XCTAssertTrue(result.findings.contains { $0.rule == "parse-error" && $0.message.contains("rootObject") }, "\(result.findings.map(\.message))")
        assertGoodStillLinted(result)
    }
}
