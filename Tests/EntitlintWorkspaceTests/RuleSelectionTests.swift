import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace

/// `--select`/`--ignore` and `select:`/`ignore:`/`per-file-ignores:`, resolved as ruff does.
final class RuleSelectionTests: XCTestCase {
    let all = ["parse-error", "a", "b", "c"]
    let known: Set<String> = ["parse-error", "a", "b", "c", "wildcard-access-group"]

    func config(_ text: String) throws(Configuration.ConfigError) -> Configuration {
        try Configuration.parse(text, path: "/repo/.entitlint.yml", knownRules: known)
    }

    /// The rules left on by a selection.
    func on(_ selection: RuleSelection, _ configuration: Configuration?) -> [String] {
        let settings = selection.overrides(configuration: configuration, all: all)
        return all.filter { settings[$0] != .off }
    }

    func testPrecedenceFollowsRuff() throws {
        XCTAssertEqual(on(RuleSelection(), nil), all, "nothing given: every rule")
        XCTAssertEqual(on(RuleSelection(select: ["a"]), nil), ["parse-error", "a"], "parse-error is reported whatever select says")
        XCTAssertEqual(on(RuleSelection(ignore: ["parse-error"]), nil), ["a", "b", "c"], "only ignore removes it")
        let c = try config("select: [a, b]\nignore: [b]\nrules:\n  c: off\n")
        XCTAssertEqual(on(RuleSelection(), c), ["parse-error", "a"], "same level: ignore wins")
        XCTAssertEqual(on(RuleSelection(ignore: ["a"]), c), ["parse-error"], "the command line's ignore adds to the configuration's")
        // The command line's select starts afresh: the configuration's select, ignore and off go.
        XCTAssertEqual(on(RuleSelection(select: ["b", "c"]), c), ["parse-error", "b", "c"])
        XCTAssertEqual(on(RuleSelection(select: ["b", "c"], ignore: ["c"]), c), ["parse-error", "b"])
        // Severities the configuration sets stay.
        let severities = try config("rules:\n  a: note\n")
        XCTAssertEqual(RuleSelection(select: ["a"]).overrides(configuration: severities, all: all)["a"], .note)
    }

    func testCommandLineIdsAreCommaSeparatedAndChecked() throws {
        XCTAssertEqual(try RuleSelection.parse(["a, b", "c,a"], option: "--select", known: known), ["a", "b", "c"])
        XCTAssertThrowsError(try RuleSelection.parse(["wildcard-acess-group"], option: "--ignore", known: known)) { error in
            XCTAssertEqual("\(error)", "--ignore: unknown rule 'wildcard-acess-group' (did you mean 'wildcard-access-group'?) (see `entitlint rules`)")
        }
        XCTAssertThrowsError(try RuleSelection.parse(["a,,b"], option: "--select", known: known))
        XCTAssertThrowsError(try RuleSelection.parse([""], option: "--select", known: known))
    }

    func testConfigurationKeys() throws {
        let c = try config("select: [a]\nignore: [b, b]\nper-file-ignores:\n  \"Tests/**\": [a, c]\n  \"*.xcent\": [b]\n")
        XCTAssertEqual(c.select, ["a"])
        XCTAssertEqual(c.ignore, ["b"])
        XCTAssertEqual(c.ignoredRules(at: "/repo/Tests/Unit/T.entitlements", cwd: "/"), ["a", "c"])
        XCTAssertEqual(c.ignoredRules(at: "Tests/T.entitlements", cwd: "/repo"), ["a", "c"], "relative to the configuration's folder")
        XCTAssertEqual(c.ignoredRules(at: "T.entitlements", cwd: "/repo/Tests"), ["a", "c"], "whatever the current folder")
        XCTAssertEqual(c.ignoredRules(at: "App/A.xcent", cwd: "/repo"), ["b"])
        XCTAssertEqual(c.ignoredRules(at: "App/A.entitlements", cwd: "/repo"), [])
        XCTAssertEqual(try config("select: []\n").select, [], "an empty select runs parse-error only")

        func reason(_ text: String) -> String? {
            do { _ = try config(text); return nil } catch { return error.reason }
        }
        XCTAssertEqual(reason("select: [wildcard-acess-group]\n"),
                       "select: unknown rule 'wildcard-acess-group' (did you mean 'wildcard-access-group'?) (see `entitlint rules`)")
        XCTAssertEqual(reason("ignore: a\n"), "'ignore' must be a list of rule ids")
        XCTAssertEqual(reason("per-file-ignores: [a]\n"), "'per-file-ignores' must be a mapping of glob: [rule ids]")
        XCTAssertEqual(reason("per-file-ignores:\n  x: [a]\n  x: [b]\n"), "per-file-ignores.x is given twice")
        XCTAssertEqual(reason("per-file-ignores:\n  x: [1]\n"), "'per-file-ignores.x' must be a list of rule ids")
    }

    func testPerFileIgnoresAreBoundedInNumberAndMatchedInBoundedSteps() throws {
        let many = (0...Configuration.maxPerFileIgnores).map { "  \"p\($0)/**\": [a]\n" }.joined()
        XCTAssertThrowsError(try config("per-file-ignores:\n" + many)) { error in
            XCTAssertEqual((error as? Configuration.ConfigError)?.reason, "'per-file-ignores' holds 1001 globs, more than the 1000 it may hold")
        }
        // The pattern that took seconds for a backtracking matcher: steps stay within the
        // matcher's bound for each file matched.
        let hostile = String(repeating: "*a", count: 200) + "b"
        let c = try config("per-file-ignores:\n  \"\(hostile)\": [a]\n")
        let path = String(repeating: "a", count: 400)
        var steps = 0
        XCTAssertFalse(c.perFileIgnores[0].glob.matches(path, steps: &steps))
        XCTAssertLessThanOrEqual(steps, (2 * path.count + 2) * (path.count + 1))
        XCTAssertEqual(c.ignoredRules(at: path, cwd: "/repo"), [])
    }
}
