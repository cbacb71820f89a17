import Foundation
import TestSupport
import XCTest

/// `--report`, the machine formats end to end, and the console habits users expect:
/// `--fail-on`, `--quiet`, `--color`, standard input.
final class ReportOptionsTests: XCTestCase {
    static let wildcard = CLI.entitlements(["$(AppIdentifierPrefix)*"])
    static let clean = CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])
    /// Only a note (comment-in-plist).
    static let noteOnly = CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"], extra: "\n\t<!-- a comment -->")

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// A project: a broken app in a folder with a space, a clean app.
    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.wildcard, to: dir.appendingPathComponent("My App/App.entitlements"))
        try write(Self.clean, to: dir.appendingPathComponent("Clean/Clean.entitlements"))
        return dir
    }

    /// Runs the CLI with `input` on standard input.
    func run(_ args: [String], in directory: URL, input: String, environment: [String: String] = [:]) throws -> CLI.Result {
        let p = CLI.process(args, in: directory, environment: environment)
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = stdin
        p.standardOutput = out
        p.standardError = err
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    // MARK: --report

    func testTwoReportsWhileTheConsoleGetsText() throws {
        let dir = try project()
        let r = try CLI.run(["lint", ".", "--report", "sarif:out.sarif", "--report", "junit:out/junit.xml"], in: dir)
        XCTAssertEqual(r.status, 2, "the out/ folder does not exist yet")
        XCTAssertTrue(r.stderr.contains("no such folder out"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sarif").path), "checked before anything is written")

        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        let ok = try CLI.run(["lint", ".", "--report", "sarif:out.sarif", "--report", "junit:out/junit.xml"], in: dir)
        XCTAssertEqual(ok.status, 1)
        XCTAssertTrue(ok.stdout.hasPrefix("My App/App.entitlements:7:3: error: "), ok.stdout)
        XCTAssertTrue(ok.stdout.hasSuffix("2 files checked: 1 error, 0 warnings, 0 notes\n"), ok.stdout)
        let sarif = try String(contentsOf: dir.appendingPathComponent("out.sarif"), encoding: .utf8)
        let junit = try String(contentsOf: dir.appendingPathComponent("out/junit.xml"), encoding: .utf8)
        XCTAssertTrue(sarif.contains("\"uri\" : \"My%20App/App.entitlements\""), sarif)
        XCTAssertTrue(junit.contains("<testcase classname=\"Clean/Clean.entitlements\" name=\"no problems found\"/>"), junit)
        try SchemaValidator.validate(sarif, format: "sarif")
        try SchemaValidator.validate(junit, format: "junit")
    }

    func testUnwritableReportIsExitTwoWithNoFileLeft() throws {
        let dir = try project()
        // /proc exists, so the destination passes the up-front check, but nobody can create files in it.
        let r = try CLI.run(["lint", ".", "--report", "gitlab:/proc/entitlint-report.json", "--report", "sarif:ok.sarif"], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("entitlint: cannot write report /proc/entitlint-report.json"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/entitlint-report.json"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["Clean", "My App", "ok.sarif"],
                       "the writable report is complete; no temporary file is left")

        let folder = try CLI.run(["lint", ".", "--report", "junit:Clean"], in: dir)
        XCTAssertEqual(folder.status, 2)
        XCTAssertTrue(folder.stderr.contains("--report junit:Clean: Clean is a folder"), folder.stderr)
        XCTAssertEqual(try CLI.run(["lint", ".", "--report", "xml:x.xml"], in: dir).status, 2)
        XCTAssertEqual(try CLI.run(["lint", ".", "--report", "sarif"], in: dir).status, 2)
    }

    func testEveryMachineFormatOnTheConsoleIsValid() throws {
        let dir = try project()
        for format in ["sarif", "gitlab", "junit", "checkstyle"] {
            let r = try CLI.run(["lint", ".", "--format", format], in: dir)
            XCTAssertEqual(r.status, 1, format)
            try SchemaValidator.validate(r.stdout, format: format)
        }
    }

    func testGitHubFormatAndStepSummary() throws {
        let dir = try project()
        let summary = dir.appendingPathComponent("summary.md")
        try "existing\n".write(to: summary, atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", ".", "--format", "github"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.hasPrefix("::error file=My App/App.entitlements,line=7,col=3,title=entitlint%3A wildcard-access-group::keychain access group"), r.stdout)
        let md = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(md.hasPrefix("existing\n### Entitlint\n\n2 files checked: 1 error, 0 warnings, 0 notes\n"), "appended: \(md)")
        XCTAssertTrue(md.contains("| error | My App/App.entitlements | 7 | wildcard-access-group | keychain access group \"\\$(AppIdentifierPrefix)\\*\""), md)

        // Only the github format writes it, and a --report github counts.
        try "".write(to: summary, atomically: true, encoding: .utf8)
        _ = try CLI.run(["lint", "."], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8), "")
        _ = try CLI.run(["lint", ".", "--report", "github:annotations.txt"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertTrue(try String(contentsOf: summary, encoding: .utf8).hasPrefix("### Entitlint"))

        let unwritable = try CLI.run(["lint", ".", "--format", "github"], in: dir, environment: ["GITHUB_STEP_SUMMARY": "/proc/nope/summary.md"])
        XCTAssertEqual(unwritable.status, 1, "a job summary that cannot be written is a warning")
        XCTAssertTrue(unwritable.stderr.contains("warning: cannot append the job summary"), unwritable.stderr)
    }

    // MARK: --fail-on, --strict, --quiet, --color

    func testFailOn() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(Self.noteOnly, to: dir.appendingPathComponent("A.entitlements"))
        XCTAssertEqual(try CLI.run(["lint", "."], in: dir).status, 0, "a note does not fail by default")
        XCTAssertEqual(try CLI.run(["lint", ".", "--strict"], in: dir).status, 0)
        XCTAssertEqual(try CLI.run(["lint", ".", "--fail-on", "warning"], in: dir).status, 0)
        XCTAssertEqual(try CLI.run(["lint", ".", "--fail-on", "note"], in: dir).status, 1)
        XCTAssertEqual(try CLI.run(["lint", ".", "--fail-on=note"], in: dir).status, 1, "the ArgumentParser path agrees")

        try write(CLI.entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]), to: dir.appendingPathComponent("A.entitlements"))
        XCTAssertEqual(try CLI.run(["lint", ".", "--fail-on", "warning"], in: dir).status, 1)
        XCTAssertEqual(try CLI.run(["lint", ".", "--strict", "--fail-on", "error"], in: dir).status, 0, "an explicit --fail-on wins over --strict")

        let bad = try CLI.run(["lint", ".", "--fail-on", "fatal"], in: dir)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("'fatal' is invalid for '--fail-on"), bad.stderr)
    }

    func testQuietPrintsOnlyFindings() throws {
        let dir = try project()
        let r = try CLI.run(["lint", ".", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1, r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix("My App/App.entitlements:7:3: error: "))
        let clean = try CLI.run(["lint", "Clean", "--quiet"], in: dir)
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stdout, "")
        XCTAssertFalse(try CLI.run(["lint", ".", "--quiet", "--format", "github"], in: dir).stdout.contains("checked"))
    }

    func testColor() throws {
        let dir = try project()
        let escape = "\u{1B}["
        XCTAssertFalse(try CLI.run(["lint", "."], in: dir).stdout.contains(escape), "auto: not a terminal")
        XCTAssertTrue(try CLI.run(["lint", ".", "--color", "always"], in: dir).stdout.contains(escape), "always overrides NO_COLOR")
        XCTAssertTrue(try CLI.run(["lint", ".", "--color=always"], in: dir).stdout.contains(escape))
        XCTAssertFalse(try CLI.run(["lint", ".", "--color", "never"], in: dir).stdout.contains(escape))
        XCTAssertFalse(try CLI.run(["lint", ".", "--color", "always", "--no-color"], in: dir).stdout.contains(escape), "--no-color still works")
        XCTAssertFalse(try CLI.run(["lint", ".", "--color", "always", "--format", "json"], in: dir).stdout.contains(escape), "only text is coloured")
        XCTAssertEqual(try CLI.run(["lint", ".", "--color", "sometimes"], in: dir).status, 2)
    }

    func testGitIgnoreIsRespectedInAWorkTree() throws {
        let dir = try project()
        try write(Self.wildcard, to: dir.appendingPathComponent("Generated/Gen.entitlements"))
        try write("Generated/\n", to: dir.appendingPathComponent(".gitignore"))
        XCTAssertTrue(try CLI.run(["lint", "."], in: dir).stdout.contains("Generated/Gen.entitlements"), "not a git work tree yet")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let r = try CLI.run(["lint", "."], in: dir)
        XCTAssertFalse(r.stdout.contains("Generated/"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("2 files checked: 1 error, 0 warnings, 0 notes\n"), r.stdout)
        XCTAssertTrue(try CLI.run(["lint", "Generated/Gen.entitlements"], in: dir).stdout.contains("Gen.entitlements:7:3"),
                      "a file named on the command line is linted")
    }

    /// `--opt=value` goes through swift-argument-parser, `--opt value` through the hand-read fast
    /// path: both must read the new options alike.
    func testFastPathAgreesWithArgumentParser() throws {
        let dir = try project()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fast"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("slow"), withIntermediateDirectories: true)
        let fast = try CLI.run(["lint", ".", "--quiet", "--fail-on", "note", "--color", "always", "--report", "gitlab:fast/gl.json",
                                "--report", "checkstyle:fast/cs.xml"], in: dir)
        let slow = try CLI.run(["lint", ".", "--quiet", "--fail-on=note", "--color=always", "--report=gitlab:slow/gl.json",
                                "--report=checkstyle:slow/cs.xml"], in: dir)
        XCTAssertEqual(fast.status, slow.status)
        XCTAssertEqual(fast.stdout, slow.stdout)
        XCTAssertTrue(fast.stdout.contains("\u{1B}["))
        for name in ["gl.json", "cs.xml"] {
            XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("fast/\(name)"), encoding: .utf8),
                           try String(contentsOf: dir.appendingPathComponent("slow/\(name)"), encoding: .utf8), name)
        }
        let fastStdin = try run(["lint", "--stdin-filename", "S.entitlements"], in: dir, input: Self.wildcard)
        let slowStdin = try run(["lint", "--stdin-filename=S.entitlements"], in: dir, input: Self.wildcard)
        XCTAssertEqual(fastStdin.stdout, slowStdin.stdout)
        XCTAssertTrue(fastStdin.stdout.hasPrefix("S.entitlements:7:3"), fastStdin.stdout)
    }

    // MARK: standard input

    /// Standard input is paired with the profiles of config `profiles:` and `--profiles`, by App
    /// ID, as a file on disk would be (a hook linting `git show :App.entitlements` still checks it
    /// against its profile).
    func testStandardInputIsPairedWithConfiguredProfiles() throws {
        let dir = try CLI.temporaryDirectory(self)
        let profiles = dir.appendingPathComponent("signing")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/family/profiles/AppOne.mobileprovision"),
                                         to: profiles.appendingPathComponent("AppOne.mobileprovision"))
        // An app group the profile does not list: only the profile can say so.
        let entitlements = CLI.entitlements(["$(AppIdentifierPrefix)com.example.AppOne"],
                                            extra: "\n\t<key>com.apple.security.application-groups</key>\n\t<array><string>group.com.example.notallowed</string></array>")
        let args = ["lint", "-", "--stdin-filename", "AppOne.entitlements", "--team-id", "ABCDE12345", "--bundle-id", "com.example.AppOne"]
        let alone = try run(args, in: dir, input: entitlements)
        XCTAssertFalse(alone.stdout.contains("entitlement-value-mismatch"), alone.stdout)
        let withFlag = try run(args + ["--profiles", "signing"], in: dir, input: entitlements)
        XCTAssertTrue(withFlag.stdout.contains("group.com.example.notallowed"), withFlag.stdout)
        XCTAssertTrue(withFlag.stdout.contains("[entitlement-value-mismatch]"), withFlag.stdout)
        try write("profiles: [signing]\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let withConfig = try run(args, in: dir, input: entitlements)
        XCTAssertEqual(withConfig.stdout, withFlag.stdout)
    }

    func testStandardInput() throws {
        let dir = try CLI.temporaryDirectory(self)
        let named = try run(["lint", "-", "--stdin-filename", "App/App.entitlements"], in: dir, input: Self.wildcard)
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertTrue(named.stdout.hasPrefix("App/App.entitlements:7:3: error: keychain access group"), named.stdout)
        XCTAssertTrue(named.stdout.hasSuffix("1 file checked: 1 error, 0 warnings, 0 notes\n"))

        let onlyName = try run(["lint", "--stdin-filename", "X.entitlements", "--quiet"], in: dir, input: Self.wildcard)
        XCTAssertTrue(onlyName.stdout.hasPrefix("X.entitlements:7:3: error:"), onlyName.stdout)

        let unnamed = try run(["lint", "-"], in: dir, input: Self.wildcard)
        XCTAssertTrue(unnamed.stdout.hasPrefix("<stdin>:7:3: error:"), unnamed.stdout)

        let clean = try run(["lint", "-"], in: dir, input: Self.clean)
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stdout, "1 file checked: no problems found\n")

        let big = try run(["lint", "-", "--max-file-size", "100"], in: dir, input: Self.wildcard)
        XCTAssertEqual(big.status, 1)
        XCTAssertTrue(big.stdout.hasPrefix("<stdin>: error: cannot parse property list: cannot read standard input: larger than the limit of 100 bytes"), big.stdout)

        let broken = try run(["lint", "-", "--stdin-filename", "B.entitlements"], in: dir, input: "<plist><dict><key>a</key></plist>")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stdout.hasPrefix("B.entitlements:1:"), broken.stdout)
        XCTAssertTrue(broken.stdout.contains("[parse-error]"))

        try write(Self.clean, to: dir.appendingPathComponent("Other.entitlements"))
        let mixed = try run(["lint", "-", "Other.entitlements"], in: dir, input: Self.clean)
        XCTAssertEqual(mixed.status, 2)
        XCTAssertTrue(mixed.stderr.contains("cannot be combined with other paths"), mixed.stderr)
        XCTAssertEqual(try run(["lint", "Other.entitlements", "--stdin-filename", "x.entitlements"], in: dir, input: "").status, 2)
    }

    func testStandardInputUsesTheConfigurationAndReportFormats() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("team: ABCDE12345\n", to: dir.appendingPathComponent(".entitlint.yml"))
        let other = CLI.entitlements(["ZYXWV98765.com.example.shared"])
        let r = try run(["lint", "--stdin-filename", "App/App.entitlements", "--format", "sarif"], in: dir, input: other)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"ruleId\" : \"team-prefix-mismatch\""), "the config's team applies: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("\"uri\" : \"App/App.entitlements\""))
        try SchemaValidator.validate(r.stdout, format: "sarif")
    }
}
