import EntitlintCore

/// The Swift compilation conditions of one configuration, from its build settings: the names in
/// `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and the `-D NAME` / `-DNAME` flags of `OTHER_SWIFT_FLAGS`
/// (what `#if NAME` tests in Swift). Nil when either setting cannot be evaluated (a file that
/// could set it is missing, a cycle): the conditions are then not known, and no `#if` is decided.
enum CompilationFlags {
    static func swiftConditions(_ settings: SettingsEvaluator) -> Set<String>? {
        var out = Set<String>()
        for name in ["SWIFT_ACTIVE_COMPILATION_CONDITIONS", "OTHER_SWIFT_FLAGS"] {
            let r = settings.resolve(name)
            guard r.problem == nil, r.undefined.isEmpty else { return nil }
            guard let value = r.value else {
                if r.isSet { return nil }
                continue
            }
            let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(1024).map(String.init)
            if name == "OTHER_SWIFT_FLAGS" {
                var k = 0
                while k < words.count {
                    if words[k] == "-D", k + 1 < words.count {
                        out.insert(words[k + 1])
                        k += 1
                    } else if words[k].hasPrefix("-D"), words[k].count > 2 {
                        out.insert(String(words[k].dropFirst(2)))
                    }
                    k += 1
                }
            } else {
                // `$(inherited)` of nothing leaves nothing; quotes are not part of a name.
                out.formUnion(words.map { $0.replacing("\"", with: "") }.filter { !$0.isEmpty })
            }
        }
        return out
    }

    /// The preprocessor macros of one configuration's compiles of one C-family language, name to value
    /// (`1` for a name given without one, as `-DNAME` does): the words of
    /// `GCC_PREPROCESSOR_DEFINITIONS` and `GCC_PREPROCESSOR_DEFINITIONS_NOT_USED_IN_PRECOMPS`
    /// (`NAME` or `NAME=VALUE`, `$(inherited)` expanded by the evaluator), then `-D`/`-U` of
    /// `flags`: `OTHER_CFLAGS` for C and Objective-C, `OTHER_CPLUSPLUSFLAGS` for C++ and
    /// Objective-C++ (which Xcode passes in its place; its default is `$(OTHER_CFLAGS)`, see
    /// `SettingsEvaluator.fallbacks`). Nil when a setting cannot be evaluated, or when the compile
    /// reads a header the unit's file list may not hold first (`GCC_PREFIX_HEADER`, `-include`, `-imacros`).
    static func preprocessorMacros(_ settings: SettingsEvaluator, flags: String = "OTHER_CFLAGS") -> [String: String]? {
        var out: [String: String] = [:]
        let prefix = settings.resolve("GCC_PREFIX_HEADER")
        guard prefix.problem == nil, prefix.undefined.isEmpty, (prefix.value ?? "").isEmpty else { return nil }
        for name in ["GCC_PREPROCESSOR_DEFINITIONS", "GCC_PREPROCESSOR_DEFINITIONS_NOT_USED_IN_PRECOMPS", flags] {
            let r = settings.resolve(name)
            guard r.problem == nil, r.undefined.isEmpty else { return nil }
            guard let value = r.value else {
                if r.isSet { return nil }
                continue
            }
            let words = shellWords(value)
            guard words.count < 1024 else { return nil }
            if name != flags {
                for w in words { define(w, in: &out) }
                continue
            }
            var k = 0
            while k < words.count {
                let w = words[k]
                if w == "-include" || w == "-imacros" || w.hasPrefix("-include") || w.hasPrefix("-imacros") { return nil }
                if w == "-D" || w == "-U", k + 1 < words.count {
                    if w == "-D" { define(words[k + 1], in: &out) } else { out[words[k + 1]] = nil }
                    k += 1
                } else if w.hasPrefix("-D"), w.count > 2 {
                    define(String(w.dropFirst(2)), in: &out)
                } else if w.hasPrefix("-U"), w.count > 2 {
                    out[String(w.dropFirst(2))] = nil
                }
                k += 1
            }
        }
        return out
    }

    /// `NAME` (value `1`) or `NAME=VALUE`; a word that does not start with a macro name is no macro.
    private static func define(_ word: String, in out: inout [String: String]) {
        let name = word.prefix { $0 != "=" }
        func isBody(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
        }
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39), name.utf8.allSatisfy(isBody) else { return }
        out[String(name)] = name.count == word.count ? "1" : String(word.dropFirst(name.count + 1))
    }

    /// Words as Xcode splits a list setting: at unquoted spaces and tabs; quotes (`"` and `'`) group
    /// and are dropped, a backslash keeps the next character.
    static func shellWords(_ value: String) -> [String] {
        var out: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in value {
            if escaped {
                word.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
                inWord = true
            } else if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { out.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { out.append(word) }
        return out
    }
}
