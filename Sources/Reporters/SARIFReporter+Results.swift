import EntitlintCore

/// What a SARIF result carries besides its rule, level and location: the message with the
/// finding's units, notes and help; the same as data in the result's property bag (SARIF 3.8);
/// and its fix (SARIF 3.55), each edit a replacement of a byte range (3.57, 3.30.14).
extension SARIFReporter {
    /// SARIF 3.8: a property bag holds any properties; `units`, `notes` and `help` are
    /// Entitlint's (the finding's fields of the same names).
    struct ResultProperties: Codable {
        var units: [String]?
        var notes: [String]?
        var help: String?
    }

    /// SARIF 3.55: `description` says what the fix does; the property bag says whether it is
    /// `safe` or `unsafe` to apply unreviewed.
    struct FixObject: Codable {
        var description: Text
        var artifactChanges: [ArtifactChange]
        var properties: FixProperties
    }

    struct FixProperties: Codable { var applicability: String }

    /// SARIF 3.56: the replacements in one file.
    struct ArtifactChange: Codable {
        var artifactLocation: ArtifactLocation
        var replacements: [Replacement]
    }

    /// SARIF 3.57: `deletedRegion` by bytes (3.30.14 `byteOffset`, 3.30.15 `byteLength`), then
    /// `insertedContent.text`.
    struct Replacement: Codable {
        var deletedRegion: ByteRegion
        var insertedContent: Text
    }

    struct ByteRegion: Codable {
        var byteOffset: Int
        var byteLength: Int
    }

    /// The rules listed in `tool.driver.rules`: the run's enabled rules, less the tool findings
    /// other than `parse-error` that no result names (they are about the run, and listing them
    /// in every log says nothing).
    static func listedRules(_ report: Report) -> [RuleDescription] {
        let named = Set(report.findings.map(\.rule))
        return report.rules.filter { !ToolFindings.contains($0.id) || $0.id == ToolFindings.parseError || named.contains($0.id) }
    }

    /// The location of `path` (as findings show it): relative to the repository root, against
    /// the root's base id, when the run has a root and the path is below it.
    static func artifact(_ shown: String, report: Report) -> ArtifactLocation {
        let path = report.repositoryPath(shown)
        let underRoot = report.sourceRoot != nil && !path.hasPrefix("/")
        return ArtifactLocation(uri: URIReference.reference(forPath: path), uriBaseId: underRoot ? rootBaseID : nil)
    }

    /// `message.text`: the message with its units (" (in A, B)"), then a line per note and
    /// one for the help, as GitHub code scanning shows only the text. Each part escaped as
    /// plain text (`plainText`).
    static func messageText(_ f: Finding) -> String {
        var text = plainText(f.shownMessage)
        if f.notes.isEmpty && f.help == nil { return text }
        text += "\n"
        for note in f.notes { text += "\nNote: " + plainText(note) }
        if let help = f.help { text += "\nHelp: " + plainText(help) }
        return text
    }

    static func resultProperties(_ f: Finding) -> ResultProperties? {
        guard !f.units.isEmpty || !f.notes.isEmpty || f.help != nil else { return nil }
        return ResultProperties(units: f.units.isEmpty ? nil : f.units, notes: f.notes.isEmpty ? nil : f.notes, help: f.help)
    }

    /// The finding's fix as one SARIF fix: its edits grouped by file, in the order given.
    static func fixes(_ f: Finding, report: Report) -> [FixObject]? {
        guard let fix = f.fix, !fix.edits.isEmpty else { return nil }
        var order: [String] = []
        var byPath: [String: [Replacement]] = [:]
        for e in fix.edits {
            if byPath[e.path] == nil { order.append(e.path) }
            byPath[e.path, default: []].append(Replacement(deletedRegion: ByteRegion(byteOffset: e.range.lowerBound, byteLength: e.range.count),
                                                           insertedContent: Text(text: e.replacement)))
        }
        let changes = order.map { ArtifactChange(artifactLocation: artifact($0, report: report), replacements: byPath[$0]!) }
        return [FixObject(description: Text(text: plainText(fix.title)), artifactChanges: changes,
                          properties: FixProperties(applicability: fix.applicability.rawValue))]
    }
}
