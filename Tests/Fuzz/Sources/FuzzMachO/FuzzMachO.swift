import Artifacts
import FuzzSupport
import PropertyList

/// libFuzzer entry point for Mach-O files: thin and fat headers, load commands, the code
/// signature's SuperBlob, the XML entitlements (slot 5, read as a plist), the DER entitlements
/// (slot 7, decoded with swift-asn1) and a simulator build's `__TEXT,__entitlements`, then the
/// comparison of slices. The input goes through `ArtifactReader` as a standalone binary named on
/// the command line, which reads a file (with `pread`): it is written to a file under /tmp first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let head = fuzzInput(data, min(size, 8))
    FuzzCheck.sink &+= MachOReader.looksLikeMachO(head) ? 1 : 0
    file.store(data, size)
    FuzzCheck.artifact(reader.read(file.path, shown: "binary", limits: .default))
    return 0
}

let file = FuzzInputFile(name: "binary")
let reader = ArtifactReader()
