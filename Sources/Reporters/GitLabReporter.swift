#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

/// GitLab Code Quality: a JSON array of Code Climate issues (docs.gitlab.com, "Code Quality",
/// "Implement a custom tool"), each valid against GitLab's `codeclimate.json` schema, which GitLab
/// applies to every element:
///
/// ```json
/// [ { "categories": ["Bug Risk"], "check_name": "wildcard-access-group",
///     "description": "keychain access group ... [wildcard-access-group]",
///     "fingerprint": "3f0c...", "location": { "lines": { "begin": 7 }, "path": "App/App.entitlements" },
///     "severity": "critical", "type": "issue" } ]
/// ```
///
/// - `description` is the message with the rule id, as the text format prints it, then the
///   finding's notes and help, a line each; `check_name` is the rule id.
/// - `severity`: GitLab knows `info`, `minor`, `major`, `critical`, `blocker`. Entitlint's `error`
///   (the app fails signing, upload, or loses keychain items) is `critical`, `warning` is `major`,
///   `note` is `info`.
/// - `fingerprint`: unique in the report and independent of lines (`Fingerprint`: rule, path from
///   the repository root, plist key path, and the rank among findings sharing those), so the merge
///   request widget sees an edited file's findings as the same ones.
/// - `location.path` is relative to the repository root; `location.lines.begin` is the line, or 1
///   for a finding without one (a profile): GitLab places every issue on a line.
/// - `type` and `categories` are what the Code Climate spec requires of an issue; GitLab ignores
///   them.
public struct GitLabReporter: Reporter {
    public static let identifier = "gitlab"
    public static var commandGuard: CommandGuardStyle { .json }
    public static var usesRepositoryPaths: Bool { true }
    public init() {}

    struct Issue: Codable {
        var type: String
        var checkName: String
        var description: String
        var categories: [String]
        var severity: String
        var fingerprint: String
        var location: Location

        enum CodingKeys: String, CodingKey {
            case type, description, categories, severity, fingerprint, location
            case checkName = "check_name"
        }
    }

    struct Location: Codable {
        var path: String
        var lines: Lines
    }

    struct Lines: Codable { var begin: Int }

    /// The message with its units and the rule id, as the text format's line ends; then the
    /// notes and help, a line each.
    static func description(_ f: Finding) -> String {
        let details = TextReporter.detailLines(f)
        return (["\(f.shownMessage) [\(f.rule)]"] + details).joined(separator: "\n")
    }

    static func severity(_ s: Severity) -> String { s.named(error: "critical", warning: "major", note: "info") }

    static func issues(for report: Report) -> [Issue] {
        let fingerprints = Fingerprint.of(report.findings) { report.repositoryPath($0.path) }
        var used = Set<String>()
        return zip(report.findings, fingerprints).map { f, fp in
            // Hash identity and rank together, so fingerprints are opaque and all distinct.
            var fingerprint = Fingerprint.hex(Fingerprint.fnv1a64([fp.identity, String(fp.occurrence)]))
            var n = 1
            while !used.insert(fingerprint).inserted {
                n += 1
                fingerprint = Fingerprint.hex(Fingerprint.fnv1a64([fp.identity, String(fp.occurrence), String(n)]))
            }
            return Issue(type: "issue", checkName: f.rule, description: Self.description(f), categories: ["Bug Risk"],
                         severity: severity(f.severity), fingerprint: fingerprint,
                         location: Location(path: report.repositoryPath(f.path), lines: Lines(begin: max(f.line, 1))))
        }
    }

    public func render(_ report: Report) -> String {
        guard !report.findings.isEmpty else { return "[]\n" }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? enc.encode(Self.issues(for: report)) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
