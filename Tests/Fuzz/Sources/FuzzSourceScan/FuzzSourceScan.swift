import FuzzSupport
import SourceCode

/// libFuzzer entry point for the keychain source scanner: the input's first byte chooses the
/// language (even: Swift, odd: Objective-C), the rest is one file. Everything found is resolved
/// over that one file (with a small Info.plist) through one memoising resolution, as a unit's
/// sites are; every site must lie inside the file, the statement walks must pass each token at
/// most once, and a value is known, or unknown with a reason (and a bound only when unknown).
/// Each site is also resolved on its own (no memo across sites): both must agree on whether
/// the value is known and on the value, unless a step budget was met.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSourceScan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let language: SourceLanguage = first & 1 == 0 ? .swift : .objectiveC
    let (scanned, work) = SourceScanner.scanCountingWork(bytes, language: language)
    precondition(work.walkedUnits <= work.tokens, "a token walked twice")
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let resolver = StringResolver(files: [(path: "F", source: scanned)], infoPlist: ["AppIdentifierPrefix": "ABCDE12345.", "K": "v"])
    var resolution = StringResolution(resolver, allowance: 1 << 20)
    func check(_ r: ResolvedString, alone: ResolvedString) {
        precondition((r.value == nil) != (r.unknown == nil), "a result both known and unknown")
        precondition(r.limit == nil || r.value == nil, "a known value with a bound met")
        if r.limit == nil && alone.limit == nil {
            precondition(r.value == alone.value, "the memo changed a value")
        }
        FuzzCheck.sink &+= (r.value?.utf8.count ?? 0) &+ r.steps.count
    }
    for site in scanned.groups {
        precondition(site.line >= 1 && site.line <= lines && site.column >= 1, "a site outside the file")
        check(resolution.resolve(site.value, in: "F", line: site.line), alone: resolver.resolve(site.value, in: "F", line: site.line))
    }
    for save in scanned.saves {
        precondition(save.line >= 1 && save.line <= lines, "a save outside the file")
        FuzzCheck.sink &+= save.line
    }
    for definition in scanned.definitions {
        precondition(!definition.path.isEmpty, "a definition without a name")
        check(resolution.resolve(.reference(definition.path), in: "F", line: definition.line),
              alone: resolver.resolve(.reference(definition.path), in: "F", line: definition.line))
    }
    return 0
}
