public import EntitlintCore

/// `path:line:col: severity: message [rule-id]`, the form Xcode and editors link, then a
/// one-line summary (not with `--quiet`). Colour only when asked (the CLI asks on a TTY without `NO_COLOR`).
public struct TextReporter: Reporter {
    public static let identifier = "text"
    public init() {}

    public func render(_ report: Report) -> String {
        var out = ""
        for f in report.findings {
            var position = f.path
            if f.line > 0 {
                position += ":\(f.line)"
                if f.column > 0 { position += ":\(f.column)" }
            }
            let sev = f.severity.rawValue
            if report.colour {
                let code = f.severity == .error ? "31" : f.severity == .warning ? "33" : "36"
                out += "\u{1B}[1m\(position):\u{1B}[0m \u{1B}[1;\(code)m\(sev):\u{1B}[0m \(f.message) \u{1B}[2m[\(f.rule)]\u{1B}[0m\n"
            } else {
                out += "\(position): \(sev): \(f.message) [\(f.rule)]\n"
            }
        }
        if report.showSummary { out += summary(report) + "\n" }
        return out
    }

    func summary(_ r: Report) -> String {
        let files = "\(r.files) file\(r.files == 1 ? "" : "s") checked"
        if r.findings.isEmpty { return "\(files): no problems found" }
        func n(_ c: Int, _ w: String) -> String { "\(c) \(w)\(c == 1 ? "" : "s")" }
        return "\(files): \(n(r.errors, "error")), \(n(r.warnings, "warning")), \(n(r.notes, "note"))"
    }
}
