import Foundation
public import EntitlintCore

/// The JSON report (Rules/reference/commands.md, Formats) (stable, versioned; keys sorted).
public struct JSONReporter: Reporter {
    public static let identifier = "json"
    public static var commandGuard: CommandGuardStyle { .json }
    public init() {}

    struct Document: Codable {
        struct Tool: Codable { var name: String; var version: String }
        struct Item: Codable {
            var rule: String
            var severity: String
            var message: String
            var path: String
            var line: Int
            var column: Int
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

    public func render(_ report: Report) -> String {
        let doc = Document(
            version: 1,
            tool: .init(name: "entitlint", version: EntitlintVersion.current),
            findings: report.findings.map {
                .init(rule: $0.rule, severity: $0.severity.rawValue, message: $0.message, path: $0.path, line: $0.line, column: $0.column)
            },
            notices: report.notices.map { .init(message: $0.message, path: $0.path, line: $0.line, column: $0.column) },
            summary: .init(files: report.files, errors: report.errors, warnings: report.warnings, notes: report.notes))
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? enc.encode(doc) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
