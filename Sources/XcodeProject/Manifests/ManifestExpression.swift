/// One token of a build manifest (a Tuist `Project.swift`, a Bazel `BUILD` file): Swift manifests
/// are lexed by the project's Swift lexer (`SwiftTokenList`), Starlark by `StarlarkLexer`.
struct ManifestToken: Sendable {
    enum Kind: Sendable { case identifier, string, unknownString, number, punct, other }
    var kind: Kind
    var text: String
    var line: Int
    var column: Int

    func isPunct(_ c: String) -> Bool { kind == .punct && text == c }
}

/// A value as a manifest writes it, read without evaluating anything: literals, lists,
/// dictionaries, calls (`.target(name: ...)`, `select({...})`), members (`.app`) and names
/// (`Constants.team`). Whatever needs evaluation (an interpolated string, a closure, an operator
/// other than `+` on strings) is `unknown`, with the reason.
indirect enum ManifestValue: Sendable {
    case string(String, line: Int)
    case number(String, line: Int)
    case list([ManifestValue], line: Int)
    case dict([(key: ManifestValue, value: ManifestValue)], line: Int)
    case call(String, receiver: ManifestValue?, args: [ManifestArg], line: Int)
    case member(String, line: Int)
    case name(String, line: Int)
    case none(line: Int)
    case unknown(String, line: Int)

    var line: Int {
        switch self {
        case .string(_, let l), .number(_, let l), .list(_, let l), .dict(_, let l), .call(_, _, _, let l),
             .member(_, let l), .name(_, let l), .none(let l), .unknown(_, let l): return l
        }
    }

    var stringValue: String? { if case .string(let s, _) = self { return s } else { return nil } }

    /// The argument labelled `label` of a call.
    func arg(_ label: String) -> ManifestValue? {
        guard case .call(_, _, let args, _) = self else { return nil }
        return args.first { $0.label == label }?.value
    }

    /// The unlabelled argument at `index` of a call.
    func positional(_ index: Int) -> ManifestValue? {
        guard case .call(_, _, let args, _) = self else { return nil }
        let unlabelled = args.filter { $0.label == nil }
        return index < unlabelled.count ? unlabelled[index].value : nil
    }
}

struct ManifestArg: Sendable {
    var label: String?
    var value: ManifestValue
}

/// Reads expressions from manifest tokens. The grammar is the common part of Swift and Starlark
/// that manifests use; `labelSeparator` is `:` in Swift (`name: "App"`) and `=` in Starlark.
/// Bounded by construction: brackets are paired once (`pairs`), every step moves forward, and
/// nesting deeper than `maxDepth` is `unknown`.
struct ManifestParser {
    let tokens: [ManifestToken]
    /// For each opening bracket, the index of its closing partner (or -1).
    let pairs: [Int]
    let labelSeparator: String
    /// Starlark writes dictionaries in braces; Swift writes closures there and dictionaries in brackets.
    let bracesAreDictionaries: Bool
    static let maxDepth = 48

    init(tokens: [ManifestToken], labelSeparator: String, bracesAreDictionaries: Bool) {
        self.tokens = tokens
        self.labelSeparator = labelSeparator
        self.bracesAreDictionaries = bracesAreDictionaries
        var pairs = [Int](repeating: -1, count: tokens.count)
        var stack: [Int] = []
        for (i, t) in tokens.enumerated() where t.kind == .punct {
            switch t.text {
            case "(", "[", "{": stack.append(i)
            case ")", "]", "}":
                let open = t.text == ")" ? "(" : t.text == "]" ? "[" : "{"
                // An unpaired closer closes nothing; a mismatched one closes up to its opener.
                if let k = stack.lastIndex(where: { tokens[$0].text == open }) {
                    pairs[stack[k]] = i
                    stack.removeSubrange(k...)
                }
            default: break
            }
        }
        self.pairs = pairs
    }

    func isPunct(_ i: Int, _ c: String) -> Bool { i >= 0 && i < tokens.count && tokens[i].isPunct(c) }

    /// The index after the bracket opened at `i` closes (the end of the tokens when it never does).
    func after(_ i: Int) -> Int { pairs[i] >= 0 ? pairs[i] + 1 : tokens.count }

    /// The next index at or after `i`, below `end`, holding `,` outside brackets (or `end`).
    func nextComma(_ i: Int, end: Int) -> Int {
        var k = i
        while k < end {
            if isPunct(k, ",") { return k }
            if isPunct(k, "(") || isPunct(k, "[") || isPunct(k, "{") { k = after(k); continue }
            k += 1
        }
        return end
    }

    /// The items between `open` (a bracket) and its partner, split at commas outside brackets.
    func items(_ open: Int) -> [(start: Int, end: Int)] {
        let close = pairs[open] >= 0 ? pairs[open] : tokens.count
        var out: [(Int, Int)] = []
        var k = open + 1
        while k < close {
            let c = nextComma(k, end: close)
            if c > k { out.append((k, c)) }
            k = c + 1
        }
        return out
    }

    /// One argument list, the tokens of which start after `open` (`(`): labels and values.
    func arguments(_ open: Int, depth: Int) -> [ManifestArg] {
        items(open).map { item in
            var start = item.start
            var label: String?
            if tokens[start].kind == .identifier, isPunct(start + 1, labelSeparator), start + 2 < item.end {
                label = tokens[start].text
                start += 2
            }
            return ManifestArg(label: label, value: whole(start, end: item.end, depth: depth + 1))
        }
    }

