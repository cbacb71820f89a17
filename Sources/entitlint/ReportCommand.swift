import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `entitlint report`: the access groups of every unit and who shares what.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show every unit's access groups (default marked, with where each comes from) and the sharing matrix.")

    @Argument(help: "Files and folders (default: the current folder): Xcode projects, workspaces, XcodeGen specs, entitlements files.")
    var paths: [String] = []

    @OptionGroup var facts: FactOptions

    @Option(help: "Output format: text (100 columns), markdown, json, dot (Graphviz) or html (one self-contained page).")
    var format: String = "text"

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: ArgumentHelp(
        "Mark the units whose default group moved since this git revision, instead of since the lock file.", valueName: "rev"))
    var against: String?

    @Option(help: "Colour the text report; auto: on a terminal, unless NO_COLOR is set.")
    var color: ColorChoice = .auto

    func run() throws {
        guard let fmt = AccessReportFormat(rawValue: format) else {
            throw CLIError("unknown report format '\(format)' (known: \(AccessReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var options = try facts.options(paths: paths, knownRules: RuleRegistry.ids)
        try ChangeRequest(against: against).prepare(&options, explicitPaths: paths, knownRules: RuleRegistry.ids)
        // Refused before any work: only a regular file or nothing may be replaced (or a stream).
        var destination = WriteDestination.standardOutput
        if let output {
            do { destination = try FileReader.destination(output) } catch { throw CLIError("cannot write report \(output): \(error)") }
        }
        // The findings are lint's on the same units: every rule, with the configuration's
        // severities (rules set `off` left out); the moved defaults are the drift rule's comparison.
        let linter = Linter(rules: RuleRegistry.all,
                            severityOverrides: RuleSelection().overrides(configuration: options.configuration, all: RuleRegistry.descriptions))
        let result: LintResult
        let moves: [String: (from: String, to: String, reference: String)]
        do {
            result = try linter.lint(options)
            moves = try options.defaultMoves(units: result.units)
        } catch { throw CLIError(error.description) }
        for f in result.findings where ToolFindings.contains(f.rule) {
            Output.error("warning: \(f.path)\(f.line > 0 ? ":\(f.line)" : ""): \(f.shownMessage)")
        }
        let colour = destination == .standardOutput
            && color.enabled(isTerminal: isatty(STDOUT_FILENO) == 1, noColor: getenv("NO_COLOR").map { String(cString: $0) })
        let report = AccessReport(units: result.units, findings: result.findings,
                                  moves: moves.mapValues { AccessReport.DefaultMove(from: $0.from, to: $0.to, reference: $0.reference) }) { unit in
            // A unit with no source file says nothing about its code: no code section. The index is
            // the run's: files the code rules scanned are not read again.
            unit.origin?.sources.flatMap { $0.files.isEmpty ? nil : result.codeIndex?.code(for: $0) }
        }
        let text = fmt.render(report, colour: colour)
        if destination == .standardOutput {
            Output.write(text, style: fmt.commandGuard)
        } else {
            // Guarded as printed output is: a CI step may print the file.
            let guarded = OutputText.guardCommandLines(text, style: fmt.commandGuard)
            do { try FileReader.write(Array(guarded.utf8), to: destination) } catch {
                throw CLIError("cannot write report \(output ?? "-"): \(error)")
            }
        }
    }
}
