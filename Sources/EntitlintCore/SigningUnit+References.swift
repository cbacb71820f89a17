public import PropertyList

extension SigningUnit {
    /// The build-setting references (`$(NAME)`, `${NAME}`) in the strings of the entitlements that
    /// nothing known expands, in order of first use, each once, with the location of its first
    /// use; template placeholders (`{{NAME}}`, `###NAME###`) included. Bounded by the document,
    /// whose depth the readers bound; the walk is an explicit stack.
    public func unresolvedReferences() -> [(text: String, location: SourceLocation)] {
        // The expander (tables of the unit's values) is built at the first string that may hold a
        // reference: most documents have none.
        var built: VariableExpander?
        var out: [(text: String, location: SourceLocation)] = []
        var seen = Set<String>()
        var stack = [document.root]
        while let node = stack.popLast() {
            switch node.value {
            case .string(let s):
                guard VariableExpander.mayContainReference(s) else { continue }
                let expander = built ?? self.expander
                built = expander
                guard expander.hasUnresolved(s) else { continue }
                for r in expander.expand(s).unresolved where seen.insert(r.text).inserted {
                    out.append((r.text, node.location))
                }
            case .array(let items): stack += items.reversed()
            case .dict(let d): stack += d.entries.map(\.value).reversed()
            default: break
            }
        }
        return out
    }
}

extension SigningUnit {
    /// The lines of the entitlements strings that use a setting whose value is unknown here
    /// (`UnitOrigin.unknownSettings`: only a missing per-developer or generated file could set it).
    /// A finding at such a line rests on an unknown fact: the run drops it, so no rule has to
    /// remember to. Empty for most units.
    public func linesUsingUnknownSettings() -> Set<Int> {
        guard let unknown = origin?.unknownSettings, !unknown.isEmpty else { return [] }
        var lines = Set<Int>()
        var stack = [document.root]
        while let node = stack.popLast() {
            switch node.value {
            case .string(let s):
                guard s.utf8.contains(UInt8(ascii: "$")) else { continue }
                if VariableExpander.references(in: s).contains(where: { unknown[VariableExpander.baseName($0.name)] != nil }) {
                    lines.insert(node.location.line)
                }
            case .array(let items): stack += items
            case .dict(let d): stack += d.entries.map(\.value)
            default: break
            }
        }
        return lines
    }
}
