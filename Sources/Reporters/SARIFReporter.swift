#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore
import PropertyList

/// SARIF 2.1.0 (OASIS), valid against `sarif-schema-2.1.0.json` (errata01), with what GitHub code
/// scanning additionally asks of uploaded files (docs.github.com, "SARIF support for code
/// scanning", "Supported SARIF output file properties"):
///
/// - `$schema`, `version` `2.1.0`, one run whose `tool.driver` has `name` and `rules[]`;
/// - a `reportingDescriptor` for every rule enabled in the run, with `id`, `shortDescription.text`,
///   `fullDescription.text` ("Limited to 1024 characters"), `help.text` and `help.markdown`, and
///   `defaultConfiguration.level` (`note`, `warning` or `error`);
/// - per result: `ruleId`, `ruleIndex` into that array, `level`, `message.text` (the message, its
///   units, notes and help: `SARIFReporter+Results.swift`), one location whose
///   `physicalLocation.artifactLocation.uri` is relative to the repository root, with `/` and
///   percent-encoding (see `URIReference`), and `partialFingerprints.primaryLocationLineHash`
///   ("Code scanning only uses the primaryLocationLineHash"), here from `Fingerprint`: rule, path
///   and plist key path, not the line.
///
/// Findings without a line (profiles, binary plists, unreadable files) have no `region`: the
/// result concerns the whole file. A region with `startLine` 1 would point at a line that is not
/// the problem, and GitHub's upload action skips region-less locations when it computes line
/// hashes itself ("Locations without a line number are unlikely to be source files",
/// github/codeql-action `src/fingerprints.ts`). Every region present has `startLine` >= 1.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static var commandGuard: CommandGuardStyle { .json }
    public static var usesRepositoryPaths: Bool { true }
    public init() {}

    /// The `$id` of the schema the output is validated against.
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The `uriBaseId` naming the repository root (the name CodeQL uses).
    static let rootBaseID = "%SRCROOT%"
    /// GitHub truncates or rejects longer descriptions.
    static let descriptionLimit = 1024

    struct Log: Codable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct Run: Codable {
        var tool: Tool
        var originalUriBaseIds: [String: ArtifactLocation]?
        var results: [Result]
        /// Only when the run has notices (SARIF 3.20.21 `toolExecutionNotifications`: what the
        /// tool could not see, not results).
        var invocations: [Invocation]?
    }

    struct Invocation: Codable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]
    }

    struct Notification: Codable {
        var level: String
        var message: Text
        var locations: [Location]?
    }

    struct Tool: Codable { var driver: Driver }

    struct Driver: Codable {
        var name: String
        var version: String
        var semanticVersion: String
        var rules: [Descriptor]
    }

    struct Descriptor: Codable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var helpUri: String
        var help: Help
        var defaultConfiguration: Configuration
        var properties: RuleProperties
    }

    struct RuleProperties: Codable {
        var tags: [String]
        var precision: String
        var securitySeverity: String?
        enum CodingKeys: String, CodingKey {
            case tags, precision
            case securitySeverity = "security-severity"
        }
    }

    struct Text: Codable { var text: String }
    struct Help: Codable { var text: String; var markdown: String }
    struct Configuration: Codable { var level: String }

    struct Result: Codable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
        var partialFingerprints: [String: String]
        /// The units, notes and help of the finding, when it has any (`resultProperties`).
        var properties: ResultProperties?
        /// The finding's fix, when it has one (`fixes(_:report:)`).
        var fixes: [FixObject]?
    }

    struct Location: Codable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Codable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Codable {
        var uri: String
        var uriBaseId: String?
    }

    struct Region: Codable {
        var startLine: Int
        var startColumn: Int?
    }

    /// Where in the plist (SARIF section 3.33: a logical location; `value` is one of the kinds of
    /// section 3.33.7 for data formats).
    struct LogicalLocation: Codable {
        var fullyQualifiedName: String
        var kind: String
    }

    public func render(_ report: Report) -> String {
        let log = Self.log(for: report)
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? enc.encode(log) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func log(for report: Report) -> Log {
        // Every enabled rule, then any rule a finding names that the run did not list (a library
        // caller passing no rules), so every result has a descriptor to point at; such a rule's
        // metadata is not known here, so it is described as reading stated facts (`high`).
        var rules = Self.listedRules(report)
        var index: [String: Int] = [:]
        for (i, r) in rules.enumerated() where index[r.id] == nil { index[r.id] = i }
        for f in report.findings where index[f.rule] == nil {
            index[f.rule] = rules.count
            rules.append(RuleDescription(id: f.rule, severity: f.severity, category: .entitlements, readsOnlyTheFile: false, precision: .high,
                                         summary: f.rule, rationale: f.rule, triggering: [], nonTriggering: []))
        }

        let fingerprints = Fingerprint.of(report.findings) { report.repositoryPath($0.path) }
        let results = zip(report.findings, fingerprints).map { f, fp -> Result in
            let artifact = Self.artifact(f.path, report: report)
            let region = f.line > 0 ? Region(startLine: f.line, startColumn: f.column > 0 ? f.column : nil) : nil
            let logical = f.keyPath.map { [LogicalLocation(fullyQualifiedName: $0, kind: "value")] }
            return Result(ruleId: f.rule, ruleIndex: index[f.rule]!, level: level(f.severity), message: Text(text: Self.messageText(f)),
                          locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: artifact, region: region),
                                               logicalLocations: logical)],
                          partialFingerprints: ["primaryLocationLineHash": fp.lineHash],
                          properties: Self.resultProperties(f), fixes: Self.fixes(f, report: report))
        }
        let driver = Driver(name: "entitlint", version: EntitlintVersion.current, semanticVersion: EntitlintVersion.current,
                            rules: rules.map(descriptor))
        let bases = report.sourceRoot.map { [rootBaseID: ArtifactLocation(uri: URIReference.folder($0.root), uriBaseId: nil)] }
        let notifications = report.notices.map { n -> Notification in
            let artifact = Self.artifact(n.path, report: report)
            let region = n.line > 0 ? Region(startLine: n.line, startColumn: n.column > 0 ? n.column : nil) : nil
            return Notification(level: "note", message: Text(text: Self.plainText(n.message)),
                                locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: artifact, region: region), logicalLocations: nil)])
        }
        let invocations = notifications.isEmpty ? nil : [Invocation(executionSuccessful: true, toolExecutionNotifications: notifications)]
        return Log(schema: schemaURI, version: "2.1.0",
                   runs: [Run(tool: Tool(driver: driver), originalUriBaseIds: bases, results: results, invocations: invocations)])
    }

    /// A message's `text` (SARIF 2.1.0 section 3.11.6, "Messages with embedded links"): in a
    /// plain text message `[text](destination)` is a link, and inside link text `\`, `[` and `]`
    /// are written `\\`, `\[` and `\]`. Every `\`, `[` and `]` of a message is escaped so, scalar
    /// by scalar: a message (which quotes values from inputs) never forms a link, and a viewer
    /// that applies the escapes shows the message as written.
    static func plainText(_ s: String) -> String { s.escapingScalars(plainTextEscapes) }
    static let plainTextEscapes: [Unicode.Scalar: String] = ["\\": "\\\\", "[": "\\[", "]": "\\]"]

    /// SARIF section 3.27.10: `level` is `none`, `note`, `warning` or `error`; Entitlint's severities
    /// are the last three.
    static func level(_ s: Severity) -> String { s.named(error: "error", warning: "warning", note: "note") }

    static func descriptor(_ d: RuleDescription) -> Descriptor {
        Descriptor(id: d.id, name: pascalCase(d.id),
                   shortDescription: Text(text: limit(d.summary)),
                   fullDescription: Text(text: limit(d.rationale)),
                   helpUri: SARIFRuleProperties.helpURI(d.id),
                   help: Help(text: helpText(d), markdown: helpMarkdown(d)),
                   defaultConfiguration: Configuration(level: level(d.severity)),
                   properties: SARIFRuleProperties.properties(d, severity: d.severity))
    }

    /// `wildcard-access-group` -> `WildcardAccessGroup` (SARIF's convention for `name`).
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func limit(_ s: String) -> String {
        s.count <= descriptionLimit ? s : String(s.prefix(descriptionLimit - 1)) + "…"
    }

    /// Where the rule's full page is: `helpUri`, and `entitlint explain <id>` offline.
    static func pageNote(_ id: String) -> String {
        "Rule page: Rules/\(id).md (\(SARIFRuleProperties.helpURI(id))); `entitlint explain \(id)` prints it. "
            + "The sections cited are those of Rules/\(GuideCitations.page) (\(SARIFRuleProperties.guideURI))."
    }

    static func helpText(_ d: RuleDescription) -> String {
        "\(d.summary)\n\n\(d.rationale)\n\n\(pageNote(d.id))"
    }

    /// A short version of the rule page: summary, rationale, one example of each kind.
    static func helpMarkdown(_ d: RuleDescription) -> String {
        var md = "**\(d.summary)**\n\n\(GuideCitations.linked(d.rationale, pageURL: SARIFRuleProperties.guideURI))\n"
        func example(_ title: String, _ e: RuleExample?) {
            guard let e else { return }
            let body = e.entitlements.filter { $0 != RuleExample.marker }
            md += "\n\(title):\n\n```xml\n\(body.hasSuffix("\n") ? body : body + "\n")```\n"
        }
        example("Reported", d.triggering.first)
        example("Not reported", d.nonTriggering.first)
        md += "\nRule page: [`Rules/\(d.id).md`](\(SARIFRuleProperties.helpURI(d.id))); `entitlint explain \(d.id)` prints it.\n"
        return md
    }
}
