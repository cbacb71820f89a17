/// Binary property lists (`bplist00`), as written by CoreFoundation and `plutil -convert binary1`.
///
/// Layout (format facts from CoreFoundation's CFBinaryPList.c):
///
///     "bplist00" | objects ... | offset table | 32-byte trailer
///
/// The trailer holds 5 unused bytes, `sortVersion`, `offsetIntSize`, `objectRefSize`, then
/// `numObjects`, `topObject` and `offsetTableOffset` as big-endian UInt64. The offset table has
/// `numObjects` big-endian unsigned integers of `offsetIntSize` bytes: the file offset of each
/// object. Containers refer to other objects by index (`objectRefSize` bytes, big-endian).
///
/// The reader trusts nothing in the file: every offset, count and length is checked against the
/// object area (the bytes between the header and the offset table) with overflow-checked
/// arithmetic before it is used, reference cycles are rejected, and nesting depth and the total
/// number of decoded values are bounded by `PlistLimits`. Containers are decoded with an explicit
/// stack, so even a very deep file (with a large `maxDepth`) cannot exhaust the thread's stack.
public enum BinaryPlistReader {
    static let magic: [UInt8] = Array("bplist00".utf8)
    static let headerSize = 8
    static let trailerSize = 32

    public static func isBinaryPlist(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && Array(bytes[0..<8]) == magic
    }

    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        guard isBinaryPlist(bytes) else {
            throw PlistError(.invalidBinary, "binary property list does not start with \"bplist00\"")
        }
        var decoder = try BinaryPlistDecoder(bytes, limits: limits)
        let root = try decoder.decodeRoot()
        return PlistDocument(root: root, format: .binary, comments: [])
    }
}

/// The trailer fields, validated against the file.
struct BinaryPlistTrailer {
    var offsetIntSize: Int
    var objectRefSize: Int
    var numObjects: Int
    var topObject: Int
    /// Where the offset table starts; also the end (exclusive) of the object area.
    var offsetTableOffset: Int

    init(_ bytes: [UInt8]) throws(PlistError) {
        let headerSize = BinaryPlistReader.headerSize
        let trailerSize = BinaryPlistReader.trailerSize
        guard bytes.count >= headerSize + trailerSize else {
            throw PlistError(.invalidBinary,
                "binary property list is \(bytes.count) bytes, too short for the 8-byte header and 32-byte trailer")
        }
        let t = bytes.count - trailerSize
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in at..<(at + 8) { v = v << 8 | UInt64(bytes[i]) }
            return v
        }
        offsetIntSize = Int(bytes[t + 6])
        objectRefSize = Int(bytes[t + 7])
        let rawNumObjects = u64(t + 8)
        let rawTopObject = u64(t + 16)
        let rawTableOffset = u64(t + 24)

        guard (1...8).contains(offsetIntSize) else {
            throw PlistError(.invalidBinary, "trailer: offset size \(offsetIntSize) is not between 1 and 8 bytes")
        }
        guard (1...8).contains(objectRefSize) else {
            throw PlistError(.invalidBinary, "trailer: object reference size \(objectRefSize) is not between 1 and 8 bytes")
        }
        guard rawNumObjects >= 1 else {
            throw PlistError(.invalidBinary, "trailer: the file declares no objects")
        }
        guard rawTopObject < rawNumObjects else {
            throw PlistError(.invalidBinary,
                "trailer: top object \(rawTopObject) is not one of the \(rawNumObjects) objects")
        }
        // An object reference of objectRefSize bytes must be able to name every object.
        if objectRefSize < 8, (rawNumObjects - 1) >> UInt64(objectRefSize * 8) != 0 {
            throw PlistError(.invalidBinary,
                "trailer: \(rawNumObjects) objects cannot be named with \(objectRefSize)-byte object references")
        }
        guard let tableOffset = Int(exactly: rawTableOffset), tableOffset >= headerSize + 1, tableOffset <= t else {
            throw PlistError(.invalidBinary,
                "trailer: offset table offset \(rawTableOffset) is outside the file (objects span bytes 8..<\(t))")
        }
        let tableRoom = t - tableOffset
        guard let n = Int(exactly: rawNumObjects) else {
            throw PlistError(.invalidBinary, "trailer: object count \(rawNumObjects) is too large")
        }
        let (tableSize, overflow) = n.multipliedReportingOverflow(by: offsetIntSize)
        guard !overflow, tableSize <= tableRoom else {
            throw PlistError(.invalidBinary,
                "trailer: offset table of \(rawNumObjects) \(offsetIntSize)-byte entries at offset \(tableOffset) runs past the trailer at offset \(t)")
        }
        // CoreFoundation rejects bytes between the offset table and the trailer (checked against
        // Foundation by the differential test).
        guard tableSize == tableRoom else {
            throw PlistError(.invalidBinary,
                "trailer: offset table at offset \(tableOffset) ends at \(tableOffset + tableSize), not where the trailer starts (offset \(t))")
        }
        numObjects = n
        topObject = Int(rawTopObject)   // < numObjects, which fits Int
        offsetTableOffset = tableOffset
    }
}
