public import PropertyList
import Provisioning

/// inputs -> documents -> signing units -> rules -> findings.
public struct Linter: Sendable {
    public var rules: [any Rule]
    public var severityOverrides: [String: Configuration.RuleSetting]

    public init(rules: [any Rule], severityOverrides: [String: Configuration.RuleSetting] = [:]) {
        self.rules = rules
        self.severityOverrides = severityOverrides
    }

    /// The folder the in-memory entry points (`lint(entitlements:)`, `unit(document:)`) resolve
    /// relative paths against: their documents are in no folder, and against `/` a relative path
    /// stays as written.
    static let inMemoryFolder = "/"

    public static let entitlementsExtensions: Set<String> = ["entitlements", "xcent"]
    public static let profileExtensions: Set<String> = ["mobileprovision", "provisionprofile"]

    /// The rules that check a dead entitlements file (inside a project's folders, used by no
    /// target and named by no setting): that it cannot be parsed, and that it is unused.
    public static let deadFileRules: Set<String> = ["parse-error", "unused-entitlements-file"]

    /// The first `limit` of `sorted` (in report order), then, when some are left out, one more
    /// finding that says how many, at the first one left out, with the highest severity of
    /// those left out: the exit status is the same as with all of them.
    /// `earlier`: a notice of an earlier cut, last in `sorted`, whose findings count here too.
    public static func capped(_ sorted: [Finding], at limit: Int, name: String = RunLimits.findingsName,
                              earlier: (notice: Finding, count: Int)? = nil) -> [Finding] {
        let findings = earlier == nil ? sorted[...] : sorted.dropLast()
        guard findings.count > limit else { return sorted }
        let kept = Array(findings.prefix(limit))
        let cut = findings[(findings.startIndex + limit)...]
        let first = cut.first!
        let worst = max(cut.map(\.severity).max() ?? .note, earlier?.notice.severity ?? .note)
        let count = cut.count + (earlier?.count ?? 0)
        let reason = name == RunLimits.findingsName
            ? "the run reports at most \(limit) findings"
            : "the report would pass the limit of its size"
        let notice = Finding(rule: name == RunLimits.findingsName ? ToolFindings.findingsTruncated : ToolFindings.outputTruncated, severity: worst,
                             message: "\(count) more finding\(count == 1 ? " is" : "s are") not shown, from here on: \(reason) (\(RunLimits.howToRaise(name)))",
                             path: first.path, line: first.line, column: first.column)
        return kept + [notice]
    }

    func applySeverities(_ findings: [Finding]) -> [Finding] {
        let enabled = Set(rules.map { type(of: $0).description.id } + ToolFindings.ids)
        return findings.compactMap { f in
            var f = f
            guard enabled.contains(f.rule) else { return nil }
            switch severityOverrides[f.rule] {
            case .off?: return nil
            case .error?: f.severity = .error
            case .warning?: f.severity = .warning
            case .note?: f.severity = .note
            case nil: break
            }
            return f
        }
    }
}

extension Linter {
    /// Lints one in-memory entitlements file with the given facts: what rule examples and
    /// library users need without touching the file system.
    public func lint(entitlements bytes: [UInt8], path: String, name: String? = nil, bundleID: String? = nil,
                     teamID: String? = nil, profile: ProfileFile? = nil, lock: LockFile? = nil,
                     limits: PlistLimits = .default) -> [Finding] {
        var findings: [Finding] = []
        var documents: [String: PlistDocument] = [:]
        switch Self.parse(bytes: bytes, path: path, limits: limits) {
        case .failed(let reason, let loc):
            findings.append(Finding(rule: ToolFindings.parseError, severity: .error, message: "cannot parse property list: \(reason)",
                                    path: path, line: loc.line, column: loc.column))
        case .unread(let reason, let rule):
            findings.append(Finding(rule: rule, severity: .error, message: "cannot parse property list: \(reason)", path: path))
        case .profile:
            break
        case .entitlements(let doc):
            documents[path] = doc
            let unit = unit(document: doc, path: path, name: name, bundleID: bundleID, teamID: teamID, profile: profile)
            let context = UnitContext(unit: unit, lock: lock)
            for rule in rules {
                let result = FactGate.check(rule, context)
                if !result.isEmpty { findings += result }
            }
        }
        return finish(findings, documents: documents, configuration: nil, cwd: Self.inMemoryFolder)
    }
}
