public import EntitlintCore

extension AccessReport {
    /// One finding of the lint run that the report attaches to a unit, and to a group when the
    /// finding is about the list entry holding it (its key path is the entry's).
    public struct Mark: Sendable, Codable, Hashable {
        public var rule: String
        public var severity: Severity
        public var message: String
        /// The unit it concerns.
        public var unit: String
        public var path: String
        /// Nil when the file has no lines (a profile, a binary plist).
        public var line: Int?
        public var keyPath: String?

        func escaped() -> Mark {
            Mark(rule: OutputText.escape(rule), severity: severity, message: OutputText.escape(message), unit: OutputText.lineStart(unit),
                 path: OutputText.escape(path), line: line, keyPath: keyPath.map(OutputText.escape))
        }
    }

    /// The unit's default access group moved since the reference (the lock file, or the
    /// `--against` revision), as `default-group-drift` compares them.
    public struct DefaultMove: Sendable, Codable, Hashable {
        public var from: String
        public var to: String
        /// `lock file` or `revision REV`.
        public var reference: String

        public init(from: String, to: String, reference: String) {
            self.from = from
            self.to = to
            self.reference = reference
        }

        func escaped() -> DefaultMove {
            DefaultMove(from: OutputText.escape(from), to: OutputText.escape(to), reference: OutputText.escape(reference))
        }

        /// `default moved: old -> new (lock file)`
        var text: String { "default moved: \(from) -> \(to) (\(reference))" }
    }

    /// Places the run's findings: each on the units it concerns (`UnitIndex.unitNames`), and on
    /// the groups of those units' entries whose key path it names. Each finding is looked up
    /// once; a unit's marks keep the run's order (path, line, rule).
    mutating func attach(_ findings: [Finding], units signingUnits: [SigningUnit]) {
        guard !findings.isEmpty else { return }
        let index = UnitIndex(signingUnits)
        // Unit names are unique in a run; should two ever agree, the first keeps the marks
        // rather than the report failing.
        let position = Dictionary(units.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var groupMarks: [String: [Mark]] = [:]
        for f in findings {
            for name in index.unitNames(of: f) {
                guard let i = position[name] else { continue }
                let mark = Mark(rule: f.rule, severity: f.severity, message: f.shownMessage, unit: name, path: f.path,
                                line: f.line > 0 ? f.line : nil, keyPath: f.keyPath)
                units[i].findings.append(mark)
                guard let entry = units[i].groups.first(where: { Unit.concerns(mark, $0) }) else { continue }
                groupMarks[(entry.kind == "app-group" ? "app-group" : "keychain") + "\u{0}" + entry.group, default: []].append(mark)
            }
        }
        for i in keychainGroups.indices { keychainGroups[i].findings = groupMarks["keychain\u{0}" + keychainGroups[i].group] ?? [] }
        for i in appGroups.indices { appGroups[i].findings = groupMarks["app-group\u{0}" + appGroups[i].group] ?? [] }
    }
}

extension AccessReport.Unit {
    /// Whether a finding is about a list entry: its key path is the entry's, or it is about the
    /// default group (`default-access-group`) and the entry is the default.
    static func concerns(_ mark: AccessReport.Mark, _ entry: AccessReport.Entry) -> Bool {
        mark.keyPath == entry.key || (entry.isDefault && mark.keyPath == "default-access-group")
    }

    /// The unit's findings about one entry of its list.
    func marks(of entry: AccessReport.Entry) -> [AccessReport.Mark] { findings.filter { Self.concerns($0, entry) } }
}

extension Array where Element == AccessReport.Mark {
    /// The highest severity among the marks, nil when there are none.
    var worst: Severity? { map(\.severity).max() }

    /// Each severity present, worst first, with its distinct rule ids in order of appearance.
    var bySeverity: [(Severity, [String])] {
        Severity.allCases.reversed().compactMap { level in
            var ids: [String] = []
            for m in self where m.severity == level && !ids.contains(m.rule) { ids.append(m.rule) }
            return ids.isEmpty ? nil : (level, ids)
        }
    }

    /// `[error: wildcard-access-group] [warning: a, b]`; empty when there are no marks.
    var marker: String {
        bySeverity.map { "[\($0.0.rawValue): \($0.1.joined(separator: ", "))]" }.joined(separator: " ")
    }
}

/// Colours of severities, shared by the formats that draw them.
enum SeverityColour {
    static func hex(_ s: Severity) -> String { s.named(error: "#de350b", warning: "#ff8b00", note: "#6554c0") }

    /// ANSI SGR for a terminal.
    static func ansi(_ s: Severity) -> String { s.named(error: "\u{1B}[1;31m", warning: "\u{1B}[33m", note: "\u{1B}[36m") }

    static let reset = "\u{1B}[0m"
}
