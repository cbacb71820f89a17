import FuzzSupport
import PropertyList

/// libFuzzer entry point for the `bplist00` reader. Seeds are binary plists, so most mutations
/// keep the magic; the reader itself rejects inputs without it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let document = try BinaryPlistReader.parse(fuzzInput(data, size))
        FuzzCheck.walk(document.root)
    } catch {
        FuzzCheck.error(error.reason)
    }
    return 0
}
