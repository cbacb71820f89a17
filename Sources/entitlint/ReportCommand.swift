import ArgumentParser
import EntitlintCore
import EntitlintRules
import Reporters

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

    func run() throws {
        guard let fmt = AccessReportFormat(rawValue: format) else {
            throw CLIError("unknown report format '\(format)' (known: \(AccessReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var options = try facts.options(paths: paths, knownRules: RuleRegistry.ids)
        options.readLock = false
        // Refused before any work: only a regular file or nothing may be replaced (or a stream).
        var destination = WriteDestination.standardOutput
        if let output {
            do { destination = try FileReader.destination(output) } catch { throw CLIError("cannot write report \(output): \(error)") }
        }
        let result: LintResult
        do { result = try Linter(rules: []).lint(options) } catch { throw CLIError(error.description) }
        for f in result.findings where f.rule == "parse-error" {
            Output.error("warning: \(f.path)\(f.line > 0 ? ":\(f.line)" : ""): \(f.message)")
        }
        let index = CodeIndex.disk(limit: options.limits.maxBytes, cwd: Paths.currentDirectory(), virtualFiles: options.virtualFiles,
                                        configuration: options.configuration)
        let text = fmt.render(AccessReport(units: result.units) { unit in
            // A unit with no source file says nothing about its code: no code section.
            unit.origin?.sources.flatMap { $0.files.isEmpty ? nil : index.code(for: $0) }
        })
        if destination == .standardOutput {
            Output.write(text)
        } else {
            do { try FileReader.write(Array(text.utf8), to: destination) } catch {
                throw CLIError("cannot write report \(output ?? "-"): \(error)")
            }
        }
    }
}
