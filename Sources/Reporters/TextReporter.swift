import EntitlintCore

/// `path:line:col: severity: message [rule-id]`, the form Xcode and editors link, then a
/// one-line summary (not with `--quiet`). Colour only when asked (the CLI asks on a TTY without `NO_COLOR`).
///
/// A finding's notes, help and fix follow its line, indented, as rustc and ruff write them
/// (`  = note: ...`, `  = help: ...`): a line that starts with white space is never read as a
/// finding by an editor's `path:line:col:` pattern, so the finding lines parse as before.
///
/// Paths and messages come from inputs, so each is escaped (`OutputText.escape`): a finding is
/// always one line, free of control characters. A path that would start a GitHub Actions
/// workflow command (`::`, after any white space the runner trims: `OutputText.startsCommand`)
/// is written `./::...`, the same file, so the line is no command and the path still opens.
public struct TextReporter: Reporter {
    public static let identifier = "text"
    public init() {}

    public func render(_ report: Report) -> String {
        // Into bytes, turned into a String once: appending each line to a growing String costs
        // several hundred instructions a piece, a lot for thousands of findings.
        var out: [UInt8] = []
        out.reserveCapacity(report.findings.count * 160 + 80)
        func put(_ s: String) {
            if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out.append(contentsOf: s.utf8) }
        }
        func put(_ n: Int) {
            guard n >= 10 else { out.append(UInt8(ascii: "0") + UInt8(n)); return }
            put(n / 10)
            out.append(UInt8(ascii: "0") + UInt8(n % 10))
        }
        for f in report.findings {
            if report.colour { put("\u{1B}[1m") }
            let path = OutputText.escape(f.path)
            if OutputText.startsCommand(path) { put("./") }
            put(path)
            if f.line > 0 {
                out.append(UInt8(ascii: ":"))
                put(f.line)
                if f.column > 0 {
                    out.append(UInt8(ascii: ":"))
                    put(f.column)
                }
            }
            // The same line in both modes; colour only adds SGR sequences around its parts.
            let marks = report.colour ? Marks.colour(f.severity) : Marks.plain
            put(marks.beforeSeverity)
            put(f.severity.rawValue)
            put(marks.beforeMessage)
            if Self.fixable(f) { put("[*] ") }
            put(OutputText.escape(f.shownMessage))
            put(marks.beforeRule)
            put(f.rule)
            put(marks.afterRule)
            for line in Self.detailLines(f) {
                put(OutputText.escape(line))
                out.append(UInt8(ascii: "\n"))
            }
        }
        if report.showSummary {
            put(summary(report))
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lines under a finding: each note, then its help, then what its fix would do, each
    /// one line (`OutputText.escape` turns any line break a value holds into a visible escape).
    static func detailLines(_ f: Finding) -> [String] {
        // Only a safe fix is shown, as ruff does: an unsafe one is offered by `--unsafe-fixes`
        // (and carried by the JSON and SARIF reports), never suggested line by line.
        let fix = f.fix.flatMap { $0.edits.isEmpty || $0.applicability != .safe ? nil : $0 }
        guard !f.notes.isEmpty || f.help != nil || fix != nil else { return [] }
        var lines = f.notes.map { "  = note: " + $0 }
        if let help = f.help { lines.append("  = help: " + help) }
        if let fix { lines.append("  = fix (\(fix.applicability.rawValue)): " + fix.title) }
        return lines
    }

    /// The shown message, then its detail lines (`detailLines`), joined by line feeds: what the
    /// formats that carry one text per finding (JUnit, checkstyle, GitLab, GitHub) write.
    /// Not escaped: each format escapes it in its own way.
    static func messageWithDetails(_ f: Finding) -> String {
        let details = detailLines(f)
        return details.isEmpty ? f.shownMessage : ([f.shownMessage] + details).joined(separator: "\n")
    }

    func summary(_ r: Report) -> String {
        let files = "\(r.files) file\(r.files == 1 ? "" : "s") checked"
        if r.findings.isEmpty { return "\(files): no problems found" }
        func n(_ c: Int, _ w: String) -> String { "\(c) \(w)\(c == 1 ? "" : "s")" }
        return "\(files): \(n(r.errors, "error")), \(n(r.warnings, "warning")), \(n(r.notes, "note"))" + Self.fixSummary(r.findings)
    }

    /// A finding `--fix` would fix: it has a safe fix placed in its file's bytes (`[*]`).
    static func fixable(_ f: Finding) -> Bool {
        f.fix.map { $0.applicability == .safe && !$0.edits.isEmpty } ?? false
    }

    /// "; N fixable with --fix", or nothing.
    static func fixSummary(_ findings: [Finding]) -> String {
        var safe = 0
        for f in findings where fixable(f) { safe += 1 }
        return safe > 0 ? "; \(safe) fixable with --fix" : ""
    }
}

extension TextReporter {
    /// What stands between the parts of a finding's line (`path:line:col: severity: message [rule]`):
    /// plain punctuation, or the same with ANSI colour (the severity in its colour, the rule dim).
    struct Marks {
        var beforeSeverity: String
        var beforeMessage: String
        var beforeRule: String
        var afterRule: String

        static let plain = Marks(beforeSeverity: ": ", beforeMessage: ": ", beforeRule: " [", afterRule: "]\n")

        static func colour(_ severity: Severity) -> Marks {
            let code = severity.named(error: "31", warning: "33", note: "36")
            return Marks(beforeSeverity: ":\u{1B}[0m \u{1B}[1;\(code)m", beforeMessage: ":\u{1B}[0m ",
                         beforeRule: " \u{1B}[2m[", afterRule: "]\u{1B}[0m\n")
        }
    }
}
