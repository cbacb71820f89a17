/// How bad a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case note, warning, error

    var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// Something the run could not see, said once: not a finding (it claims nothing is wrong with the
/// project). A file a fresh clone lacks (a git submodule, `pod install`'s output, a per-developer
/// xcconfig) is one: the checks that needed its settings stayed silent, and the notice says which.
/// Reporters that have a place for such messages show them (JSON `notices`, SARIF
/// `toolExecutionNotifications`, the text formats on standard error); they never change the exit
/// status.
public struct Notice: Sendable, Hashable, Codable, Comparable {
    public var message: String
    /// The file that names what is missing, as shown to the user.
    public var path: String
    public var line: Int
    public var column: Int

    public init(message: String, path: String, line: Int = 0, column: Int = 0) {
        self.message = message
        self.path = path
        self.line = line
        self.column = column
    }

    public static func < (a: Notice, b: Notice) -> Bool {
        (a.path, a.line, a.column, a.message) < (b.path, b.line, b.column, b.message)
    }
}

/// One problem found in one file. Immutable; sorted by path, line, column, rule.
public struct Finding: Sendable, Hashable, Codable, Comparable {
    public var rule: String
    public var severity: Severity
    /// What is wrong, without the units it concerns (those are `units`).
    public var message: String
    /// The file, as shown to the user (relative to the current folder when below it).
    public var path: String
    /// Where in the file; nil when the finding concerns the file as a whole (a profile, a binary
    /// plist, an unreadable file), which has no lines to point at.
    public var location: Location?
    /// The signing unit the finding concerns, if any.
    public var unit: String?
    /// The units (configurations of a target) a finding folded from several concerns, when they
    /// are some of the units read from its file, not all: empty when it concerns every one (or
    /// only `unit`). Set by the fold; the text formats show them after the message, " (in A, B)".
    public var units: [String] = []
    /// Where in the plist: `keychain-access-groups[2]`, stable across edits (for baselines).
    public var keyPath: String?
    /// One sentence on how to fix it, when the message does not already end with one.
    public var help: String?
    /// Where the facts the finding reasons about came from, and what was assumed: read by a
    /// reviewer deciding whether to believe it. Never changes what the finding claims.
    public var notes: [String] = []
    /// Edits that would remove the problem, when a rule can say them exactly (`Fix`).
    public var fix: Fix?

    /// A place in a file: a 1-based line, and a 1-based column when one is known.
    public struct Location: Sendable, Hashable, Codable {
        public var line: Int
        public var column: Int?

        /// nil for line 0 (no place): every location has a line >= 1, and a column >= 1 or none.
        public init?(line: Int, column: Int = 0) {
            guard line > 0 else { return nil }
            self.line = line
            self.column = column > 0 ? column : nil
        }
    }

    public init(rule: String, severity: Severity, message: String, path: String, line: Int = 0, column: Int = 0,
                unit: String? = nil, keyPath: String? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.path = path
        self.location = Location(line: line, column: column)
        self.unit = unit
        self.keyPath = keyPath
    }

    /// The location's line, 0 when there is none: what the rules and the line-based formats
    /// read. Setting 0 removes the location; setting a line keeps the column.
    public var line: Int {
        get { location?.line ?? 0 }
        set { location = Location(line: newValue, column: location?.column ?? 0) }
    }

    /// The location's column, 0 when there is none (or no location). Without a line there is no
    /// column to set.
    public var column: Int {
        get { location?.column ?? 0 }
        set { if location != nil { location!.column = newValue > 0 ? newValue : nil } }
    }

    /// The message as the text formats show it: followed by the units it concerns,
    /// " (in A, B)", when it names some.
    public var shownMessage: String {
        units.isEmpty ? message : message + " (in \(units.joined(separator: ", ")))"
    }

    public static func < (a: Finding, b: Finding) -> Bool {
        if a.path != b.path { return a.path < b.path }
        if a.line != b.line { return a.line < b.line }
        if a.column != b.column { return a.column < b.column }
        if a.rule != b.rule { return a.rule < b.rule }
        if a.units.isEmpty, b.units.isEmpty { return a.message < b.message }
        return a.shownMessage < b.shownMessage
    }
}
