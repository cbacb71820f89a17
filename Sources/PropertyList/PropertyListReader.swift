/// Entry point: reads XML or binary property lists from bytes.
public enum PropertyListReader {
    /// Parses `bytes` as a binary plist when they start with `bplist00`, else as XML.
    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        if BinaryPlistReader.isBinaryPlist(bytes) {
            return try BinaryPlistReader.parse(bytes, limits: limits)
        }
        return try XMLPlistReader.parse(bytes, limits: limits)
    }
}
