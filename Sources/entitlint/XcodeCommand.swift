import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import Reporters
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `entitlint xcode`: what a Run Script build phase runs. Xcode passes the build's settings as
/// environment variables; the command lints the project and prints, in the format Xcode's issue
/// navigator reads (`/absolute/path:line:col: error: message`), only the findings of the unit
/// being built. A failing finding fails the build (exit 1).
struct XcodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcode",
        abstract: "Lint the target and configuration Xcode is building (run it from a Run Script build phase).",
        discussion: """
        Reads TARGET_NAME, CONFIGURATION, SRCROOT, PROJECT_FILE_PATH and CODE_SIGN_ENTITLEMENTS from the \
        build's environment; PRODUCT_BUNDLE_IDENTIFIER and DEVELOPMENT_TEAM are used only when the project \
        cannot be read. A target without an entitlements file is not linted.
        """)

    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails the build with exit 1 (default: error, or the config's fail-on).")
    var failOn: Severity?

    @Flag(help: "Same as --fail-on warning.")
    var strict = false

    func run() throws {
        guard let build = XcodeBuildPhase(environment: ProcessInfo.processInfo.environment) else {
            throw CLIError("entitlint xcode runs in an Xcode build phase: TARGET_NAME, CONFIGURATION and SRCROOT are not set (use `entitlint lint` elsewhere)")
        }
        guard build.entitlements != nil else { return }   // nothing signed with entitlements here
        // The phase's facts (the lock file, the configuration) are found from the project's folder.
        guard chdir(build.sourceRoot) == 0 else { throw CLIError("cannot enter SRCROOT \(build.sourceRoot): \(String(cString: strerror(errno)))") }
        let stderr = { (text: String) in Output.write(text, fd: STDERR_FILENO) }
        let projectRequest = build.projectRequest(failOn: failOn, strict: strict)
        var outcome = try LintRun.run(projectRequest, diagnostics: stderr)
        var built = build.builtUnits(outcome.result.units)
        if built.isEmpty, let request = build.fileRequest(failOn: failOn, strict: strict) {
            Output.error("note: \(build.target) (\(build.configuration)) is not a target the project reader found: linting \(build.entitlements ?? "") alone with the build's bundle ID and team")
            outcome = try LintRun.run(request, diagnostics: stderr)
            built = outcome.result.units
        }
        let cwd = Paths.currentDirectory()
        let findings = build.findings(of: outcome.result, built: built).map { f -> Finding in
            var f = f
            f.path = Paths.absolute(f.path, cwd: cwd)   // Xcode links absolute paths to the file
            return f
        }
        let report = Report(findings: findings, files: outcome.result.files, showSummary: false)
        Output.write(TextReporter().render(report))
        let level = projectRequest.failingLevel(outcome.options.configuration)
        if findings.contains(where: { $0.severity >= level }) { throw ExitCode(1) }
    }
}
