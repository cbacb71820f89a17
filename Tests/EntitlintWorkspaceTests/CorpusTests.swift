import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList

/// Lints every real file of `../shared/corpus/` (see its SOURCES.md).
final class CorpusTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Files that are junk by design (SOURCES.md, "Junk / edge cases"): each must get a clear parse-error.
    static let junk: Set<String> = [
        "fastlane__fastlane__gym__spec__fixtures__dummy.mobileprovision",
        "apperian__isign__tests__credentials__test.mobileprovision",
        "bazelbuild__rules_apple__test__starlark_tests__resources__bogus.mobileprovision",
    ]


    func corpusFiles() throws -> [String] {
        guard FileManager.default.fileExists(atPath: Self.root.path) else {
            throw XCTSkip("../shared/corpus is absent: corpus test skipped")
        }
        var files: [String] = []
        for sub in ["entitlements", "profiles"] {
            let dir = Self.root.appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                files.append(dir.appendingPathComponent(name).path)
            }
        }
        return files
    }

    func testEveryCorpusFileLintsWithoutFalseParseErrors() throws {
        let files = try corpusFiles()
        XCTAssertGreaterThan(files.count, 170)
        var options = LintOptions()
        options.paths = files
        let result = try Linter(rules: RuleRegistry.all).lint(options)
        XCTAssertEqual(result.files, files.count)
        let parseErrors = result.findings.filter { $0.rule == "parse-error" }
        let failed = Set(parseErrors.map { ($0.path as NSString).lastPathComponent })
        XCTAssertEqual(failed, Self.junk, "parse-error on: \(parseErrors.map { "\($0.path): \($0.message)" })")
        for f in parseErrors {
            XCTAssertTrue(f.message.count > 20, "a clear reason: \(f.message)")
        }
        // Every entitlements file (any extension) becomes a unit; every good profile decodes.
        XCTAssertEqual(result.units.count, try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("entitlements").path).count)
        XCTAssertEqual(result.units.count, 104)
        XCTAssertEqual(result.profiles.count, 77 - Self.junk.count)
    }

    /// Findings a person would agree with on files SOURCES.md describes, and none on clean ones.
    func testKnownDefectsAreFoundAndCleanFilesStayClean() throws {
        _ = try corpusFiles()
        let linter = Linter(rules: RuleRegistry.all)
        func findings(_ name: String) throws -> [Finding] {
            var options = LintOptions()
            options.paths = [Self.root.appendingPathComponent("entitlements/\(name)").path]
            return try linter.lint(options).findings
        }
        func rules(_ name: String) throws -> Set<String> { Set(try findings(name).map(\.rule)) }

        XCTAssertTrue(try rules("Automattic__simplenote-ios__SimplenoteIntents__SimplenoteIntentsRelease.entitlements").contains("double-prefix"))
        XCTAssertTrue(try rules("Zentik-notifier__frontend__targets__widget__generated.entitlements").contains("wildcard-access-group"))
        // A release script's template (`###TEAM_IDENTIFIER###`): unknown values, said in a notice, not a finding.
        var template = LintOptions()
        template.paths = [Self.root.appendingPathComponent("entitlements/cryptomator__cryptomator__dist__mac__FSKitExtension.entitlements").path]
        let templateRun = try linter.lint(template)
        XCTAssertFalse(templateRun.findings.contains { $0.rule == "unresolved-variable" })
        XCTAssertTrue(templateRun.notices.contains { $0.message.contains("###TEAM_IDENTIFIER###") }, "\(templateRun.notices)")
        XCTAssertTrue(try rules("apache__cordova-ios__templates__project__App__Entitlements-Debug@3d1acba.plist").contains("comment-in-plist"))
        // The old-team groups of a transferred app come with previous-application-identifiers: no alarm.
        XCTAssertFalse(try rules("Automattic__simplenote-ios__Simplenote__Supporting-Files__Simplenote@ee5978f.entitlements").contains("team-prefix-mismatch"))
        // Well-formed files with standard variables only: nothing to say.
        XCTAssertEqual(try findings("LoopKit__Loop__Loop__Loop@5df3737.entitlements"), [])
    }

    /// The same inputs give the same report, whatever the order of files or threads.
    func testDeterministicAcrossOrderAndThreads() throws {
        let files = try corpusFiles()
        let linter = Linter(rules: RuleRegistry.all)
        var a = LintOptions(); a.paths = files; a.parallel = true
        var b = LintOptions(); b.paths = files.reversed(); b.parallel = false
        XCTAssertEqual(try linter.lint(a).findings, try linter.lint(b).findings)
    }
}
