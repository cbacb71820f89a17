import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
@testable import XcodeProject

/// Hostile project inputs whose cost must stay bounded: build settings, xcconfig includes,
/// pbxproj target lists, workspace groups and XcodeGen specs, each generated here, each with
/// a count of work or a size asserted (never a time). The attacks that overflowed the stack are
/// run through the CLI, in a child process (EntitlintCLITests/BoundsCLITests.swift).
final class ProjectBoundsTests: XCTestCase {
    func a(_ name: String, _ value: String, line: Int = 1) -> SettingAssignment {
        SettingAssignment(name: name, value: value, file: "Base.xcconfig", location: SourceLocation(line: line, column: 1))
    }

    func evaluator(_ entries: [SettingAssignment]) -> SettingsEvaluator {
        SettingsEvaluator(entries: entries, builtins: [:], context: SettingContext(sdk: "iphoneos", configuration: "Release"))
    }

    func files(_ dir: URL, limits: PlistLimits = .default) -> ProjectFiles {
        var options = LintOptions()
        options.limits = limits
        return ProjectFiles(options: options, cwd: dir.path)
    }

    // MARK: build settings

    /// 200,000 nested `$(`: the recursion went one level per `$(` (a stack overflow) and copied
    /// the rest of the value at each level; it now stops at 64 levels.
    func testNestedReferencesAreCutAtSixtyFourLevels() {
        let n = 200_000
        let e = evaluator([a("PRODUCT_BUNDLE_IDENTIFIER", String(repeating: "$(", count: n) + "X" + String(repeating: ")", count: n))])
        let r = e.resolve("PRODUCT_BUNDLE_IDENTIFIER")
        XCTAssertNil(r.value)
        XCTAssertEqual(r.problem, "references nested deeper than \(SettingsEvaluator.maxDepth) levels")
        XCTAssertLessThanOrEqual(e.expansions, SettingsEvaluator.maxDepth + 2)
    }

