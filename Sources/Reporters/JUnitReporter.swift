public import EntitlintCore

/// JUnit XML as Jenkins' xUnit plugin validates it (`junit-10.xsd`) and as GitLab and GitHub test
/// report actions read it:
///
/// ```xml
/// <testsuites name="entitlint" tests="3" failures="1" errors="0">
///   <testsuite name="App/App.entitlements" tests="1" failures="1" errors="0">
///     <testcase classname="App/App.entitlements" name="wildcard-access-group at 7:3">
///       <failure type="error" message="keychain access group ...">App/App.entitlements:7:3: error: ... [wildcard-access-group]</failure>
///     </testcase>
///   </testsuite>
///   <testsuite name="Other.entitlements" tests="1" failures="0" errors="0">
///     <testcase classname="Other.entitlements" name="no problems found"/>
///   </testsuite>
/// </testsuites>
/// ```
///
/// One suite per file checked (`Report.paths`, plus any file a finding names), in path order. A
/// clean file gets one passing case, so the report shows what was checked. Each finding is a
/// case: a tool finding (`ToolFindings`: `parse-error`, `unreadable-path`, ...) is an `<error>`
/// (the file could not be checked, or findings could not be shown), a warning or an error a
/// `<failure>` whose `type` is its severity, and a note a passing case whose text is in
/// `<system-out>` (a note never fails a run, so it is no failed test: a run that exits 0 shows
/// no failed case). The schema allows no `file`/`line` attributes on a
/// case, so the position is in the case name and the failure text. No `time` or `timestamp`: the
/// output is byte-stable.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static var commandGuard: CommandGuardStyle { .markup }
    public init() {}

    struct Case {
        var classname: String
        var name: String
        var problem: Problem?
    }

    struct Problem {
        /// `failure`, `error`, or `system-out` (a note: the case passes).
        var element: String
        var type: String
        var message: String
        var text: String
    }

    struct Suite {
        var name: String
        var cases: [Case]
        var failures: Int { cases.filter { $0.problem?.element == "failure" }.count }
        var errors: Int { cases.filter { $0.problem?.element == "error" }.count }
    }

    static let cleanCaseName = "no problems found"

    static func suites(for report: Report) -> [Suite] {
        var byPath: [String: [Finding]] = [:]
        for f in report.findings { byPath[f.path, default: []].append(f) }
        let paths = Set(report.paths).union(byPath.keys).sorted()
        return paths.map { path in
            let findings = byPath[path] ?? []
            if findings.isEmpty { return Suite(name: path, cases: [Case(classname: path, name: cleanCaseName)]) }
            return Suite(name: path, cases: findings.map { f in
                let position = f.line > 0 ? (f.column > 0 ? "\(f.line):\(f.column)" : "\(f.line)") : nil
                let name = position.map { "\(f.rule) at \($0)" } ?? f.rule
                let text = (["\(f.path)\(position.map { ":" + $0 } ?? ""): \(f.severity.rawValue): \(f.shownMessage) [\(f.rule)]"]
                            + TextReporter.detailLines(f)).joined(separator: "\n")
                return Case(classname: path, name: name,
                            problem: Problem(element: ToolFindings.contains(f.rule) ? "error" : f.severity == .note ? "system-out" : "failure",
                                             type: f.severity.rawValue, message: f.shownMessage, text: text))
            })
        }
    }

    public func render(_ report: Report) -> String {
        let suites = Self.suites(for: report)
        let root = XMLNode("testsuites", [
            ("name", "entitlint"),
            ("tests", String(suites.reduce(0) { $0 + $1.cases.count })),
            ("failures", String(suites.reduce(0) { $0 + $1.failures })),
            ("errors", String(suites.reduce(0) { $0 + $1.errors })),
        ], children: suites.map { s in
            XMLNode("testsuite", [
                ("name", s.name), ("tests", String(s.cases.count)), ("failures", String(s.failures)), ("errors", String(s.errors)),
            ], children: s.cases.map { c in
                XMLNode("testcase", [("classname", c.classname), ("name", c.name)], children: c.problem.map { p in
                    [XMLNode(p.element, p.element == "system-out" ? [] : [("type", p.type), ("message", p.message)], text: p.text)]
                } ?? [])
            })
        })
        return XMLWriter.document(root)
    }
}
