// The parser of manifests: expressions as far as the forms read need them (strings, arrays,
// calls with labels, members); anything else, or nesting past `maxNesting`, is `other`.
extension PackageManifest {
    /// An expression as far as the manifest forms need: anything else is `other`.
    indirect enum Expr {
        case string(String)
        case array([Expr])
        /// `.name(args)` or `A.B.name(args)`: `name` is the last component.
        case call(String, [(label: String?, value: Expr)])
        /// `.name` or an identifier, not called.
        case member(String)
        case other
    }

    struct Parser {
        let tokens: [Token]
        var i = 0
        var depth = 0

        init(_ tokens: [Token]) { self.tokens = tokens }

        var current: Token? { i < tokens.count ? tokens[i] : nil }

        func isPunctuation(_ c: Character) -> Bool {
            if case .punctuation(let p)? = current, p == c.asciiValue { return true }
            return false
        }

        /// Skips a balanced run up to (not including) a `,`, `)` or `]` at this level.
        mutating func skipRest() {
            var level = 0
            while let t = current {
                guard case .punctuation(let p) = t else { i += 1; continue }
                if p == UInt8(ascii: "(") || p == UInt8(ascii: "[") || p == UInt8(ascii: "{") {
                    level += 1
                } else if p == UInt8(ascii: ")") || p == UInt8(ascii: "]") || p == UInt8(ascii: "}") {
                    if level == 0 { return }
                    level -= 1
                } else if p == UInt8(ascii: ","), level == 0 {
                    return
                }
                i += 1
            }
        }

        /// One expression; whatever follows it before the next `,` `)` `]` (an operator, a
        /// method call) makes it `other`.
        mutating func expression() -> Expr {
            depth += 1
            defer { depth -= 1 }
            guard depth <= PackageManifest.maxNesting else { skipRest(); return .other }
            var result = primary()
            if !(isPunctuation(",") || isPunctuation(")") || isPunctuation("]") || current == nil) {
                skipRest()
                result = .other
            }
            return result
        }

        mutating func primary() -> Expr {
            guard let t = current else { return .other }
            switch t {
            case .string(let s):
                i += 1
                return .string(s)
            case .opaqueString:
                i += 1
                return .other
            case .punctuation(let p) where p == UInt8(ascii: "["):
                i += 1
                var items: [Expr] = []
                while current != nil, !isPunctuation("]") {
                    if isPunctuation(":") { skipRest(); return .other }   // a dictionary
                    items.append(expression())
                    if isPunctuation(",") { i += 1 } else if !isPunctuation("]") { skipRest(); return .other }
                }
                guard isPunctuation("]") else { return .other }
                i += 1
                return .array(items)
            case .punctuation(let p) where p == UInt8(ascii: "."):
                i += 1
                guard case .identifier(let name)? = current else { return .other }
                i += 1
                return callOrMember(name)
            case .identifier(var name):
                i += 1
                // A qualified name: `Target.Dependency.product`.
                while isPunctuation("."), i + 1 < tokens.count, case .identifier(let next) = tokens[i + 1] {
                    name = next
                    i += 2
                }
                return callOrMember(name)
            default:
                return .other
            }
        }

        mutating func callOrMember(_ name: String) -> Expr {
            guard isPunctuation("(") else { return .member(name) }
            i += 1
            var args: [(label: String?, value: Expr)] = []
            while current != nil, !isPunctuation(")") {
                var label: String?
                if case .identifier(let l)? = current, i + 1 < tokens.count, tokens[i + 1] == .punctuation(UInt8(ascii: ":")) {
                    label = l
                    i += 2
                }
                args.append((label, expression()))
                if isPunctuation(",") { i += 1 } else if !isPunctuation(")") { skipRest(); return .other }
            }
            guard isPunctuation(")") else { return .other }
            i += 1
            // A trailing closure or a chained call makes the whole expression something else.
            return .call(name, args)
        }
    }
}
