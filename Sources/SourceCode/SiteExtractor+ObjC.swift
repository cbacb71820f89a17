/// Objective-C declarations: `#define NAME value`, `NSString * const NAME = value;` (file level:
/// a definition for the unit; inside a function or method: a local with its block as scope),
/// local query dictionaries, and the parameters of methods and C functions.
extension SiteExtractor {
    mutating func objcToken(_ i: Int) {
        let t = src.tokens[i]
        if t.kind == .defineStart {
            define(i)
            return
        }
        guard t.kind == .identifier else { return }
        if src.isPunct(i + 1, UInt8(ascii: "=")), !src.isPunct(i - 1, UInt8(ascii: ".")), !src.isPunct(i - 1, UInt8(ascii: ">")) {
            declaration(i)
        }
        keychainIdiom(i)
    }

    private mutating func define(_ i: Int) {
        guard i + 1 < src.tokens.count, src.tokens[i + 1].kind == .identifier else { return }
        var end = i + 2
        while end < src.tokens.count, src.tokens[end].kind != .defineEnd, end - i < 4096 { end += 1 }
        let body = (i + 2)..<end
        guard !body.isEmpty else { return }
        var value: StringExpression
        // `#define NAME PREFIX @"suffix"`: adjacent pieces join, as the preprocessor and the
        // compiler join them.
        if body.count > 1, body.allSatisfy({ src.tokens[$0].kind == .string || src.tokens[$0].kind == .identifier }),
           body.contains(where: { src.tokens[$0].kind == .identifier }) {
            value = .concatenation(body.map { k in
                src.tokens[k].kind == .string ? .literal(src.strings[Int(src.tokens[k].value)]) : .reference([src.text(k)])
            })
        } else {
            value = read(body.lowerBound, body.upperBound)
        }
        addDefinition(name: src.text(i + 1), at: i + 1, value: value, member: true)
    }

    /// `TYPE *NAME = value;` with the type and qualifiers right before NAME.
    private mutating func declaration(_ i: Int) {
        var k = i - 1
        var isString = false
        var isDictionary = false
        var typed = false
        while k >= 0, k >= i - 8 {
            if src.isPunct(k, UInt8(ascii: "*")) || src.isWord(k, "const") || src.isWord(k, "static") || src.isWord(k, "__strong")
                || src.isWord(k, "nonnull") || src.isWord(k, "_Nonnull") {
                k -= 1
                continue
            }
            if src.tokens[k].kind == .identifier {
                let word = src.text(k)
                isString = ["NSString", "CFStringRef", "NSMutableString"].contains(word)
                isDictionary = ["NSDictionary", "NSMutableDictionary", "CFMutableDictionaryRef", "CFDictionaryRef", "id"].contains(word)
                typed = true
            }
            break
        }
        guard typed, k < i - 1 || isString || isDictionary else { return }
        let name = src.text(i)
        let extent = statementEnd(i + 2, conditional: false)
        let inFunction = functionBlocks > 0
        if isString {
            addDefinition(name: name, at: i, value: read(extent), member: !inFunction)
        } else if inFunction, !scopes.blocks.isEmpty {
            scopes.declareLocal(name, constant: false)
            if isDictionary, extent.limit == nil, let literal = parser.queryLiteral(i + 2, extent.end) {
                scopes.declareQuery(name, QueryState(literal: literal))
            }
        }
    }

    /// The parameters of the method or C function whose body opens at `i`.
    mutating func objcBlockParams(_ i: Int, into block: inout OpenBlock) {
        guard functionBlocks == 0, i > 0 else { return }
        // A method: the declaration that `run` saw start since the last `;`, `{` or `}` (however
        // long its signature; each token of it is read once).
        if methodStart >= 0 {
            block.kind = .function
            var j = methodStart + 1
            while j < i {
                if src.isPunct(j, UInt8(ascii: "(")), src.isPunct(j - 1, UInt8(ascii: ":")), src.tokens[j].partner > j {
                    let after = Int(src.tokens[j].partner) + 1
                    if after < i, src.tokens[after].kind == .identifier { block.params.insert(src.text(after)) }
                }
                j = parser.skip(j)
            }
            return
        }
        guard src.isPunct(i - 1, UInt8(ascii: ")")), let open = parser.opener(of: i - 1), open > 0,
              src.tokens[open - 1].kind == .identifier, !["if", "while", "for", "switch", "catch", "synchronized"].contains(src.text(open - 1)) else { return }
        block.kind = .function
        for part in parser.split(open + 1, i - 1, where: { src.isPunct($0, UInt8(ascii: ",")) }) {
            var last: Int?
            for j in part where src.tokens[j].kind == .identifier { last = j }
            if let last { block.params.insert(src.text(last)) }
        }
    }
}
