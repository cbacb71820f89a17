public import EntitlintCore

/// Checkstyle XML, valid against checkstyle's `checkstyle-report-1.0.0.xsd`, as Jenkins
/// (warnings-ng), reviewdog and Danger read it:
///
/// ```xml
/// <checkstyle version="4.3">
///   <file name="App/App.entitlements">
///     <error line="7" column="3" severity="error" message="..." source="entitlint.wildcard-access-group"/>
///   </file>
///   <file name="Other.entitlements"/>
/// </checkstyle>
/// ```
///
/// One `<file>` per file checked, clean ones empty, as checkstyle itself writes them. The schema
/// types `line` and `column` as `xs:positiveInteger`, so a finding without a line (a profile) has
/// neither attribute: never `line="0"`. Severities map to the schema's `error`, `warning` and
/// `info`. `source` is `entitlint.<rule-id>` (checkstyle puts the check's name there). `version`
/// is the report-format version other linters (ESLint, SwiftLint) write.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"
    public static var commandGuard: CommandGuardStyle { .markup }
    public init() {}

    static func severity(_ s: Severity) -> String { s.named(error: "error", warning: "warning", note: "info") }

    public func render(_ report: Report) -> String {
        var byPath: [String: [Finding]] = [:]
        for f in report.findings { byPath[f.path, default: []].append(f) }
        let paths = Set(report.paths).union(byPath.keys).sorted()
        let files = paths.map { path in
            XMLNode("file", [("name", path)], children: (byPath[path] ?? []).map { f in
                var attributes: [(key: String, value: String)] = []
                if f.line > 0 {
                    attributes.append(("line", String(f.line)))
                    if f.column > 0 { attributes.append(("column", String(f.column))) }
                }
                attributes += [("severity", Self.severity(f.severity)), ("message", TextReporter.messageWithDetails(f)), ("source", "entitlint." + f.rule)]
                return XMLNode("error", attributes)
            })
        }
        return XMLWriter.document(XMLNode("checkstyle", [("version", "4.3")], children: files))
    }
}
