import SourceCode

/// One Swift manifest file of a Tuist project (`Project.swift`, `Workspace.swift`, a file of
/// `Tuist/ProjectDescriptionHelpers`), lexed by the project's Swift lexer, with the constants
/// (`let`, `static let`, by their plain name and qualified by the type around them) and the
/// functions (`static func`, with one returned expression) it defines. Statements are not run:
/// a `var` changed later, a closure, a computed property are unknown.
struct TuistFile {
    static let maxTokens = 400_000
    let shown: String
    let parser: ManifestParser

    init(bytes: [UInt8], shown: String) {
        self.shown = shown
        let tokens = SwiftTokenList.tokens(of: bytes, maxTokens: Self.maxTokens).map { t in
            ManifestToken(kind: Self.kind(t.kind), text: t.text, line: t.line, column: t.column)
        }
        parser = ManifestParser(tokens: tokens, labelSeparator: ":", bracesAreDictionaries: false)
    }

    private static func kind(_ k: SwiftTokenList.Kind) -> ManifestToken.Kind {
        switch k {
        case .identifier: return .identifier
        case .string: return .string
        case .interpolatedString: return .unknownString
        case .number: return .number
        case .punct: return .punct
        case .other: return .other
        }
    }

    var tokens: [ManifestToken] { parser.tokens }

    /// Adds this file's constants and functions to `definitions`.
    func define(into definitions: inout ManifestDefinitions) {
        var types: [(name: String, end: Int)] = []
        var i = 0
        while i < tokens.count {
            while let last = types.last, i >= last.end { types.removeLast() }
            let t = tokens[i]
            guard t.kind == .identifier else { i += 1; continue }
            switch t.text {
            case "enum", "struct", "class", "extension":
                // `extension Target {`, `public enum Constants {`: names inside are qualified.
                var k = i + 1
                if k < tokens.count, tokens[k].kind == .identifier {
                    let name = tokens[k].text
                    while k < tokens.count, k < i + 64, !parser.isPunct(k, "{") { k += 1 }
                    if parser.isPunct(k, "{") { types.append((name, parser.after(k))) }
                }
                i += 1
            case "let", "var":
                i = constant(at: i, qualifier: types.last?.name, into: &definitions)
            case "func":
                i = function(at: i, into: &definitions)
            default:
                i += 1
            }
        }
    }

    /// `let name (: Type)? = expression`: defined under `name` and `Qualifier.name`.
    private func constant(at i: Int, qualifier: String?, into definitions: inout ManifestDefinitions) -> Int {
        guard i + 1 < tokens.count, tokens[i + 1].kind == .identifier else { return i + 1 }
        let name = tokens[i + 1].text
        var k = i + 2
        if parser.isPunct(k, ":") {
            k += 1
            var steps = 0
            while k < tokens.count, !parser.isPunct(k, "="), steps < 64, tokens[k].line == tokens[i].line || parser.isPunct(k, ">") {
                steps += 1
                k = parser.isPunct(k, "[") || parser.isPunct(k, "(") ? parser.after(k) : k + 1
            }
        }
        guard parser.isPunct(k, "="), k + 1 < tokens.count else { return k }
        let (value, next) = parser.expression(k + 1, depth: 0)
        // A closure called on the spot (`let deps: [X] = { ... }()`) is unknown (`expression` says so).
        let located = Located(value: value, file: shown)
        definitions.define(name, located)
        if let qualifier { definitions.define(qualifier + "." + name, located) }
        return max(next, k + 1)
    }

    /// `func name(parameters) -> Type { ... return expression ... }`.
    private func function(at i: Int, into definitions: inout ManifestDefinitions) -> Int {
        guard i + 1 < tokens.count, tokens[i + 1].kind == .identifier else { return i + 1 }
        let name = tokens[i + 1].text
        var k = i + 2
        if parser.isPunct(k, "<") {
            while k < tokens.count, k < i + 40, !parser.isPunct(k, ">") { k += 1 }
            k += 1
        }
        guard parser.isPunct(k, "(") else { return k }
        let parameters = parser.items(k).map(parameter)
        k = parser.after(k)
        var steps = 0
        while k < tokens.count, !parser.isPunct(k, "{"), steps < 64 {
            steps += 1
            k = parser.isPunct(k, "[") || parser.isPunct(k, "(") ? parser.after(k) : k + 1
        }
        guard parser.isPunct(k, "{") else { return k }
        let end = parser.after(k) - 1
        var results: [ManifestValue] = []
        var signing = false
        var j = k + 1
        while j < end {
            let t = tokens[j]
            if t.kind == .string, ["DEVELOPMENT_TEAM", "CODE_SIGN", "PROVISIONING_PROFILE", "PRODUCT_BUNDLE_IDENTIFIER"].contains(where: { t.text.hasPrefix($0) }) { signing = true }
            if t.kind == .identifier, ["automaticCodeSigning", "manualCodeSigning"].contains(t.text) { signing = true }
            if t.kind == .identifier, t.text == "return", j + 1 < end, results.isEmpty {
                results.append(parser.expression(j + 1, depth: 0).0)
            }
            j += 1
        }
        if results.isEmpty, k + 1 < end { results.append(parser.whole(k + 1, end: end, depth: 0)) }
        definitions.define(function: name, ManifestFunction(parameters: parameters, results: results, file: shown, namesSigningSettings: signing))
        return end + 1
    }

    /// `label name: Type = default`, `name: Type`, `_ name: Type`.
    private func parameter(_ item: (start: Int, end: Int)) -> ManifestFunction.Parameter {
        var colon = item.start
        while colon < item.end, !parser.isPunct(colon, ":") { colon += 1 }
        let words = tokens[item.start..<colon].filter { $0.kind == .identifier }.map(\.text)
        let name = words.last ?? ""
        let label: String? = words.count >= 2 ? (words[words.count - 2] == "_" ? nil : words[words.count - 2]) : name
        var k = colon
        var defaultValue: ManifestValue?
        while k < item.end {
            if parser.isPunct(k, "=") { defaultValue = parser.whole(k + 1, end: item.end, depth: 0); break }
            k = parser.isPunct(k, "[") || parser.isPunct(k, "(") ? parser.after(k) : k + 1
        }
        return .init(label: label, name: name, defaultValue: defaultValue)
    }

    /// What the manifest's `let project = ...` is (Tuist evaluates that constant), else its `Project(...)` calls.
    func projectValues() -> [ManifestValue] {
        var i = 0
        while i + 2 < tokens.count {
            if tokens[i].kind == .identifier, tokens[i].text == "let", tokens[i + 1].text == "project" {
                var k = i + 2
                if parser.isPunct(k, ":"), k + 1 < tokens.count { k += 2 }
                if parser.isPunct(k, "="), k + 1 < tokens.count { return [parser.expression(k + 1, depth: 0).0] }
            }
            i += 1
        }
        return calls("Project")
    }

    /// The calls of `callee` (`Project(`, `Workspace(`) written at the top level of the file.
    func calls(_ callee: String) -> [ManifestValue] {
        var out: [ManifestValue] = []
        var i = 0
        while i < tokens.count {
            if tokens[i].kind == .identifier, tokens[i].text == callee, parser.isPunct(i + 1, "("), !parser.isPunct(i - 1, ".") {
                let (value, next) = parser.expression(i, depth: 0)
                out.append(value)
                i = max(next, i + 1)
                continue
            }
            i += 1
        }
        return out
    }
}
