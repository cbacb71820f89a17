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
    public var message: String
    /// The file, as shown to the user (relative to the current folder when below it).
    public var path: String
    /// 1-based; 0 when the file has no lines (binary plist, profile, unreadable file).
    public var line: Int
    public var column: Int
    /// The signing unit the finding concerns, if any.
    public var unit: String?
    /// Where in the plist: `keychain-access-groups[2]`, stable across edits (for baselines).
    public var keyPath: String?
    /// One sentence on how to fix it, when the message does not already end with one.
    public var help: String?
    /// Where the facts the finding reasons about came from, and what was assumed: read by a
    /// reviewer deciding whether to believe it. Never changes what the finding claims.
    public var notes: [String] = []

    public init(rule: String, severity: Severity, message: String, path: String, line: Int = 0, column: Int = 0,
                unit: String? = nil, keyPath: String? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.unit = unit
        self.keyPath = keyPath
    }

    public static func < (a: Finding, b: Finding) -> Bool {
        if a.path != b.path { return a.path < b.path }
        if a.line != b.line { return a.line < b.line }
        if a.column != b.column { return a.column < b.column }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}
