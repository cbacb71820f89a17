import FuzzSupport
import PropertyList

/// libFuzzer entry point: every input goes to the XML plist reader (libxml2 SAX). It must return
/// a document or throw a `PlistError`; a trap, an ASan report, a leak or a timeout is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let document = try XMLPlistReader.parse(fuzzInput(data, size))
        FuzzCheck.walk(document.root)
        for comment in document.comments { FuzzCheck.sink &+= comment.text.utf8.count }
    } catch {
        FuzzCheck.error(error.reason)
    }
    return 0
}
