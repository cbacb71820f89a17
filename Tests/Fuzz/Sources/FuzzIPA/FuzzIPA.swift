import Artifacts
import FuzzSupport
import PropertyList

/// libFuzzer entry point for `.ipa` archives: Entitlint's zip reader (end record, ZIP64, central
/// directory, local headers, overlapping entries, stored and deflated entries with their size and
/// CRC checks), the checks on entry paths, names, counts and sizes, then every bundle inside
/// `Payload/` (Info.plist, embedded profile, the executable streamed through the Mach-O reader,
/// nested bundles). The reader opens a path, so the input is written to a file first
/// (`FuzzInputFile`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    file.store(data, size)
    FuzzCheck.artifact(reader.read(file.path, shown: "App.ipa", limits: .default))
    return 0
}

let file = FuzzInputFile(name: "App.ipa")
/// Smaller bounds than the default, so that a mutated size cannot make one run expand gigabytes
/// (the bounds themselves are what is tested).
let reader = ArtifactReader(zipLimits: ZipLimits(maxEntries: 2_000, maxExpandedTotal: 64 << 20, maxRatio: 200, ratioCheckMinimum: 1 << 20),
                            maxBundles: 50)
