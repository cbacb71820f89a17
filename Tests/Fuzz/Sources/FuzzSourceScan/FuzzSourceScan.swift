import FuzzSupport
import SourceCode

/// libFuzzer entry point for the keychain source scanner: the input's first byte chooses the
/// language (even: Swift, odd: Objective-C), the rest is one file. Everything found is resolved
/// over that one file (with a small Info.plist); every site must lie inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSourceScan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let language: SourceLanguage = first & 1 == 0 ? .swift : .objectiveC
    let scanned = SourceScanner.scan(bytes, language: language)
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let resolver = StringResolver(files: [(path: "F", source: scanned)], infoPlist: ["AppIdentifierPrefix": "ABCDE12345.", "K": "v"])
    for site in scanned.groups {
        precondition(site.line >= 1 && site.line <= lines && site.column >= 1, "a site outside the file")
        let r = resolver.resolve(site.value, in: "F", line: site.line)
        precondition((r.value == nil) != (r.unknown == nil), "a result both known and unknown")
        FuzzCheck.sink &+= (r.value?.utf8.count ?? 0) &+ r.steps.count
    }
    for save in scanned.saves {
        precondition(save.line >= 1 && save.line <= lines, "a save outside the file")
        FuzzCheck.sink &+= save.line
    }
    for definition in scanned.definitions {
        precondition(!definition.path.isEmpty, "a definition without a name")
        let r = resolver.resolve(.reference(definition.path), in: "F", line: definition.line)
        FuzzCheck.sink &+= r.value?.utf8.count ?? 0
    }
    return 0
}
