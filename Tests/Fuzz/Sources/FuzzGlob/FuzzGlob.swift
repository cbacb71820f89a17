import EntitlintCore
import FuzzSupport

/// libFuzzer entry point for the `exclude:` glob matcher (`Glob`): the input's first line is the
/// pattern, the rest the path (`*`, `**`, `?`, `./`, trailing `/`, patterns with and without `/`).
/// A pattern with no wildcard must match itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGlob(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let (pattern, path) = GlobInput.split(text)
    FuzzCheck.sink &+= Glob(pattern).matches(path) ? 1 : 0
    if !pattern.contains(where: { $0 == "*" || $0 == "?" }), !pattern.hasSuffix("/"), !pattern.hasPrefix("./") {
        precondition(Glob(pattern).matches(pattern), "a pattern without wildcards does not match itself")
    }
    return 0
}

enum GlobInput {
    static func split(_ text: String) -> (pattern: String, path: String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, text) }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }
}
