/// Swift declarations: types (their names make the paths of member constants), functions
/// (their parameters), `let`/`var` bindings, computed properties and enum cases.
extension SiteExtractor {
    mutating func swiftToken(_ i: Int) {
        guard src.tokens[i].kind == .identifier, !src.isPunct(i - 1, UInt8(ascii: ".")) else {
            if src.tokens[i].kind == .identifier { keychainIdiom(i) }
            return
        }
        // Declaration keywords start with one of these bytes; other words can only be idioms.
        switch src.bytes[Int(src.tokens[i].start)] {
        case UInt8(ascii: "i"), UInt8(ascii: "s"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: "p"),
             UInt8(ascii: "f"), UInt8(ascii: "l"), UInt8(ascii: "v"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            break
        default:
            keychainIdiom(i)
            return
        }
        if src.isWord(i, "import"), src.isWord(i + 1, "KeychainAccess") {
            importsKeychainAccess = true
        } else if src.isWord(i, "struct") || src.isWord(i, "class") || src.isWord(i, "enum") || src.isWord(i, "actor")
                    || src.isWord(i, "extension") || src.isWord(i, "protocol") {
            typeDeclaration(i)
        } else if src.isWord(i, "func") || src.isWord(i, "init") || src.isWord(i, "subscript") {
            functionDeclaration(i)
        } else if src.isWord(i, "let") || src.isWord(i, "var") {
            binding(i)
        } else if src.isWord(i, "case") {
            enumCase(i)
        } else if src.isWord(i, "return") {
            getterReturn(i)
        } else if src.isWord(i, "typealias") {
            typeAlias(i)
        } else {
            keychainIdiom(i)
        }
    }

    /// `let NAME = String(kSecAttrAccessGroup)` or `= kSecAttrAccessGroup as String` anywhere in
    /// the file: NAME stands for the key (found before the walk, as it may be declared below its use).
    mutating func findSwiftAliases() {
        let n = src.tokens.count
        for i in 0..<n where src.isWord(i, "kSecAttrAccessGroup") {
            var k = i - 1
            if src.isPunct(k, UInt8(ascii: "(")), src.isWord(k - 1, "String") { k -= 2 }
            guard src.isPunct(k, UInt8(ascii: "=")), src.tokens.indices.contains(k - 1), src.tokens[k - 1].kind == .identifier,
                  src.isWord(k - 2, "let") || src.isWord(k - 2, "var") else { continue }
            groupKeyAliases.insert(src.text(k - 1))
        }
    }

    private mutating func typeDeclaration(_ i: Int) {
        guard i + 1 < src.tokens.count, src.tokens[i + 1].kind == .identifier,
              !["func", "var", "let", "static", "override", "final", "private", "public", "internal", "fileprivate", "open", "subscript", "required", "convenience"]
                .contains(src.text(i + 1)) else { return }
        var names = [src.text(i + 1)]
        var k = i + 2
        while src.isPunct(k, UInt8(ascii: ".")), k + 1 < src.tokens.count, src.tokens[k + 1].kind == .identifier, names.count < 16 {
            names.append(src.text(k + 1))
            k += 2
        }
        let isExtension = src.isWord(i, "extension")
        var path = isExtension ? names : typePath + names
        var tooDeep = !isExtension && (scopes.blocks.last?.typeTooDeep ?? false)
        if path.count > SiteExtractor.maxTypePath {
            path.removeLast(path.count - SiteExtractor.maxTypePath)
            tooDeep = true
        }
        let stringEnum = src.isWord(i, "enum") && src.isPunct(k, UInt8(ascii: ":")) && src.isWord(k + 1, "String")
        if !src.isWord(i, "protocol") { locksmith.noteConformance(path, clause: k, in: src) }
        pendingType = (path, stringEnum, tooDeep)
        pendingParams = nil
        pendingGetter = nil
    }

    /// `func NAME<...>(...)`, `init(...)`, `subscript(...)`: the parameter clause is the first `(`
    /// after the keyword, before any `{`, `;` or `=`, however long the generic clause before it.
    /// Keywords before one clause (`func func f(`) share one scan, so scanning stays linear.
    private mutating func functionDeclaration(_ i: Int) {
        var k: Int
        if i > functionScan.from, i < functionScan.end {
            k = functionScan.end
        } else {
            k = i + 1
            while k < src.tokens.count, !src.isPunct(k, UInt8(ascii: "(")), !src.isPunct(k, UInt8(ascii: "{")),
                  !src.isPunct(k, UInt8(ascii: ";")), !src.isPunct(k, UInt8(ascii: "=")) {
                k += 1
                work.clauseTokens += 1
            }
            functionScan = (i, k)
        }
        guard src.isPunct(k, UInt8(ascii: "(")), src.tokens[k].partner > k else { return }
        if src.isWord(i, "init"), k != i + 1, !(k == i + 2 && (src.isPunct(i + 1, UInt8(ascii: "?")) || src.isPunct(i + 1, UInt8(ascii: "!")))) {
            return
        }
        declarationParens.insert(k)
        if let params = paramsByClause[k] {
            // Several keywords before one clause (`func func f(...)`): read once.
            pendingParams = params
            pendingGetter = nil
            pendingType = nil
            return
        }
        let close = Int(src.tokens[k].partner)
        var params = Set<String>()
        for part in parser.split(k + 1, close, where: { src.isPunct($0, UInt8(ascii: ",")) }) {
            var name: String?
            var j = part.lowerBound
            while j < part.upperBound, !src.isPunct(j, UInt8(ascii: ":")) {
                if src.tokens[j].kind == .identifier { name = src.text(j) }
                j += 1
            }
            if let name, name != "_" { params.insert(name) }
        }
        paramsByClause[k] = params
        pendingParams = params
        pendingGetter = nil
        pendingType = nil
        // `func NAME() -> String {`: no parameter, so its value is that of its body, as for a
        // computed property (`finishGetter`); it is named `NAME()` as calls to it are.
        if src.isWord(i, "func"), close == k + 1, k == i + 2, atMemberLevel, parser.isOperator(close + 1, "->"), src.isWord(close + 2, "String") {
            var brace = close + 3
            if src.isPunct(brace, UInt8(ascii: "?")) || src.isPunct(brace, UInt8(ascii: "!")) { brace += 1 }
            if src.isPunct(brace, UInt8(ascii: "{")) {
                pendingParams = nil
                pendingGetter = typePath + [src.text(i + 1) + "()"]
                pendingGetterToken = i + 1
            }
        }
    }

    /// `typealias NAME = A.B` (no generic clause): recorded for the resolver, which reads
    /// `NAME.member` as `A.B.member`.
    private mutating func typeAlias(_ i: Int) {
        guard atMemberLevel, i + 2 < src.tokens.count, src.tokens[i + 1].kind == .identifier, src.isPunct(i + 2, UInt8(ascii: "=")) else { return }
        var end = i + 3
        while end + 1 < src.tokens.count, src.isPunct(end + 1, UInt8(ascii: ".")), end + 2 < src.tokens.count,
              src.tokens[end + 2].kind == .identifier, src.tokens[end + 2].line == src.tokens[end].line, end - i < 64 {
            end += 2
        }
        guard end < src.tokens.count, src.tokens[end].kind == .identifier, let target = parser.reference(i + 3, end + 1) else { return }
        result.aliases.append(TypeAliasDefinition(path: typePath + [src.text(i + 1)], line: Int(src.tokens[i + 1].line), target: target))
    }

    private mutating func binding(_ i: Int) {
        let conditional = src.isWord(i - 1, "guard") || src.isWord(i - 1, "if") || src.isWord(i - 1, "while")
        let isLet = src.isWord(i, "let")
        let k = i + 1
        guard k < src.tokens.count, src.tokens[k].kind == .identifier, !src.isWord(k, "_") else { return }
        let name = src.text(k)
        var isStatic = false
        var m = i - 1
        while m >= 0, m >= i - 6, src.tokens[m].kind == .identifier, src.tokens[m].line == src.tokens[i].line {
            if src.isWord(m, "static") || src.isWord(m, "class") { isStatic = true }
            m -= 1
        }
        // The annotation, up to `=`, `{` (a computed property) or the statement's end.
        var j = k + 1
        var stringType = !src.isPunct(j, UInt8(ascii: ":"))
        if src.isPunct(j, UInt8(ascii: ":")) {
            stringType = src.isWord(j + 1, "String")
            j = statementEnd(j + 1, conditional: conditional, stopAtBrace: true, stopAtEquals: true).end
        }
        let member = atMemberLevel
        pendingParams = nil
        if src.isPunct(j, UInt8(ascii: "=")), member, isLet || isStatic || scopes.blocks.isEmpty, immediatelyInvoked(j + 1) {
            // `static let x: String = { ... return ... }()`: its returns, as a getter's.
            pendingGetter = typePath + [name]
            pendingGetterToken = k
        } else if src.isPunct(j, UInt8(ascii: "=")) {
            let extent = statementEnd(j + 1, conditional: conditional)
            let value = read(extent)
            if member, name == "accessGroup" { locksmith.noteAccessGroup(token: k, path: typePath, value: scopes.classify(value), condition: conditions.effective) }
            if !member, src.isWord(j + 1, "LocksmithRequest"), src.isPunct(j + 2, UInt8(ascii: "(")), !scopes.blocks.isEmpty {
                scopes.declareRequest(name)
            }
            if member && (isLet || isStatic || scopes.blocks.isEmpty) {
                addDefinition(name: name, at: k, value: value, member: true)
            } else if member {
                members.storedProperties[typePath, default: []].insert(name)
            } else if isLet {
                addDefinition(name: name, at: k, value: value, member: false)
            } else {
                scopes.declareLocal(name, constant: false)
            }
            if !member, extent.limit == nil, let query = parser.queryLiteral(j + 1, extent.end) {
                scopes.declareQuery(name, QueryState(literal: query))
            }
        } else if src.isPunct(j, UInt8(ascii: "{")), !isLet {
            pendingGetter = member && stringType ? typePath + [name] : nil
            pendingGetterToken = k
            if member && !stringType { members.storedProperties[typePath, default: []].insert(name) }
        } else if member {
            members.storedProperties[typePath, default: []].insert(name)
        } else {
            scopes.declareLocal(name, constant: false)
        }
    }

    /// `{ ... }()` starting at `i`: a closure called where it is written.
    private func immediatelyInvoked(_ i: Int) -> Bool {
        guard src.isPunct(i, UInt8(ascii: "{")) else { return false }
        let close = Int(src.tokens[i].partner)
        return close > i && src.isPunct(close + 1, UInt8(ascii: "(")) && Int(src.tokens[close + 1].partner) == close + 2
    }

    private mutating func enumCase(_ i: Int) {
        guard let block = scopes.blocks.last, block.kind == .type else { return }
        var k = i + 1
        var steps = 0
        while k < src.tokens.count, src.tokens[k].kind == .identifier, steps < 4096 {
            let name = src.text(k)
            var next = k + 1
            if src.isPunct(next, UInt8(ascii: "(")), src.tokens[next].partner > next {
                declarationParens.insert(next)
                next = Int(src.tokens[next].partner) + 1
            }
            if src.isPunct(next, UInt8(ascii: "=")) {
                let extent = statementEnd(next + 1, conditional: false, stopAtComma: true)
                addDefinition(name: name, at: k, value: read(extent), member: true)
                next = extent.end
            } else if block.stringEnum {
                addDefinition(name: name, at: k, value: .literal(name), member: true)
            }
            guard src.isPunct(next, UInt8(ascii: ",")) else { return }
            k = next + 1
            steps += 1
        }
    }

    /// A `return` in a computed property's body (not in a function or closure-free block inside
    /// it: the innermost block that is not a plain block decides).
    private mutating func getterReturn(_ i: Int) {
        guard let b = scopes.namedDepths.last, scopes.blocks[b].kind == .getter,
              !scopes.blocks[b].getterPath.isEmpty else { return }
        let extent = statementEnd(i + 1, conditional: false)
        guard scopes.blocks[b].returns.count <= Alternative.maxValues else { return }
        let found = GetterReturn(extent: extent, condition: conditions.effective, label: returnLabel(i, from: scopes.blocks[b].open),
                                 line: Int(src.tokens[i].line))
        scopes.update(b) { $0.returns.append(found) }
    }

    /// How the code reaches the `return` at `i`: the nearest `case ...` / `default` before it in
    /// the getter (at most 64 tokens back, not past the getter's `{`), else `return at line N`.
    private func returnLabel(_ i: Int, from open: Int) -> String {
        var k = i - 1
        while k > open, k >= i - 64 {
            if src.isWord(k, "case") || src.isWord(k, "default") {
                var colon = k + 1
                while colon < i, !src.isPunct(colon, UInt8(ascii: ":")) { colon = parser.skip(colon) }
                return src.snippet(k, min(colon, i), limit: 40)
            }
            if src.isWord(k, "return") { break }
            k -= 1
        }
        return "return at line \(src.tokens[i].line)"
    }

    /// The value of a computed `String` property: its one `return` (a local constant returned,
    /// as in `guard let x = Bundle.main.object(...) as? String else {...}; return x`, is replaced
    /// by that constant's expression), or its body when it is a single expression.
    mutating func finishGetter(_ block: OpenBlock) {
        var value: StringExpression
        switch block.returns.count {
        case 0: value = block.open >= 0 && block.close > block.open ? read(block.open + 1, block.close) : .unknown("an empty getter")
        case 1: value = read(block.returns[0].extent)
        case ...Alternative.maxValues:
            // Each `return` is a possible value (a `switch self` over an enum's cases, `#if`
            // branches, an `if`); `return nil` gives no group and is left out.
            var list: [Alternative] = []
            for r in block.returns where !(r.extent.end == r.extent.lo + 1 && src.isWord(r.extent.lo, "nil")) {
                list.append(Alternative(label: r.label, condition: r.condition, line: r.line, value: read(r.extent)))
            }
            value = list.count == 1 ? list[0].value : .alternatives(list)
        default: value = .unknown("a computed property with more than \(Alternative.maxValues) returns")
        }
        if block.typeTooDeep { value = .overLimit(SiteExtractor.typeTooDeep) }
        if case .reference(let names) = value, names.count == 1, block.locals[names[0]] == true,
           let local = block.scoped.last(where: { result.definitions[$0].path == names }) {
            value = result.definitions[local].value
        }
        let name = block.getterPath.last ?? ""
        let path = Array(block.getterPath.dropLast())
        value = scopes.classify(value)
        members.typeConstants[path, default: []].insert(name)
        if name == "accessGroup" { locksmith.noteAccessGroup(token: block.getterToken, path: path, value: value, condition: conditions.effective) }
        result.definitions.append(StringDefinition(path: block.getterPath, line: Int(src.tokens[block.getterToken].line), value: value,
                                                   condition: conditions.effective))
        members.wait(.definition(result.definitions.count - 1), in: path, locals: [])
    }
}
