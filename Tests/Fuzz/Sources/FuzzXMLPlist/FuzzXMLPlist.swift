import FuzzSupport
@_spi(Testing) import PropertyList

/// libFuzzer entry point: every input goes to the XML plist reader (libxml2 SAX). It must return
/// a document or throw a `PlistError`; a trap, an ASan report, a leak or a timeout is a finding.
/// The input is also read both ways libxml2 can be handed it (in place and copied, see
/// `XMLPlistReader.InputMode`): a difference between them is a finding too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    do {
        let document = try XMLPlistReader.parse(bytes)
        FuzzCheck.walk(document.root)
        for comment in document.comments { FuzzCheck.sink &+= comment.text.utf8.count }
    } catch {
        FuzzCheck.error(error.reason)
    }
    if let disagreement = XMLPlistReader.inputModeDisagreement(bytes) {
        fatalError("the two input modes disagree:\n\(disagreement)")
    }
    return 0
}
