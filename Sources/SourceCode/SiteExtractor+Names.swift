/// What a name in a value is: a parameter, a local variable or constant, a stored property or a
/// constant of the enclosing type. Parameters, variables and properties become unknown, so that
/// the resolver never takes them for a same-named constant elsewhere.
extension SiteExtractor {
    /// The innermost block where `name` is a local or a parameter, and what it is there (not
    /// past the innermost type block).
    func localKind(_ name: String) -> String? {
        guard let b = innermost(name, .local) else { return nil }
        if let constant = blocks[b].locals[name] { return constant ? "constant" : "variable" }
        return blocks[b].params.contains(name) ? "parameter" : nil
    }

    /// Marks what a name in `expression` is, as far as the blocks open here tell: parameters and
    /// local variables become unknown (never resolved to a same-named constant elsewhere).
    func classify(_ expression: StringExpression, depth: Int = 0) -> StringExpression {
        switch expression {
        case .reference(let names):
            guard let first = names.first else { return expression }
            if !swift, first.hasPrefix("_"), names.count == 1 { return .unknown("property \(first)") }
            switch localKind(first) {
            case "parameter"?: return .unknown("parameter \(first)")
            case "variable"?: return .unknown("variable \(first)")
            case "constant"? where names.count > 1: return .unknown("a member of the local \(first)")
            default: return expression
            }
        case .concatenation(let parts) where depth < ExpressionParser.maxDepth + 2:
            return .concatenation(parts.map { classify($0, depth: depth + 1) })
        case .alternatives(let list) where depth < ExpressionParser.maxDepth + 2:
            return .alternatives(list.map { var a = $0; a.value = classify(a.value, depth: depth + 1); return a })
        default:
            return expression
        }
    }

    mutating func addGroup(at i: Int, api: String, value: StringExpression) {
        let t = src.tokens[i]
        let value = classify(value)
        result.groups.append(KeychainGroupSite(line: Int(t.line), column: Int(t.column), api: api, value: value))
        pending.append((.group(result.groups.count - 1), typePath, localConstants(in: value)))
    }

    mutating func addDefinition(name: String, at i: Int, value: StringExpression, member: Bool) {
        let path = member ? typePath + [name] : [name]
        let value = member && blocks.last?.typeTooDeep == true ? .overLimit(SiteExtractor.typeTooDeep) : classify(value)
        result.definitions.append(StringDefinition(path: path, line: Int(src.tokens[i].line), value: value,
                                                   condition: member ? conditions.effective : nil))
        let index = result.definitions.count - 1
        pending.append((.definition(index), typePath, localConstants(in: value)))
        if member {
            typeConstants[typePath, default: []].insert(name)
        } else if !blocks.isEmpty {
            blocks[blocks.count - 1].scoped.append(index)
            declareLocal(name, constant: true)
        }
    }

    /// The names in `expression` that are local constants here (resolved by scope, never as members).
    func localConstants(in expression: StringExpression, depth: Int = 0) -> Set<String> {
        switch expression {
        case .reference(let names):
            if let first = names.first, localKind(first) == "constant" { return [first] }
            return []
        case .concatenation(let parts) where depth < ExpressionParser.maxDepth + 2:
            return parts.reduce(into: Set<String>()) { $0.formUnion(localConstants(in: $1, depth: depth + 1)) }
        case .alternatives(let list) where depth < ExpressionParser.maxDepth + 2:
            return list.reduce(into: Set<String>()) { $0.formUnion(localConstants(in: $1.value, depth: depth + 1)) }
        default:
            return []
        }
    }

    /// Names the file's later text declares: `self.x` is a constant of the type or else a
    /// property; a plain `x` that is a stored property of the enclosing type is a property.
    mutating func finishPending() {
        for (item, path, locals) in pending {
            switch item {
            case .group(let k): result.groups[k].value = finish(result.groups[k].value, path, locals, 0)
            case .definition(let k): result.definitions[k].value = finish(result.definitions[k].value, path, locals, 0)
            }
        }
    }

