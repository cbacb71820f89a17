import PropertyList

extension FindingStage {
    /// One finding per place and message: the configurations of a target usually say the same thing
    /// about the same line. Where they disagree, or only some of the file's units have it, the
    /// finding names its units (`Finding.units`). The folded finding has the notes of all the
    /// findings it stands for, and the help and fix of the first.
    package static func foldConfigurations(_ findings: [Finding], units: [SigningUnit]) -> [Finding] {
        struct Key: Hashable { var rule: String, path: String, line: Int, column: Int, message: String, units: [String] }
        struct Place: Hashable { var rule: String, path: String, line: Int, column: Int }
        var order: [Key] = []
        var groups: [Key: (Finding, [String])] = [:]
        for f in findings {
            let key = Key(rule: f.rule, path: f.path, line: f.line, column: f.column, message: f.message, units: f.units)
            if groups[key] == nil {
                order.append(key)
                groups[key] = (f, f.unit.map { [$0] } ?? [])
                continue
            }
            if let u = f.unit, !groups[key]!.1.contains(u) {
                groups[key]!.1.append(u)
            }
            // Configurations may state the same problem from different sources: the folded
            // finding keeps every note, each once, in the order met.
            for note in f.notes where !groups[key]!.0.notes.contains(note) { groups[key]!.0.notes.append(note) }
        }
        var messagesPerPlace: [Place: Int] = [:]
        for k in order { messagesPerPlace[Place(rule: k.rule, path: k.path, line: k.line, column: k.column), default: 0] += 1 }
        var unitsPerPath: [String: Int] = [:]
        for u in units { unitsPerPath[u.entitlementsPath, default: 0] += 1 }
        return order.map { key in
            var (f, names) = groups[key]!
            let ambiguous = messagesPerPlace[Place(rule: key.rule, path: key.path, line: key.line, column: key.column)]! > 1
            // Name the units when the finding is about some of the units of the file, not all.
            if !names.isEmpty, ambiguous || names.count < unitsPerPath[key.path, default: 0] {
                f.units = names
            }
            return f
        }
    }
}