    /// The expression spanning `start..<end` exactly; one with tokens left over is unknown.
    func whole(_ start: Int, end: Int, depth: Int) -> ManifestValue {
        guard start < end else { return .unknown("nothing written", line: tokens[min(start, tokens.count - 1)].line) }
        let (value, next) = expression(start, depth: depth)
        if next == end { return value }
        return .unknown("an expression that needs evaluation", line: tokens[start].line)
    }

    /// An expression starting at `i`, and the index after it: a primary with its postfix calls and
    /// members, joined by `+` (strings only; any other sum is unknown).
    func expression(_ i: Int, depth: Int) -> (ManifestValue, Int) {
        var (value, next) = postfix(i, depth: depth)
        var steps = 0
        while isPunct(next, "+"), next + 1 < tokens.count, steps < 256 {
            steps += 1
            let (rhs, after) = postfix(next + 1, depth: depth)
            if case .string(let a, let line) = value, case .string(let b, _) = rhs {
                value = .string(a + b, line: line)
            } else {
                value = .unknown("a sum that needs evaluation", line: value.line)
            }
            next = after
        }
        return (value, next)
    }

    private func postfix(_ i: Int, depth: Int) -> (ManifestValue, Int) {
        guard depth < Self.maxDepth else { return (.unknown("nested too deeply", line: tokens[i].line), skipOne(i)) }
        var (value, next) = primary(i, depth: depth)
        var steps = 0
        while next < tokens.count, steps < 4096 {
            steps += 1
            if isPunct(next, "!") || isPunct(next, "?") { next += 1; continue }
            if isPunct(next, "."), next + 1 < tokens.count, tokens[next + 1].kind == .identifier {
                let member = tokens[next + 1].text
                if isPunct(next + 2, "(") {
                    value = .call(member, receiver: value, args: arguments(next + 2, depth: depth), line: tokens[next + 1].line)
                    next = after(next + 2)
                } else if case .name(let base, let line) = value {
                    value = .name(base + "." + member, line: line)
                    next += 2
                } else {
                    value = .call(member, receiver: value, args: [], line: tokens[next + 1].line)
                    next += 2
                }
                continue
            }
            if isPunct(next, "("), tokens[next].line == tokens[next - 1].line {
                switch value {
                case .name(let n, let line):
                    let parts = n.split(separator: ".")
                    let receiver: ManifestValue? = parts.count > 1 ? .name(parts.dropLast().joined(separator: "."), line: line) : nil
                    value = .call(String(parts.last ?? ""), receiver: receiver, args: arguments(next, depth: depth), line: line)
                case .member(let n, let line):
                    value = .call(n, receiver: nil, args: arguments(next, depth: depth), line: line)
                default:
                    value = .unknown("a call that needs evaluation", line: value.line)
                }
                next = after(next)
                continue
            }
            break
        }
        return (value, next)
    }

    private func skipOne(_ i: Int) -> Int {
        (isPunct(i, "(") || isPunct(i, "[") || isPunct(i, "{")) ? after(i) : i + 1
    }

    private func primary(_ i: Int, depth: Int) -> (ManifestValue, Int) {
        let t = tokens[i]
        switch t.kind {
        case .string: return (.string(t.text, line: t.line), i + 1)
        case .unknownString: return (.unknown("a string that needs evaluation", line: t.line), i + 1)
        case .number: return (.number(t.text, line: t.line), i + 1)
        case .identifier:
            if ["None", "nil"].contains(t.text) { return (.none(line: t.line), i + 1) }
            var next = i + 1
            // A generic argument list (`Set<Destination>`): skipped, within the line.
            if isPunct(next, "<") {
                var k = next + 1
                while k < tokens.count, k < next + 32, !isPunct(k, ">"), tokens[k].line == t.line { k += 1 }
                if isPunct(k, ">") { next = k + 1 }
            }
            return (.name(t.text, line: t.line), next)
        case .punct:
            switch t.text {
            case ".":
                if i + 1 < tokens.count, tokens[i + 1].kind == .identifier { return (.member(tokens[i + 1].text, line: t.line), i + 2) }
            case "(":
                let parts = items(i)
                if parts.count == 1 { return (whole(parts[0].start, end: parts[0].end, depth: depth + 1), after(i)) }
            case "[":
                return (collection(i, dictionary: !bracesAreDictionaries, depth: depth), after(i))
            case "{":
                if bracesAreDictionaries { return (collection(i, dictionary: true, depth: depth), after(i)) }
                return (.unknown("a closure that needs evaluation", line: t.line), after(i))
            default: break
            }
            return (.unknown("an expression that needs evaluation", line: t.line), skipOne(i))
        case .other:
            return (.unknown("an expression that needs evaluation", line: t.line), i + 1)
        }
    }

    /// A list, or a dictionary when its items hold a `:` outside brackets (`[:]` is an empty one).
    private func collection(_ open: Int, dictionary: Bool, depth: Int) -> ManifestValue {
        let line = tokens[open].line
        if isPunct(open + 1, ":"), isPunct(open + 2, "]") { return .dict([], line: line) }
        let parts = items(open)
        var list: [ManifestValue] = []
        var dict: [(key: ManifestValue, value: ManifestValue)] = []
        var isDict = false
        for p in parts {
            var k = p.start
            var colon = -1
            while k < p.end {
                if isPunct(k, ":") { colon = k; break }
                k = skipOne(k)
            }
            if colon >= 0, dictionary || bracesAreDictionaries {
                isDict = true
                dict.append((whole(p.start, end: colon, depth: depth + 1), whole(colon + 1, end: p.end, depth: depth + 1)))
            } else {
                list.append(whole(p.start, end: p.end, depth: depth + 1))
            }
        }
        if isDict || tokens[open].text == "{" { return .dict(dict, line: line) }
        return .list(list, line: line)
    }
}
