import PropertyList

/// Entitlements a Tuist manifest writes in itself: `.dictionary([String: Plist.Value])`, which
/// Tuist writes out as the target's entitlements file. Read only when every value is a literal:
/// `.string("x")`, `.boolean(true)`, `.integer(1)`, `.real(1.5)`, `.array([...])`,
/// `.dictionary([...])` and their shorthands `"x"`, `true`, `1`, `1.5`, `[...]`, `[k: v]`. Each
/// node is located at the manifest line it is written on, so findings point there. Anything
/// else (a name, a call, an interpolated string, a key written twice) makes the whole dictionary
/// unknown: no part is guessed. Bounded: at most `maxDepth` levels and `maxValues` values.
enum TuistEntitlementsDictionary {
    static let maxDepth = 32
    static let maxValues = 4096

    /// The plist document of the argument of `.dictionary(...)`, or why it is not read.
    static func document(_ argument: ManifestValue) -> Result<PlistDocument, Unread> {
        guard case .dict = argument else { return .failure(Unread(reason: "entitlements written as a dictionary that is not a literal", line: argument.line)) }
        var count = 0
        return node(argument, depth: 0, count: &count).map { PlistDocument(root: $0, format: .xml) }
    }

    struct Unread: Error {
        var reason: String
        var line: Int
    }

    private static func node(_ v: ManifestValue, depth: Int, count: inout Int) -> Result<PlistNode, Unread> {
        count += 1
        guard depth < maxDepth, count <= maxValues else { return .failure(Unread(reason: "entitlements written as a dictionary too large to read", line: v.line)) }
        let at = SourceLocation(line: v.line, column: 0)
        switch v {
        case .string(let s, _): return .success(PlistNode(.string(s), at: at))
        case .number(let n, _):
            if let i = Int64(n) { return .success(PlistNode(.integer(.signed(i)), at: at)) }
            if let r = Double(n), r.isFinite { return .success(PlistNode(.real(r), at: at)) }
        case .name(let b, _) where b == "true" || b == "false":
            return .success(PlistNode(.bool(b == "true"), at: at))
        case .list(let items, _):
            var nodes: [PlistNode] = []
            for item in items {
                switch node(item, depth: depth + 1, count: &count) {
                case .success(let n): nodes.append(n)
                case .failure(let u): return .failure(u)
                }
            }
            return .success(PlistNode(.array(nodes), at: at))
        case .dict(let entries, _):
            var d = PlistDictionary()
            var keys = Set<String>()
            for e in entries {
                // Keys are `String`: a literal, once (a key written twice stops the manifest).
                guard case .string(let key, let keyLine) = e.key, keys.insert(key).inserted else {
                    return .failure(Unread(reason: "entitlements written as a dictionary with a key that is not a literal written once", line: e.key.line))
                }
                switch node(e.value, depth: depth + 1, count: &count) {
                case .success(let n): d.append(.init(key: key, keyLocation: SourceLocation(line: keyLine, column: 0), value: n))
                case .failure(let u): return .failure(u)
                }
            }
            return .success(PlistNode(.dict(d), at: at))
        case .call(let name, let receiver, let args, _) where isPlistValue(receiver) && args.count == 1 && args[0].label == nil:
            let inner = args[0].value
            let fits: Bool
            switch (name, inner) {
            case ("string", .string), ("integer", .number), ("real", .number), ("array", .list), ("dictionary", .dict): fits = true
            case ("boolean", .name(let b, _)): fits = b == "true" || b == "false"
            case ("dictionary", .list(let items, _)): fits = items.isEmpty
            default: fits = false
            }
            // `.array([])` and `.dictionary([:])` are empty; `.integer(1.5)` does not compile.
            if fits, !(name == "integer" && Int64(inner.numberText ?? "") == nil) {
                if case .list(let items, let line) = inner, name == "dictionary", items.isEmpty {
                    return .success(PlistNode(.dict(PlistDictionary()), at: SourceLocation(line: line, column: 0)))
                }
                return node(inner, depth: depth, count: &count)
            }
        default: break
        }
        return .failure(Unread(reason: "entitlements written as a dictionary with a value that needs evaluation", line: v.line))
    }

    /// `.string(...)` and its kin are written bare or as `Plist.Value.string(...)`.
    private static func isPlistValue(_ receiver: ManifestValue?) -> Bool {
        guard let receiver else { return true }
        if case .name(let n, _) = receiver { return n == "Plist.Value" || n == "Value" }
        return false
    }
}

extension ManifestValue {
    fileprivate var numberText: String? { if case .number(let n, _) = self { return n } else { return nil } }
}
