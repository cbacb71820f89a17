import PropertyList

extension FindingStage {
    /// One finding per place and message: the configurations of a target usually say the same thing
    /// about the same line. Where they disagree, or only some of the file's units have it, the
    /// finding names its units (`Finding.units`). The folded finding has the notes of all the
    /// findings it stands for, and the help and fix of the first. A finding of a rule in
    /// `everyUnit` (`RuleDescription.everyUnitOfFile`) that only some of its file's units have is
    /// dropped.
    package static func foldConfigurations(_ findings: [Finding], units: [SigningUnit], everyUnit: Set<String> = []) -> [Finding] {
        struct Key: Hashable { var rule: String, path: String, line: Int, column: Int, message: String, units: [String] }
        struct Place: Hashable { var rule: String, path: String, line: Int, column: Int }
        // One hash of each finding's key: `slot` finds or makes its group in the same lookup;
        // groups stay in the order first met. Findings and units are read in place, not copied.
        var slot: [Key: Int] = [:]
        slot.reserveCapacity(findings.count)
        var groups: [(finding: Finding, names: [String])] = []
        var messagesPerPlace: [Place: Int] = [:]
        for i in findings.indices {
            let key = Key(rule: findings[i].rule, path: findings[i].path, line: findings[i].line, column: findings[i].column,
                          message: findings[i].message, units: findings[i].units)
            let g: Int = { (index: inout Int) -> Int in
                if index < 0 { index = groups.count }
                return index
            }(&slot[key, default: -1])
            if g == groups.count {
                groups.append((findings[i], findings[i].unit.map { [$0] } ?? []))
                messagesPerPlace[Place(rule: key.rule, path: key.path, line: key.line, column: key.column), default: 0] += 1
                continue
            }
            if let u = findings[i].unit, !groups[g].names.contains(u) {
                groups[g].names.append(u)
            }
            // Configurations may state the same problem from different sources: the folded
            // finding keeps every note, each once, in the order met.
            for note in findings[i].notes where !groups[g].finding.notes.contains(note) { groups[g].finding.notes.append(note) }
        }
        var unitsPerPath: [String: Int] = [:]
        for i in units.indices { unitsPerPath[units[i].entitlementsPath, default: 0] += 1 }
        var out: [Finding] = []
        out.reserveCapacity(groups.count)
        for i in groups.indices {
            let names = groups[i].names
            let f = groups[i].finding
            let ambiguous = messagesPerPlace[Place(rule: f.rule, path: f.path, line: f.line, column: f.column)]! > 1
            if everyUnit.contains(f.rule), ambiguous || names.count < unitsPerPath[f.path, default: 0] { continue }
            out.append(f)
            // Name the units when the finding is about some of the units of the file, not all.
            if !names.isEmpty, ambiguous || names.count < unitsPerPath[f.path, default: 0] {
                out[out.count - 1].units = names
            }
        }
        return out
    }
}
