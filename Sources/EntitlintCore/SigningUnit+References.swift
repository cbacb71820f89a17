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
        PlistStrings.forEach(in: document.root) { s, location in
            guard VariableExpander.mayContainReference(s) else { return }
            let expander = built ?? self.expander
            built = expander
            guard expander.hasUnresolved(s) else { return }
            for r in expander.expand(s).unresolved where seen.insert(r.text).inserted {
                out.append((r.text, location))
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
        PlistStrings.forEach(in: document.root) { s, location in
            guard s.containsASCII("$") else { return }
            if VariableExpander.references(in: s).contains(where: { unknown[VariableExpander.baseName($0.name)] != nil }) {
                lines.insert(location.line)
            }
        }
        return lines
    }
}

/// The strings of a plist in document order, each with its element's location. The walk keeps a
/// stack of containers being read (an array or a dict and the next index), bounded by the
/// document's depth, which the readers bound; nodes are read in place, not copied onto it.
enum PlistStrings {
    private enum Frame {
        case array([PlistNode], Int)
        case dict([PlistDictionary.Entry], Int)
    }

    static func forEach(in root: PlistNode, _ visit: (String, SourceLocation) -> Void) {
        var stack: [Frame] = []
        func enter(_ node: PlistNode) {
            switch node.value {
            case .string(let s): visit(s, node.location)
            case .array(let items) where !items.isEmpty: stack.append(.array(items, 0))
            case .dict(let d) where !d.entries.isEmpty: stack.append(.dict(d.entries, 0))
            default: break
            }
        }
        enter(root)
        while let top = stack.popLast() {
            switch top {
            case .array(let items, let i):
                if i + 1 < items.count { stack.append(.array(items, i + 1)) }
                enter(items[i])
            case .dict(let entries, let i):
                if i + 1 < entries.count { stack.append(.dict(entries, i + 1)) }
                enter(entries[i].value)
            }
        }
    }
}
