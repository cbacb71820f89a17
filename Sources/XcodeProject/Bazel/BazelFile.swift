/// One Starlark file of a Bazel workspace, read without running it: its `load(...)` statements,
/// top-level constants (`NAME = value`), macros (`def name(params):`, with the rule calls of their
/// body) and top-level calls (`ios_application(...)`, a macro's name).
struct BazelFile {
    static let maxTokens = 400_000
    let shown: String
    let parser: ManifestParser
    /// `load("//tools:app.bzl", "app", alias = "name")`: the file's label and symbol -> name in that file.
    private(set) var loads: [(label: String, symbols: [String: String], line: Int)] = []
    /// Calls written at the top level (column 1).
    private(set) var calls: [ManifestValue] = []

    init(bytes: [UInt8], shown: String) {
        self.shown = shown
        parser = ManifestParser(tokens: StarlarkLexer.tokens(bytes, maxTokens: Self.maxTokens), labelSeparator: "=", bracesAreDictionaries: true)
        var i = 0
        let tokens = parser.tokens
        while i < tokens.count {
            let t = tokens[i]
            guard t.kind == .identifier, t.column == 1, parser.isPunct(i + 1, "(") else { i += 1; continue }
            let (value, next) = parser.expression(i, depth: 0)
            if t.text == "load" {
                var symbols: [String: String] = [:]
                var label = ""
                if case .call(_, _, let args, _) = value {
                    for (n, a) in args.enumerated() {
                        guard let s = a.value.stringValue else { continue }
                        if n == 0, a.label == nil { label = s } else { symbols[a.label ?? s] = s }
                    }
                }
                loads.append((label, symbols, t.line))
            } else {
                calls.append(value)
            }
            i = max(next, i + 1)
        }
    }

    var tokens: [ManifestToken] { parser.tokens }

    /// Adds the file's top-level constants and macros to `definitions`, under `prefix` + name.
    func define(into definitions: inout ManifestDefinitions, only names: [String: String]? = nil) {
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            guard t.kind == .identifier, t.column == 1 else { i += 1; continue }
            let exported = { (name: String) -> [String] in
                guard let names else { return [name] }
                return names.filter { $0.value == name }.map(\.key)
            }
            if parser.isPunct(i + 1, "="), i + 2 < tokens.count {
                let (value, next) = parser.expression(i + 2, depth: 0)
                for n in exported(t.text) { definitions.define(n, Located(value: value, file: shown)) }
                i = max(next, i + 1)
            } else if t.text == "def", i + 2 < tokens.count, tokens[i + 1].kind == .identifier, parser.isPunct(i + 2, "(") {
                let name = tokens[i + 1].text
                let parameters = parser.items(i + 2).compactMap { item -> ManifestFunction.Parameter? in
                    guard tokens[item.start].kind == .identifier else { return nil }   // *args, **kwargs
                    let d = parser.isPunct(item.start + 1, "=") ? parser.whole(item.start + 2, end: item.end, depth: 0) : nil
                    return .init(label: nil, name: tokens[item.start].text, defaultValue: d)
                }
                // The body: the tokens after the signature until the next line at column 1.
                var k = parser.after(i + 2)
                var results: [ManifestValue] = []
                while k < tokens.count, tokens[k].column > 1 || tokens[k].line == tokens[i].line {
                    if tokens[k].kind == .identifier, parser.isPunct(k + 1, "("), !parser.isPunct(k - 1, "."), BazelRule(tokens[k].text) != nil {
                        let (value, next) = parser.expression(k, depth: 0)
                        results.append(value)
                        k = max(next, k + 1)
                        continue
                    }
                    k += 1
                }
                for n in exported(name) {
                    definitions.define(function: n, ManifestFunction(parameters: parameters, results: results, file: shown, namesSigningSettings: false))
                }
                i = k
            } else {
                i += 1
            }
        }
    }
}

/// The rules_apple rules that build signed bundles, with what they build and for which SDK.
struct BazelRule {
    let kind: String
    let sdk: String
    let productType: String

    init?(_ name: String) {
        let parts = name.split(separator: "_", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "ios": sdk = "iphoneos"
        case "macos": sdk = "macosx"
        case "watchos": sdk = "watchos"
        case "tvos": sdk = "appletvos"
        case "visionos": sdk = "xros"
        default: return nil
        }
        switch parts[1] {
        case "application", "imessage_application", "single_target_application":
            productType = sdk == "watchos" ? "application.watchapp2" : "application"
        case "app_clip": productType = "application.on-demand-install-capable"
        case "extension", "imessage_extension", "sticker_pack_extension": productType = sdk == "watchos" ? "watchkit2-extension" : "app-extension"
        case "command_line_application": productType = "tool"
        case "bundle": productType = "bundle"
        case "xpc_service": productType = "xpc-service"
        default: return nil
        }
        kind = parts[1]
    }
}
