#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

/// The JSON report (Rules/reference/formats.md, JSON) (stable, versioned; keys sorted; valid
/// against `Rules/reference/report.schema.json`).
///
/// Version 2: a finding's `message` no longer ends with the units it concerns; they are the
/// array `units`. `line` and `column` are left out when the finding has no location (never 0);
/// `unit`, `help` and `fix` when it has none; `notes` and `units` are always arrays.
public struct JSONReporter: Reporter {
    public static let identifier = "json"
    public static var commandGuard: CommandGuardStyle { .json }
    public init() {}

    /// The version of the document's shape, raised whenever a field changes meaning or goes.
    public static let version = 2

    struct Document: Codable {
        struct Tool: Codable { var name: String; var version: String }
        struct Item: Codable {
            var rule: String
            var severity: String
            var message: String
            var path: String
            var line: Int?
            var column: Int?
            var unit: String?
            var units: [String]
            var help: String?
            var notes: [String]
            var fix: Fix?
        }
        struct Fix: Codable {
            var title: String
            var applicability: String
            var edits: [Edit]
        }
        /// Bytes `start..<end` of `path` become `replacement`.
        struct Edit: Codable {
            var path: String
            var start: Int
            var end: Int
            var replacement: String
        }
        /// What the run could not see (files a fresh clone lacks); not findings.
        struct NoticeItem: Codable {
            var message: String
            var path: String
            var line: Int
            var column: Int
        }
        struct Summary: Codable { var files: Int; var errors: Int; var warnings: Int; var notes: Int }
        var version: Int
        var tool: Tool
        var findings: [Item]
        var notices: [NoticeItem]
        var summary: Summary
    }

    static func item(_ f: Finding) -> Document.Item {
        let fix = f.fix.flatMap { $0.edits.isEmpty ? nil : $0 }.map { fix in
            Document.Fix(title: fix.title, applicability: fix.applicability.rawValue, edits: fix.edits.map {
                Document.Edit(path: $0.path, start: $0.range.lowerBound, end: $0.range.upperBound, replacement: $0.replacement)
            })
        }
        return Document.Item(rule: f.rule, severity: f.severity.rawValue, message: f.message, path: f.path,
                             line: f.location?.line, column: f.location?.column, unit: f.unit, units: f.units,
                             help: f.help, notes: f.notes, fix: fix)
    }

    public func render(_ report: Report) -> String {
        let doc = Document(
            version: Self.version,
            tool: .init(name: "entitlint", version: EntitlintVersion.current),
            findings: report.findings.map(Self.item),
            notices: report.notices.map { .init(message: $0.message, path: $0.path, line: $0.line, column: $0.column) },
            summary: .init(files: report.files, errors: report.errors, warnings: report.warnings, notes: report.notes))
        return Self.text(doc)
    }
}