    func finish(_ expression: StringExpression, _ path: [String], _ locals: Set<String>, _ depth: Int) -> StringExpression {
        switch expression {
        case .reference(let names):
            guard let first = names.first, !locals.contains(first) else { return expression }
            if first == "self" || first == "Self" {
                let rest = Array(names.dropFirst())
                guard let name = rest.first else { return .unknown(first) }
                if rest.count == 1, typeConstants[path]?.contains(name) == true { return .reference(path + rest) }
                return first == "Self" ? .reference(rest) : .unknown("property \(name)")
            }
            if storedProperties[path]?.contains(first) == true { return .unknown("property \(first)") }
            if names.count == 1, typeConstants[path]?.contains(first) == true { return .reference(path + names) }
            return expression
        case .concatenation(let parts) where depth < ExpressionParser.maxDepth + 2:
            return .concatenation(parts.map { finish($0, path, locals, depth + 1) })
        case .alternatives(let list) where depth < ExpressionParser.maxDepth + 2:
            return .alternatives(list.map { var a = $0; a.value = finish(a.value, path, locals, depth + 1); return a })
        default:
            return expression
        }
    }
}

/// Keeping the name indexes of the open blocks (`localDepths`, ...) with the blocks themselves.
extension SiteExtractor {
    static func push(_ depth: Int, for name: String, in index: inout [String: [Int]]) {
        if index[name]?.last != depth { index[name, default: []].append(depth) }
    }

    static func pop(_ depth: Int, for name: String, in index: inout [String: [Int]]) {
        guard index[name]?.last == depth else { return }
        index[name]!.removeLast()
        if index[name]!.isEmpty { index[name] = nil }
    }

    /// The lowest block index a lookup from here reaches: not past the innermost type block.
    /// (Every other open block is looked through, however deep: a parameter or local further
    /// out than some fixed number of blocks would otherwise be taken for a same-named constant.)
    func lookupFloor() -> Int {
        typeDepths.last ?? 0
    }

    /// What a block may declare a name as.
    enum Declared { case local, query, request }

    /// The innermost block, within reach, that declares `name` as `what`: the deep blocks through
    /// their index, then the outermost ones one by one.
    func innermost(_ name: String, _ what: Declared) -> Int? {
        let floor = lookupFloor()
        let index: [String: [Int]]
        switch what {
        case .local: index = localDepths
        case .query: index = queryDepths
        case .request: index = requestDepths
        }
        if let depth = index[name]?.last, depth >= floor { return depth }
        var b = min(blocks.count, Self.indexedBlocks) - 1
        while b >= floor {
            let block = blocks[b]
            switch what {
            case .local: if block.locals[name] != nil || block.params.contains(name) { return b }
            case .query: if block.queries[name] != nil { return b }
            case .request: if block.locksmithRequests.contains(name) { return b }
            }
            b -= 1
        }
        return nil
    }

    /// Marks `name` as a local of the innermost block (a constant or a variable).
    mutating func declareLocal(_ name: String, constant: Bool) {
        guard !blocks.isEmpty else { return }
        blocks[blocks.count - 1].locals[name] = constant
        if blocks.count - 1 >= Self.indexedBlocks { Self.push(blocks.count - 1, for: name, in: &localDepths) }
    }

    /// Records that the local `name` of the innermost block holds a query dictionary.
    mutating func declareQuery(_ name: String, _ state: QueryState) {
        guard !blocks.isEmpty else { return }
        blocks[blocks.count - 1].queries[name] = state
        if blocks.count - 1 >= Self.indexedBlocks { Self.push(blocks.count - 1, for: name, in: &queryDepths) }
    }

    /// Records that the local `name` of the innermost block holds a `LocksmithRequest`.
    mutating func declareRequest(_ name: String) {
        guard !blocks.isEmpty else { return }
        blocks[blocks.count - 1].locksmithRequests.insert(name)
        if blocks.count - 1 >= Self.indexedBlocks { Self.push(blocks.count - 1, for: name, in: &requestDepths) }
    }
}
