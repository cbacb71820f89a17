import EntitlintCore

/// GitHub Actions workflow commands, which the runner turns into annotations on the files of a
/// pull request (docs.github.com, "Workflow commands for GitHub Actions"):
///
/// ```text
/// ::error file=App/App.entitlements,line=7,col=3,title=entitlint%3A wildcard-access-group::keychain access group ...
/// ```
///
/// `error`, `warning` and `notice` for Entitlint's error, warning and note. The message is the
/// finding's, with its units, then its notes and help on lines of their own (`%0A`), which the
/// annotation shows under it. Paths are relative to
/// the repository root (the runner's workspace). A finding without a line (a profile) has no
/// `line`/`col`: the annotation is on the file. Values are escaped as GitHub's toolkit escapes
/// them (actions/toolkit `packages/core/src/command.ts`): in the message `%`, CR and LF become
/// `%25`, `%0D`, `%0A` (`escapeData`); in properties also `:` and `,` become `%3A`, `%2C`
/// (`escapeProperty`). Every other control character is written as a visible escape
/// (`OutputText.escape`), so a command is one line whatever a value holds, and no value shows raw
/// in the log. The summary line follows unless `--quiet`.
///
/// When `GITHUB_STEP_SUMMARY` is set, the CLI also appends `stepSummary(_:)` to that file
/// (rendering stays free of side effects).
public struct GitHubReporter: Reporter {
    public static let identifier = "github"
    public static var usesRepositoryPaths: Bool { true }
    public init() {}

    static func command(_ s: Severity) -> String { s.named(error: "error", warning: "warning", note: "notice") }

    /// toolkit `escapeData`, then `OutputText.escape` for the control characters it leaves.
    static func escapeData(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(u)
            }
        }
        return OutputText.escape(out)
    }

    /// toolkit `escapeProperty`.
    static func escapeProperty(_ s: String) -> String {
        var out = ""
        for u in escapeData(s).unicodeScalars {
            switch u {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    public func render(_ report: Report) -> String {
        var out = ""
        for f in report.findings {
            var properties = ["file=" + Self.escapeProperty(report.repositoryPath(f.path))]
            if f.line > 0 {
                properties.append("line=\(f.line)")
                if f.column > 0 { properties.append("col=\(f.column)") }
            }
            properties.append("title=" + Self.escapeProperty("entitlint: " + f.rule))
            out += "::\(Self.command(f.severity)) \(properties.joined(separator: ","))::\(Self.escapeData(TextReporter.messageWithDetails(f)))\n"
        }
        if report.showSummary { out += TextReporter().summary(report) + "\n" }
        return out
    }

    /// Rows shown in the step summary; GitHub takes at most 1 MiB of summary per step.
    static let summaryRowLimit = 500

    /// A Markdown job summary: a heading, the summary line, and a table of the findings
    /// (docs.github.com, "Adding a job summary": GitHub-flavoured Markdown appended to the file
    /// named by `GITHUB_STEP_SUMMARY`).
    public static func stepSummary(_ report: Report) -> String {
        var md = "### Entitlint\n\n\(markdownEscape(TextReporter().summary(report)))\n"
        guard !report.findings.isEmpty else { return md + "\n" }
        md += "\n| Severity | File | Line | Rule | Message |\n|---|---|---:|---|---|\n"
        for f in report.findings.prefix(summaryRowLimit) {
            let cells = [f.severity.rawValue, report.repositoryPath(f.path), f.line > 0 ? String(f.line) : "", f.rule, f.shownMessage]
            md += "| " + cells.map(markdownEscape).joined(separator: " | ") + " |\n"
        }
        if report.findings.count > summaryRowLimit {
            md += "\n\(report.findings.count - summaryRowLimit) more findings are in the log.\n"
        }
        return md + "\n"
    }

    /// Table cells as literal text. Backslash escapes (CommonMark section 2.4: "Any ASCII
    /// punctuation character may be backslash-escaped") for the characters that would do something
    /// inside a cell: `|` ends it; `*`, `_`, `~`, `` ` ``, `[`, `]` format or link; `<`, `>`, `&`
    /// open HTML or entities; `$` starts GitHub's inline math (and access groups are full of
    /// `$(AppIdentifierPrefix)`); `\` itself. Line breaks become spaces.
    static func markdownEscape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\r", "\n": out += " "
            case _ where OutputText.isEscaped(u): out += OutputText.escape(String(u))
            case "\\", "|", "*", "_", "~", "`", "[", "]", "<", ">", "&", "$":
                out += "\\"
                out.unicodeScalars.append(u)
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
