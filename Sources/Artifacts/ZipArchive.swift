import CZlib

/// One file or folder of a zip archive, as its central-directory record describes it, after the
/// checks of `ZipArchive.init`: its local header is inside the file, names the same path, and its
/// data (`dataOffset..<dataOffset+compressedSize`) lies before the central directory and overlaps
/// no other entry's.
struct ZipEntry {
    var name: String
    /// The name's length in bytes, as stored.
    var nameBytes: Int
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    var compressedSize: UInt64
    var uncompressedSize: UInt64
    var localHeaderOffset: UInt64
    /// Where the entry's data starts (after its local header, name and extra field).
    var dataOffset: UInt64
    /// Unix file type bits of the external attributes, when the archive was made on Unix.
    var unixType: UInt32?

    var isDirectory: Bool { name.hasSuffix("/") || unixType == 0o040000 }
    var isSymlink: Bool { unixType == 0o120000 }
}

/// A zip archive read from a file with `pread`, as APPNOTE.TXT (PKWARE's .ZIP File Format
/// Specification) lays it out: the end-of-central-directory record (looked for only in the last
/// 64 KiB + 22 bytes), its ZIP64 form when the ZIP64 locator is there, the central directory, and
/// each entry's local header. Nothing is trusted before it is checked:
///
/// - every offset and length is checked against the file's size before it is read, and every
///   allocation is bounded first (the central directory by `ZipLimits.maxCentralDirectorySize`,
///   reads of entry data to 64 KiB at a time);
/// - the entry count (declared and real) is bounded by `ZipLimits.maxEntries`;
/// - each local header must name the same path as the central record and, unless the sizes are
///   deferred to a data descriptor, agree on sizes and CRC;
/// - two entries whose local header and data overlap are refused (the overlapping-entries zip
///   bomb, where many records point at one compressed stream);
/// - entries are stored (method 0) or deflated (method 8; system zlib, raw deflate); encrypted
///   entries and other methods are refused when read.
///
/// Reading an entry (`stream`) feeds zlib at most the declared compressed size and accepts at most
/// the declared uncompressed size: a stream that needs more input, produces more output, ends
/// before its compressed size is used up, or does not end there, is an error, as is a CRC-32 that
/// differs from the record's (checked when the entry is read to its end). The work of one read is
/// therefore bounded by the entry's declared sizes, which the caller bounds first.
final class ZipArchive {
    let file: FileBytes
    let limits: ZipLimits
    /// Filled in by `init` (the reads in ZipArchive+Directory.swift) and not changed after it.
    var entries: [ZipEntry] = []
    /// Bytes produced by inflating or copying entry data, over the archive's life (for tests).
    private(set) var inflatedBytes = 0
    /// Bytes of entry data read from the file, over the archive's life (for tests).
    private(set) var compressedBytesRead = 0

    static let endRecordSize = 22
    static let maxCommentSize = 0xffff

    convenience init(path: String, limits: ZipLimits) throws(ArtifactError) {
        try self.init(file: try FileBytes(path: path), limits: limits)
    }

    init(file: FileBytes, limits: ZipLimits) throws(ArtifactError) {
        self.file = file
        self.limits = limits
        let directory = try locateCentralDirectory()
        let bytes = try read(directory.offset, Int(directory.size), "central directory")
        let names = try readCentralDirectory(bytes, offset: directory.offset, count: directory.count)
        try checkLayout(directoryStart: directory.offset, names: { bytes[names[$0]] })
    }

    static func bad(_ reason: String) -> ArtifactError { ArtifactError(.badArchive, reason) }

    /// Reads `count` bytes at `offset`, after checking both against the file (`what` names the
    /// structure in the error).
    func read(_ offset: UInt64, _ count: Int, _ what: String) throws(ArtifactError) -> [UInt8] {
        guard offset <= UInt64(file.count), UInt64(count) <= UInt64(file.count) - offset else {
            throw ArtifactError(.truncated, "the \(what) (\(count) bytes at offset \(offset)) lies outside the \(file.count)-byte file")
        }
        return try file.bytes(at: Int(offset), count: count)
    }

    // MARK: - Reading entry data

