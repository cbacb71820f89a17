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
}
