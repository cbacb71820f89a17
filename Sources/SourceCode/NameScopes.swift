/// The blocks open at the current token of one file, innermost last, and what each declares:
/// locals and parameters, query dictionaries, Locksmith requests. What a name in a value is
/// (a parameter, a local variable or constant) is read from here: parameters and variables
/// become unknown, so that the resolver never takes them for a same-named constant elsewhere.
///
/// For each name, the indices of the open blocks (from `indexedBlocks` on) that declare it as a
/// local or a parameter / hold a query dictionary of that name / a Locksmith request of that
/// name are kept, innermost last; and the indices of the open type blocks and of the open blocks
/// that are not `.other`. Lookups read these for the deep blocks and look at the few outermost
/// ones directly (a constant number of steps per lookup, whatever the nesting; ordinary code,
/// rarely nested that deep, keeps no index).
struct NameScopes {
    /// Objective-C: a lone `_name` is an instance variable (a property's storage).
    let swift: Bool
    private(set) var blocks: [OpenBlock] = []
    private var localDepths: [String: [Int]] = [:]
    private var queryDepths: [String: [Int]] = [:]
    private var requestDepths: [String: [Int]] = [:]
    private(set) var typeDepths: [Int] = []
    private(set) var namedDepths: [Int] = []
    /// The outermost blocks, looked at directly; the names of deeper ones are indexed.
    static let indexedBlocks = 8

    init(swift: Bool) {
        self.swift = swift
    }

    var innermostBlock: OpenBlock? { blocks.last }
    var isEmpty: Bool { blocks.isEmpty }

    /// Changes the open block at index `b`.
    mutating func update(_ b: Int, _ change: (inout OpenBlock) -> Void) {
        change(&blocks[b])
    }

    mutating func open(_ block: OpenBlock) {
        let depth = blocks.count
        if block.kind == .type { typeDepths.append(depth) }
        if block.kind != .other { namedDepths.append(depth) }
        if depth >= Self.indexedBlocks {
            for name in block.params { Self.push(depth, for: name, in: &localDepths) }
        }
        blocks.append(block)
    }

    /// Closes the innermost block (there is one) and returns it.
    mutating func close() -> OpenBlock {
        let block = blocks.removeLast()
        let depth = blocks.count
        if depth >= Self.indexedBlocks {
            for name in block.locals.keys where !block.params.contains(name) { Self.pop(depth, for: name, in: &localDepths) }
            for name in block.params { Self.pop(depth, for: name, in: &localDepths) }
            for name in block.queries.keys { Self.pop(depth, for: name, in: &queryDepths) }
            for name in block.locksmithRequests { Self.pop(depth, for: name, in: &requestDepths) }
        }
        if typeDepths.last == depth { typeDepths.removeLast() }
        if namedDepths.last == depth { namedDepths.removeLast() }
        return block
    }

    private static func push(_ depth: Int, for name: String, in index: inout [String: [Int]]) {
        if index[name]?.last != depth { index[name, default: []].append(depth) }
    }

    private static func pop(_ depth: Int, for name: String, in index: inout [String: [Int]]) {
        guard index[name]?.last == depth else { return }
        index[name]!.removeLast()
        if index[name]!.isEmpty { index[name] = nil }
    }

    /// What a block may declare a name as.
    enum Declared { case local, query, request }

    /// The innermost block, within reach, that declares `name` as `what`: the deep blocks through
    /// their index, then the outermost ones one by one. A lookup does not go past the innermost
    /// type block; every other open block is looked through, however deep (a parameter or local
    /// further out than some fixed number of blocks would otherwise be taken for a same-named
    /// constant).
    func innermost(_ name: String, _ what: Declared) -> Int? {
        let floor = typeDepths.last ?? 0
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
}
