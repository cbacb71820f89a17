/// The stored properties and constants each type of one file declares (by type path), and the
/// sites and definitions whose values name something the file's later text may classify: `self.x`
/// is a constant of the type or else a property; a plain `x` that is a stored property of the
/// enclosing type (declared below the use) is a property. Decided once the file is read.
struct MemberNames {
    var storedProperties: [[String]: Set<String>] = [:]
    var typeConstants: [[String]: Set<String>] = [:]
    /// Each with the enclosing type and the local constants its value names.
    private var pending: [(PendingValue, [String], Set<String>)] = []

    /// Keeps the site or definition `item`, written in type `path`, to be classified at the end.
    mutating func wait(_ item: PendingValue, in path: [String], locals: Set<String>) {
        pending.append((item, path, locals))
    }

    func finish(_ result: inout ScannedSource) {
        for (item, path, locals) in pending {
            switch item {
            case .group(let k): result.groups[k].value = finish(result.groups[k].value, path, locals, 0)
            case .definition(let k): result.definitions[k].value = finish(result.definitions[k].value, path, locals, 0)
            }
        }
    }

    private func finish(_ expression: StringExpression, _ path: [String], _ locals: Set<String>, _ depth: Int) -> StringExpression {
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

/// Locksmith (github.com/matthewpalmer/Locksmith). Its convenience functions take the group as an
/// `accessGroup:` argument (read like any labelled argument); its protocol API takes it from the
/// `accessGroup` property of a type adopting one of its storable protocols (`SecureStorable`,
/// `GenericPasswordSecureStorable`, `CreateableSecureStorable`, ...: every such name ends in
/// `SecureStorable`); Locksmith 1.x took it from `LocksmithRequest`'s `group` property (read by
/// `SiteExtractor`). This keeps, for one file, the storable types and the `accessGroup`
/// properties declared in any type.
struct LocksmithProperties {
    /// Types (by path) whose declaration or an extension in this file adopts a storable protocol.
    private var types = Set<[String]>()
    private var accessGroups: [(token: Int, path: [String], value: StringExpression, condition: CompilationCondition?)] = []

    /// Records `path` as a Locksmith storable type when the clause after its name (`: A, B where
    /// Self: C`, up to the body's `{`, at most 64 tokens) names a protocol ending in `SecureStorable`.
    mutating func noteConformance(_ path: [String], clause k: Int, in src: TokenizedSource) {
        guard src.isPunct(k, UInt8(ascii: ":")) || src.isWord(k, "where") else { return }
        let limit = min(src.tokens.count, k + 64)
        var j = k
        while j < limit, !src.isPunct(j, UInt8(ascii: "{")), !src.isPunct(j, UInt8(ascii: ";")) {
            if src.tokens[j].kind == .identifier, src.text(j).hasSuffix("SecureStorable") {
                types.insert(path)
                return
            }
            j += 1
        }
    }

    /// A property named `accessGroup` (stored or computed), whose name is token `token`, declared
    /// under the `#if` condition `condition` (nil: none).
    mutating func noteAccessGroup(token: Int, path: [String], value: StringExpression, condition: CompilationCondition?) {
        accessGroups.append((token, path, value, condition))
    }

    /// The `accessGroup` properties of Locksmith storable types as group sites, with the type
    /// each is declared in: a stored `let`/`var accessGroup = VALUE` or a computed one returning
    /// VALUE. A property of any other type is some other API's and stays a plain definition;
    /// `nil` is "no group" and no site. Asked once the file is read (a conformance may be
    /// declared in an extension below the type).
    func sites(in src: TokenizedSource) -> [(site: KeychainGroupSite, path: [String])] {
        var sites: [(site: KeychainGroupSite, path: [String])] = []
        for property in accessGroups where types.contains(property.path) {
            if case .unknown("nil") = property.value { continue }
            let t = src.tokens[property.token]
            sites.append((KeychainGroupSite(line: Int(t.line), column: Int(t.column), api: "Locksmith accessGroup property",
                                            value: property.value, condition: property.condition), property.path))
        }
        return sites
    }
}
