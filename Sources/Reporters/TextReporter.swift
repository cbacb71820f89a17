public import EntitlintCore

/// `path:line:col: severity: message [rule-id]`, the form Xcode and editors link, then a
/// one-line summary (not with `--quiet`). Colour only when asked (the CLI asks on a TTY without `NO_COLOR`).
///
/// Paths and messages come from inputs, so each is escaped (`OutputText.escape`): a finding is
/// always one line, free of control characters. A path that starts with `::` is written `./::...`
/// (the same file), so no line starts with `::`, which GitHub Actions would read as a command.
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
            if path.utf8.starts(with: "::".utf8) { put("./") }
            put(path)
            if f.line > 0 {
                out.append(UInt8(ascii: ":"))
                put(f.line)
                if f.column > 0 {
                    out.append(UInt8(ascii: ":"))
                    put(f.column)
                }
            }
            if report.colour {
                let code = f.severity == .error ? "31" : f.severity == .warning ? "33" : "36"
                put(":\u{1B}[0m \u{1B}[1;\(code)m")
                put(f.severity.rawValue)
                put(":\u{1B}[0m ")
                put(OutputText.escape(f.message))
                put(" \u{1B}[2m[")
                put(f.rule)
                put("]\u{1B}[0m\n")
            } else {
                put(": ")
                put(f.severity.rawValue)
                put(": ")
                put(OutputText.escape(f.message))
                put(" [")
                put(f.rule)
                put("]\n")
            }
        }
        if report.showSummary {
            put(summary(report))
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    func summary(_ r: Report) -> String {
        let files = "\(r.files) file\(r.files == 1 ? "" : "s") checked"
        if r.findings.isEmpty { return "\(files): no problems found" }
        func n(_ c: Int, _ w: String) -> String { "\(c) \(w)\(c == 1 ? "" : "s")" }
        return "\(files): \(n(r.errors, "error")), \(n(r.warnings, "warning")), \(n(r.notes, "note"))"
    }
}