    /// `$(` 400,000 times, never closed: each looked for its `)` to the end of the value.
    func testUnclosedReferenceRepeatedIsOnePass() {
        let value = "com.example." + String(repeating: "$(", count: 400_000)
        let e = evaluator([a("PRODUCT_BUNDLE_IDENTIFIER", value)])
        XCTAssertEqual(e.resolve("PRODUCT_BUNDLE_IDENTIFIER").value, value)
        XCTAssertEqual(e.expansions, 1)
        XCTAssertEqual(SettingsEvaluator.matchingCloses(Array("$($(x)".utf8)), [-1, -1, 5, -1, -1, -1])
        // The entitlements expander reads such a value in one pass too, and leaves it as written.
        let expanded = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil).expand(value)
        XCTAssertEqual(expanded.text, value)
        XCTAssertEqual(VariableExpander.references(in: String(repeating: "${", count: 100_000) + "{{" + String(repeating: "###", count: 50_000)).count, 0)
    }

    /// `$(inherited)$(inherited)` on 30 lines: each line evaluated the one before twice, 2^30
    /// evaluations; each assignment is now expanded once.
    func testInheritedTwiceOnEveryLineIsExpandedOncePerLine() {
        let lines = 30
        let entries = [a("FLAGS", "")] + (1...lines).map { a("FLAGS", "$(inherited)$(inherited)", line: $0 + 1) }
        let e = evaluator(entries)
        XCTAssertEqual(e.resolve("FLAGS").value, "")
        // Per line: its value, and the name inside each of its two references.
        XCTAssertLessThanOrEqual(e.expansions, 3 * lines)
    }

    /// A kilobyte of settings, each four times the one before: 4^40 bytes unbounded. Each value
    /// stops at 64 KiB, and the evaluator at 4 MiB of text in all.
    func testSettingsDoublingEachOtherStopAtTheByteBudget() {
        var entries = [a("V0", String(repeating: "x", count: 16))]
        for i in 1...40 { entries.append(a("V\(i)", "$(V\(i - 1))$(V\(i - 1))$(V\(i - 1))$(V\(i - 1))", line: i + 1)) }
        // Names made of names: `$(V$(N$(M)))`.
        entries.append(a("M", "0"))
        entries.append(a("N0", "4"))
        entries.append(a("NAMES", String(repeating: "$(V$(N$(M)))", count: 200), line: 50))
        let e = evaluator(entries)
        for i in 1...40 { _ = e.resolve("V\(i)") }
        XCTAssertNotNil(e.resolve("V40").problem)
        let names = e.resolve("NAMES")
        XCTAssertTrue(names.value == nil || names.value!.utf8.count <= SettingsEvaluator.maxLength * 2)
        XCTAssertLessThanOrEqual(e.produced, SettingsEvaluator.maxTotalLength + 2 * SettingsEvaluator.maxLength)
    }

    /// Thirty levels of xcconfigs, each including the next twice: 2^30 assignments flattened.
    func testIncludeDiamondIsCappedInAssignments() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for i in 0..<30 {
            try Fixture.write("#include \"L\(i + 1).xcconfig\"\n#include \"L\(i + 1).xcconfig\"\nX\(i) = y\n", "L\(i).xcconfig", in: dir)
        }
        try Fixture.write("A = b\n", "L30.xcconfig", in: dir)
        let loader = XCConfigLoader(files: files(dir))
        let all = loader.load(dir.appendingPathComponent("L0.xcconfig").path, referencedFrom: ("", .unknown))
        XCTAssertLessThanOrEqual(all.count, XCConfigLoader.maxAssignments)
        XCTAssertTrue(all.contains { $0.hole != nil })
        XCTAssertTrue(loader.problems.contains { $0.message.contains("give more than \(XCConfigLoader.maxAssignments) settings") }, "\(loader.problems)")
        XCTAssertEqual(loader.read.count, 31, "each file read once")
    }

    // MARK: pbxproj

    /// A pbxproj whose `targets` list names one target a million times: read once.
    func testTargetListedAMillionTimesIsReadOnce() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let target = "F0000000000000000000000A"
        let text = """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
            F0000000000000000000000C = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; PRODUCT_BUNDLE_IDENTIFIER = com.example.app; }; name = Debug; };
            F0000000000000000000000D = {isa = XCConfigurationList; buildConfigurations = (\(Array(repeating: "F0000000000000000000000C", count: 1_000).joined(separator: ","))); };
            \(target) = {isa = PBXNativeTarget; buildConfigurationList = F0000000000000000000000D; buildPhases = (); dependencies = (); name = App; productType = "com.apple.product-type.application"; };
            F0000000000000000000000B = {isa = PBXProject; buildConfigurationList = F0000000000000000000000D; targets = (\(Array(repeating: target, count: 1_000_000).joined(separator: ","))); };
            }; rootObject = F0000000000000000000000B; }
            """
        try Fixture.write(text, "P.xcodeproj/project.pbxproj", in: dir)
        let limits = PlistLimits(maxBytes: 64 << 20, maxElements: 5_000_000)
        let (project, problems) = PBXProject.read(bundlePath: dir.appendingPathComponent("P.xcodeproj").path, files: files(dir, limits: limits),
                                                  limits: limits)
        XCTAssertEqual(problems.map(\.message), [])
        XCTAssertEqual(project?.targets.count, 1)
        XCTAssertEqual(project?.targets.first?.configurations.count, 1, "a configuration listed 1,000 times is read once")
    }

    // MARK: workspaces

    /// 40,000 nested `<Group>`s (the scanner reads 100,000 elements at most): each level's path
    /// was built from its parent's, quadratic time.
    func testDeeplyNestedWorkspaceGroupsAreCut() throws {
        let dir = try Fixture.temporaryDirectory(self)
        let n = 40_000
        let xml = "<?xml version=\"1.0\"?>\n<Workspace version=\"1.0\">\n<FileRef location=\"group:A.xcodeproj\"/>\n"
            + String(repeating: "<Group location=\"group:abcdefgh\">", count: n) + "<FileRef location=\"group:P.xcodeproj\"/>"
            + String(repeating: "</Group>", count: n) + "<FileRef location=\"group:B.xcodeproj\"/>\n</Workspace>\n"
        try Fixture.write(xml, "W.xcworkspace/contents.xcworkspacedata", in: dir)
        let (workspace, problems) = Workspace.read(bundlePath: dir.appendingPathComponent("W.xcworkspace").path, files: files(dir))
        XCTAssertEqual(workspace?.projects.map { Paths.baseName($0.path) }, ["A.xcodeproj", "B.xcodeproj"],
                       "the projects outside the cut groups are still read")
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].message.contains("nested deeper than \(Workspace.maxGroupDepth) levels"), problems[0].message)
    }

    // MARK: XcodeGen

    /// 483 bytes of YAML aliases, nine levels of nine: 9^9 values once expanded.
    func testYAMLAliasBombIsCountedWhileConverted() throws {
        let dir = try Fixture.temporaryDirectory(self)
        var yaml = "name: P\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for k in 1..<names.count {
            yaml += "\(names[k]): &\(names[k]) [" + Array(repeating: "*\(names[k - 1])", count: 9).joined(separator: ",") + "]\n"
        }
        XCTAssertLessThan(yaml.utf8.count, 600)
        try Fixture.write(yaml, "project.yml", in: dir)
        var problems: [ProjectProblem] = []
        var read: [String] = []
        let budget = XcodeGenSpec.Budget()
        XCTAssertNil(XcodeGenSpec.load(dir.appendingPathComponent("project.yml").path, files: files(dir), problems: &problems, read: &read, budget: budget))
        XCTAssertEqual(budget.values, XcodeGenSpec.Budget.maxValues + 1, "converting stops at the first value past the limit")
        XCTAssertTrue(problems.contains { $0.message.contains("more than \(XcodeGenSpec.Budget.maxValues) values") }, "\(problems)")
    }

    /// Each spec includes the next ten times, 15 levels deep: 10^15 specs read unbounded.
    func testIncludeFanOutReadsEachSpecOnceAndIsCounted() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for i in 0..<15 {
            let include = "include: [" + Array(repeating: "s\(i + 1).yml", count: 10).joined(separator: ",") + "]\n"
            try Fixture.write(include + (i == 0 ? "name: P\n" : "") + "settings: {A\(i): b}\n", i == 0 ? "project.yml" : "s\(i).yml", in: dir)
        }
        try Fixture.write("settings: {A: b}\n", "s15.yml", in: dir)
        var problems: [ProjectProblem] = []
        var read: [String] = []
        let budget = XcodeGenSpec.Budget()
        let spec = XcodeGenSpec.load(dir.appendingPathComponent("project.yml").path, files: files(dir), problems: &problems, read: &read, budget: budget)
        XCTAssertEqual(read.count, 16, "each spec read once: \(read)")
        XCTAssertLessThanOrEqual(budget.includes, XcodeGenSpec.Budget.maxIncludes + 1)
        XCTAssertLessThanOrEqual(budget.values, 3 * XcodeGenSpec.Budget.maxValues)
        XCTAssertTrue(spec == nil ? !problems.isEmpty : problems.contains { $0.message.contains("more than \(XcodeGenSpec.Budget.maxIncludes) includes") },
                      "\(problems.map(\.message))")
    }

    /// Sequences doubling through includes, 15 levels: 100 x 2^15 items. Each merge is counted
    /// against the budget.
    func testIncludeDoublingSequencesIsCountedInMerges() throws {
        let dir = try Fixture.temporaryDirectory(self)
        for i in 0..<15 {
            try Fixture.write("include: [s\(i + 1).yml, s\(i + 1).yml]\n" + (i == 0 ? "name: P\n" : "") + "list: [x\(i)]\n",
                              i == 0 ? "project.yml" : "s\(i).yml", in: dir)
        }
        try Fixture.write("list: [" + Array(repeating: "y", count: 100).joined(separator: ",") + "]\n", "s15.yml", in: dir)
        var problems: [ProjectProblem] = []
        var read: [String] = []
        let budget = XcodeGenSpec.Budget()
        XCTAssertNil(XcodeGenSpec.load(dir.appendingPathComponent("project.yml").path, files: files(dir), problems: &problems, read: &read, budget: budget))
        XCTAssertTrue(problems.contains { $0.message.contains("more than \(XcodeGenSpec.Budget.maxValues) values") }, "\(problems.map(\.message))")
        // Every merge past the limit is refused: the count stays within two results of it.
        XCTAssertLessThanOrEqual(budget.values, 3 * XcodeGenSpec.Budget.maxValues)
    }
}
