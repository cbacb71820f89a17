public import EntitlintCore
public import EntitlintWorkspace

/// What one run prints and writes: the console format (`--format`) and any number of report
/// files (`--report FORMAT:PATH`, repeatable). Everything is checked before linting starts, so a
/// bad destination costs no work; each file is then written atomically (a temporary file beside
/// it, renamed over it), so a failed write leaves no half-written report.
public struct ReportPlan: Sendable {
    public struct Destination: Sendable {
        public var reporter: any Reporter
        public var path: String
        /// What `path` is: a regular file or nothing (written atomically), or a stream (`-`,
        /// `/dev/stdout`, `/dev/null`). Anything else was refused when the plan was made.
        public var target: WriteDestination
    }

    public struct PlanError: Error, CustomStringConvertible, Equatable {
        /// One message per problem (one per report file that could not be written).
        public var messages: [String]
        public var description: String { messages.joined(separator: "\n") }
        init(_ d: String) { messages = [d] }
        init(messages: [String]) { self.messages = messages }
    }

    public var console: any Reporter
    public var files: [Destination]

    public init(format: String, reports: [String]) throws(PlanError) {
        guard let console = Reporters.reporter(named: format) else {
            throw PlanError("unknown format '\(format)' (known: \(Reporters.identifiers.joined(separator: ", ")))")
        }
        self.console = console
        files = []
        var seen = Set<String>()
        for spec in reports {
            let d = try Self.destination(spec)
            guard seen.insert(Paths.absolute(d.path)).inserted else {
                throw PlanError("--report \(spec): \(d.path) is named by another --report too")
            }
            files.append(d)
        }
    }

    /// `FORMAT:PATH`, split at the first `:` (formats have none; paths may).
    static func destination(_ spec: String) throws(PlanError) -> Destination {
        guard let colon = spec.firstIndex(of: ":") else {
            throw PlanError("--report expects FORMAT:PATH, e.g. sarif:entitlint.sarif (got '\(spec)')")
        }
        let format = String(spec[..<colon])
        let path = String(spec[spec.index(after: colon)...])
        guard let reporter = Reporters.reporter(named: format) else {
            throw PlanError("--report \(spec): unknown format '\(format)' (known: \(Reporters.identifiers.joined(separator: ", ")))")
        }
        guard !path.isEmpty else { throw PlanError("--report \(spec): no path after '\(format):'") }
        if Paths.kind(path) == .directory { throw PlanError("--report \(spec): \(path) is a folder") }
        let folder = Paths.directoryName(path)
        guard path == "-" || Paths.kind(folder) == .directory else {
            throw PlanError("--report \(spec): cannot write \(path): no such folder \(folder)")
        }
        let target: WriteDestination
        do { target = try FileReader.destination(path) } catch { throw PlanError("--report \(spec): \(error)") }
        return Destination(reporter: reporter, path: path, target: target)
    }

    /// All formats of the run, console first.
    public var reporters: [any Reporter] { [console] + files.map(\.reporter) }

    /// Whether any format wants paths relative to the repository root (worth finding it).
    public var usesRepositoryPaths: Bool { reporters.contains { type(of: $0).usesRepositoryPaths } }

    public func uses(_ identifier: String) -> Bool { reporters.contains { type(of: $0).identifier == identifier } }

    /// Whether a format lists every file checked (`Report.paths`: JUnit, checkstyle).
    public var needsCheckedPaths: Bool { uses(JUnitReporter.identifier) || uses(CheckstyleReporter.identifier) }

    /// Whether a format lists the enabled rules (`Report.rules`: SARIF).
    public var needsRules: Bool { uses(SARIFReporter.identifier) }

    /// Renders and writes every report file: without colour, and with the summary line whatever
    /// `--quiet` says (quiet is about the console), guarded against workflow commands as printed
    /// output is (`Reporter.guarded`: a CI step may print the file). A report for standard output
    /// is handed to `standardOutput` with its reporter (the CLI's writer guards it). Writes them
    /// all, then throws naming every file that could not be written.
    /// `fit` renders a report with a reporter's `render` within the run's size limit (each format
    /// is cut on its own: a SARIF file is larger than the text of the same findings).
    public func writeFiles(_ report: Report, fit: (Report, (Report) -> String) -> String = { $1($0) },
                           standardOutput: (String, any Reporter) -> Void = { _, _ in }) throws(PlanError) {
        var fileReport = report
        fileReport.colour = false
        fileReport.showSummary = true
        var failures: [String] = []
        for d in files {
            // Fitted as guarded: the size limit holds for the bytes written.
            let text = fit(fileReport) { d.reporter.guarded(d.reporter.render($0)) }
            if d.target == .standardOutput {
                standardOutput(text, d.reporter)
                continue
            }
            do {
                try FileReader.write(Array(text.utf8), to: d.target)
            } catch {
                failures.append("cannot write report \(d.path): \(error)")
            }
        }
        if !failures.isEmpty { throw PlanError(messages: failures) }
    }
}

extension Report {
    /// Every file a lint run checked, as shown in findings: the entitlements files (one per unit),
    /// the profiles, and the files that could not be parsed or read. Sorted, without duplicates.
    public static func checkedPaths(of result: LintResult) -> [String] {
        if !result.paths.isEmpty { return Array(Set(result.paths)).sorted() }
        var paths = Set(result.units.map(\.entitlementsPath))
        paths.formUnion(result.profiles.map(\.path))
        for f in result.findings where ToolFindings.contains(f.rule) { paths.insert(f.path) }
        return paths.sorted()
    }

    /// The rules a run enables, with their effective severity: `rules` less those configured
    /// `off` and the opt-in rules the run does not name, with configured severities applied
    /// (what the linter does to their findings: `FindingStage` keeps the same ones).
    public static func enabledRules(_ rules: [RuleDescription], settings: [String: Configuration.RuleSetting]) -> [RuleDescription] {
        rules.compactMap { d in
            guard d.isEnabled(by: settings[d.id]) else { return nil }
            var d = d
            if let severity = settings[d.id]?.severity { d.severity = severity }
            return d
        }
    }
}
