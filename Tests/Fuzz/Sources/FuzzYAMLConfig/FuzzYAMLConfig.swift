import EntitlintCore
import EntitlintWorkspace
import FuzzSupport

/// libFuzzer entry point for `.entitlint.yml` (YAMLReader on libyaml, then Entitlint's key checks). The bytes are
/// decoded as `Configuration.load` does (UTF-8, invalid sequences replaced).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    do {
        let config = try Configuration.parse(text, path: "fuzz.yml", knownRules: knownRules)
        FuzzCheck.sink &+= config.apps.count &+ config.variables.count &+ config.rules.count
    } catch {
        FuzzCheck.error(error.reason)
    }
    return 0
}

/// Rule ids the configuration may name (a fixed sample: the harness tests the parser, not the
/// registry).
let knownRules: Set<String> = [
    "parse-error", "wildcard-access-group", "duplicate-key", "comment-in-plist", "team-prefix-mismatch",
]