    /// Streams the entry's bytes to `body` in pieces of at most `chunk` bytes; `body` returns
    /// false to stop early (the CRC is then not checked). Throws when the data does not match the
    /// central record (see the type's comment); never produces more than `uncompressedSize` bytes
    /// nor reads more than `compressedSize`.
    func stream(_ entry: ZipEntry, chunk: Int = 64 << 10,
                _ body: (UnsafeBufferPointer<UInt8>) throws(ArtifactError) -> Bool) throws(ArtifactError) {
        guard entry.flags & 0x1 == 0 else { throw Self.bad("the entry is encrypted") }
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw Self.bad("the stored entry's sizes differ (\(entry.compressedSize) stored, \(entry.uncompressedSize) declared)")
            }
            var crc = CZlib.crc32(0, nil, 0)
            var done: UInt64 = 0
            while done < entry.compressedSize {
                let n = Int(min(UInt64(chunk), entry.compressedSize - done))
                let piece = try read(entry.dataOffset + done, n, "data")
                done += UInt64(n)
                compressedBytesRead += n
                inflatedBytes += n
                crc = piece.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt(n)) }
                if try !piece.withUnsafeBufferPointer({ (b) throws(ArtifactError) -> Bool in try body(b) }) { return }
            }
            try checkCRC(UInt32(truncatingIfNeeded: crc), entry)
        case 8 where entry.compressedSize == 0 && entry.uncompressedSize == 0:
            // Some writers store an empty file as deflated with no data at all.
            try checkCRC(0, entry)
        case 8:
            try inflate(entry, chunk: chunk, body)
        default:
            throw Self.bad("compression method \(entry.method) is not supported (only stored and deflated entries are read)")
        }
    }

    private func checkCRC(_ crc: UInt32, _ entry: ZipEntry) throws(ArtifactError) {
        guard crc == entry.crc else {
            throw Self.bad("CRC-32 mismatch: the data gives \(hex(crc)), the central directory says \(hex(entry.crc))")
        }
    }

    private func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    private func inflate(_ entry: ZipEntry, chunk: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(ArtifactError) -> Bool) throws(ArtifactError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        // Raw deflate (no zlib header): window bits -15.
        guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArtifactError(.unreadable, "zlib could not start inflating")
        }
        defer { inflateEnd(stream) }
        var output = [UInt8](repeating: 0, count: chunk)
        var input: [UInt8] = []
        var inputUsed = 0         // bytes of `input` zlib has consumed
        var fed: UInt64 = 0       // bytes of the entry's data read from the file
        var produced: UInt64 = 0
        var crc = CZlib.crc32(0, nil, 0)
        while true {
            if inputUsed == input.count, fed < entry.compressedSize {
                let n = Int(min(UInt64(chunk), entry.compressedSize - fed))
                input = try read(entry.dataOffset + fed, n, "data")
                inputUsed = 0
                fed += UInt64(n)
                compressedBytesRead += n
            }
            let available = input.count - inputUsed
            var status: Int32 = Z_OK
            var made = 0
            input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.pointee.next_in = available > 0 ? inBuffer.baseAddress! + inputUsed : nil
                    stream.pointee.avail_in = uInt(available)
                    stream.pointee.next_out = outBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outBuffer.count)
                    status = CZlib.inflate(stream, Z_NO_FLUSH)
                    made = outBuffer.count - Int(stream.pointee.avail_out)
                }
            }
            inputUsed = input.count - Int(stream.pointee.avail_in)
            if made > 0 {
                inflatedBytes += made
                produced += UInt64(made)
                guard produced <= entry.uncompressedSize else {
                    throw ArtifactError(.tooLarge, "expands past the \(entry.uncompressedSize) bytes its header declares (stopped at \(produced))")
                }
                crc = output.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt(made)) }
                let keepGoing = try output.withUnsafeBufferPointer { (b) throws(ArtifactError) -> Bool in
                    try body(UnsafeBufferPointer(rebasing: b[0..<made]))
                }
                if !keepGoing { return }
            }
            switch status {
            case Z_STREAM_END:
                let consumed = fed - UInt64(input.count - inputUsed)
                guard consumed == entry.compressedSize else {
                    throw Self.bad("the deflate stream ends after \(consumed) of the \(entry.compressedSize) compressed bytes its header declares")
                }
                guard produced == entry.uncompressedSize else {
                    throw Self.bad("inflates to \(produced) bytes, not the \(entry.uncompressedSize) its header declares")
                }
                try checkCRC(UInt32(truncatingIfNeeded: crc), entry)
                return
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress was possible. With every declared byte fed (the only way zlib can be
                // short of input here), the stream wants input past the declared compressed size.
                guard inputUsed == input.count, fed == entry.compressedSize else {
                    throw Self.bad("the deflate data is damaged (zlib made no progress)")
                }
                throw Self.bad("the deflate stream does not end within the \(entry.compressedSize) compressed bytes its header declares")
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw Self.bad("the deflate data is damaged (zlib: \(message))")
            }
        }
    }
}

extension Array where Element == UInt8 {
    func u16le(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
}
