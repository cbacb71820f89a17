public import EntitlintCore

/// What every reporter gets: the findings of a run and its counts. Reporters compute nothing.
public struct Report: Sendable {
    public var findings: [Finding]
    /// What the run could not see (`Notice`): shown where a format has a place for it.
    public var notices: [Notice] = []
    public var files: Int
    public var colour: Bool
    /// The rules enabled in the run, with their effective severity (for SARIF's rule list).
    public var rules: [RuleDescription]
    /// Every file checked, as shown in findings (for formats that list clean files: JUnit).
    public var paths: [String]
    /// Whether the human formats (`text`, `github`) end with the summary line (`--quiet` turns it off).
    public var showSummary: Bool
    /// The repository the run is in, for formats that want paths relative to its root (SARIF,
    /// GitLab, GitHub); nil: paths as shown.
    public var sourceRoot: SourceRoot?

    public init(findings: [Finding], files: Int, colour: Bool = false, rules: [RuleDescription] = [], paths: [String] = [],
                showSummary: Bool = true, sourceRoot: SourceRoot? = nil) {
        self.findings = findings
        self.files = files
        self.colour = colour
        self.rules = rules
        self.paths = paths
        self.showSummary = showSummary
        self.sourceRoot = sourceRoot
    }

    // Counted, not filtered: a filter copies every finding it keeps.
    public var errors: Int { count(.error) }
    public var warnings: Int { count(.warning) }
    public var notes: Int { count(.note) }

    func count(_ severity: Severity) -> Int {
        var n = 0
        for f in findings where f.severity == severity { n += 1 }
        return n
    }
}

public protocol Reporter: Sendable {
    static var identifier: String { get }
    /// True for formats read by a code host (paths relative to the repository root).
    static var usesRepositoryPaths: Bool { get }
    /// How the output boundary writes a character it changes so that no line is a CI workflow
    /// command (`OutputText.guardCommandLines`): in the form the format reads back as the same.
    static var commandGuard: CommandGuardStyle { get }
    func render(_ report: Report) -> String
}

extension Reporter {
    public static var usesRepositoryPaths: Bool { false }
    public static var commandGuard: CommandGuardStyle { .text }

    /// `render(report)` as it may be printed or written: guarded against workflow commands in
    /// the format's own style; the `github` format keeps the annotations it wrote.
    public func guarded(_ text: String) -> String {
        OutputText.guardCommandLines(text, style: Self.commandGuard, keepingAnnotations: self is GitHubReporter)
    }
}

public enum Reporters {
    public static let all: [any Reporter] = [
        TextReporter(), JSONReporter(), SARIFReporter(), JUnitReporter(), CheckstyleReporter(), GitHubReporter(), GitLabReporter(),
    ]
    public static var identifiers: [String] { all.map { type(of: $0).identifier } }
    public static func reporter(named name: String) -> (any Reporter)? {
        all.first { type(of: $0).identifier == name }
    }
}
