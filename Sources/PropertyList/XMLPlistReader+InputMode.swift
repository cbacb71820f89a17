internal import CLibXML2

extension XMLPlistReader {
    /// How libxml2 gets the bytes.
    enum InputMode {
        /// `xmlParserInputBufferCreateStatic` over a NUL-terminated copy: no reading callback,
        /// so the parser's "grow" checks (one near every token once the end is within 250 bytes,
        /// which for a small file is most of it) return at once. libxml2 cannot decode from such
        /// a buffer: a document it must decode (declared non-UTF-8 encoding) is read `.copied`.
        case inPlace
        /// `xmlCreateMemoryParserCtxt`: libxml2 copies the bytes into a growable buffer.
        case copied

        /// Files with a byte-order mark are decoded (UTF-16/32) or skip it; files past
        /// libxml2's 10,000,000-byte look-up limit would be refused without a reading callback
        /// ("Huge input lookup"); a declaration naming another encoding needs a decoder.
        /// Only with libxml2 2.9, whose source this was checked against (`makeContext`).
        static func inPlaceFits(_ bytes: [UInt8]) -> Bool {
            libxml2Is29 && bytes.count <= 10_000_000 && !startsWithByteOrderMark(bytes) && !declaresOtherEncoding(bytes)
        }

        static let libxml2Is29: Bool = {
            let version = entitlint_libxmlVersion()
            return version >= 20900 && version < 21000
        }()
    }

    /// Whether the XML declaration names an encoding other than UTF-8 (libxml2 would switch to a
    /// decoder). A shortcut only: a miss is caught after parsing (`neededDecoder`).
    static func declaresOtherEncoding(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b -> Bool in
            guard b.count > 5, b[0] == UInt8(ascii: "<"), b[1] == UInt8(ascii: "?"), b[2] == UInt8(ascii: "x"),
                  b[3] == UInt8(ascii: "m"), b[4] == UInt8(ascii: "l") else { return false }
            let end = min(b.count, 512)
            var i = 5
            while i + 8 < end {
                if b[i] == UInt8(ascii: "?") && b[i + 1] == UInt8(ascii: ">") { return false }
                if b[i] == UInt8(ascii: "e") && b[i + 1] == UInt8(ascii: "n") && b[i + 2] == UInt8(ascii: "c") && b[i + 3] == UInt8(ascii: "o")
                    && b[i + 4] == UInt8(ascii: "d") && b[i + 5] == UInt8(ascii: "i") && b[i + 6] == UInt8(ascii: "n") && b[i + 7] == UInt8(ascii: "g") {
                    var j = i + 8
                    while j < end, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D || b[j] == UInt8(ascii: "=") { j += 1 }
                    guard j < end, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else { return true }
                    // UTF-8 or UTF8, in any case, then the closing quote.
                    let quote = b[j]
                    j += 1
                    guard j + 4 < end, b[j] | 0x20 == UInt8(ascii: "u"), b[j + 1] | 0x20 == UInt8(ascii: "t"),
                          b[j + 2] | 0x20 == UInt8(ascii: "f") else { return true }
                    j += 3
                    if b[j] == UInt8(ascii: "-") { j += 1 }
                    return !(j + 1 < end && b[j] == UInt8(ascii: "8") && b[j + 1] == quote)
                }
                i += 1
            }
            return false
        }
    }

}

/// UTF-8, UTF-16 (either order) or UTF-32 (either order) byte-order mark at the start.
func startsWithByteOrderMark(_ b: [UInt8]) -> Bool {
    if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return true }
    if b.count >= 4, (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) { return true }
    if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) { return true }
    return false
}
