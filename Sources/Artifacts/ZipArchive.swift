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
    private(set) var entries: [ZipEntry] = []
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

    // MARK: - End of central directory

    private func locateCentralDirectory() throws(ArtifactError) -> (offset: UInt64, size: UInt64, count: UInt64) {
        let size = file.count
        guard size >= Self.endRecordSize else {
            throw Self.bad("\(size) bytes, fewer than an end-of-central-directory record")
        }
        let tailCount = min(size, Self.endRecordSize + Self.maxCommentSize)
        let tailStart = size - tailCount
        let tail = try read(UInt64(tailStart), tailCount, "end of the archive")
        // The last record signature whose comment fits in the file.
        var at = tailCount - Self.endRecordSize
        var found: Int?
        while at >= 0 {
            if tail.u32(at, bigEndian: false) == 0x0605_4b50, at + Self.endRecordSize + Int(tail.u16le(at + 20)) <= tailCount {
                found = at
                break
            }
            at -= 1
        }
        guard let end = found else { throw Self.bad("no end-of-central-directory record in the last \(tailCount) bytes") }
        let endOffset = UInt64(tailStart + end)
        let disk = tail.u16le(end + 4), directoryDisk = tail.u16le(end + 6)
        var entriesHere = UInt64(tail.u16le(end + 8)), entries = UInt64(tail.u16le(end + 10))
        var directorySize = UInt64(tail.u32(end + 12, bigEndian: false)), directoryOffset = UInt64(tail.u32(end + 16, bigEndian: false))
        var directoryEnd = endOffset
        var multiDisk = disk != 0 || directoryDisk != 0
        if endOffset >= 20 {
            let locator = try read(endOffset - 20, 20, "ZIP64 end-of-central-directory locator")
            if locator.u32(0, bigEndian: false) == 0x0706_4b50 {
                let recordOffset = locator.u64(8, bigEndian: false)
                guard recordOffset <= endOffset - 20, endOffset - 20 - recordOffset >= 56 else {
                    throw Self.bad("the ZIP64 end-of-central-directory record (offset \(recordOffset)) is not before its locator")
                }
                let record = try read(recordOffset, 56, "ZIP64 end-of-central-directory record")
                guard record.u32(0, bigEndian: false) == 0x0606_4b50 else {
                    throw Self.bad("no ZIP64 end-of-central-directory record at offset \(recordOffset), where its locator points")
                }
                multiDisk = record.u32(16, bigEndian: false) != 0 || record.u32(20, bigEndian: false) != 0
                    || locator.u32(16, bigEndian: false) > 1
                entriesHere = record.u64(24, bigEndian: false)
                entries = record.u64(32, bigEndian: false)
                directorySize = record.u64(40, bigEndian: false)
                directoryOffset = record.u64(48, bigEndian: false)
                directoryEnd = recordOffset
            }
        }
        guard !multiDisk, entriesHere == entries else { throw Self.bad("a zip archive split over several disks is not supported") }
        guard entries <= UInt64(limits.maxEntries) else {
            throw ArtifactError(.tooLarge, "more than \(limits.maxEntries) zip entries (limit ZipLimits.maxEntries): the archive declares \(entries)")
        }
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
            throw ArtifactError(.truncated, "the central directory (\(directorySize) bytes at offset \(directoryOffset)) does not end before the end-of-central-directory record at \(directoryEnd): the archive is truncated or damaged")
        }
        guard directorySize <= UInt64(limits.maxCentralDirectorySize) else {
            throw ArtifactError(.tooLarge, "the central directory takes \(directorySize) bytes, more than \(limits.maxCentralDirectorySize) (limit ZipLimits.maxCentralDirectorySize)")
        }
        // Each record takes at least 46 bytes: a count the directory cannot hold is a lie.
        guard entries <= directorySize / 46 else {
            throw Self.bad("the archive declares \(entries) entries, more than its \(directorySize)-byte central directory can hold")
        }
        return (directoryOffset, directorySize, entries)
    }

    // MARK: - Central directory

    /// Parses the records; returns where each entry's name is in `directory`.
    private func readCentralDirectory(_ directory: [UInt8], offset: UInt64, count: UInt64) throws(ArtifactError) -> [Range<Int>] {
        var names: [Range<Int>] = []
        names.reserveCapacity(Int(count))
        var at = 0
        entries.reserveCapacity(Int(count))
        while entries.count < Int(count) {
            guard directory.count - at >= 46 else {
                throw Self.bad("the central directory ends after \(entries.count) of its \(count) entries")
            }
            guard directory.u32(at, bigEndian: false) == 0x0201_4b50 else {
                throw Self.bad("central directory entry \(entries.count + 1) has no record signature (offset \(offset + UInt64(at)))")
            }
            let nameLength = Int(directory.u16le(at + 28)), extraLength = Int(directory.u16le(at + 30))
            let commentLength = Int(directory.u16le(at + 32))
            let recordLength = 46 + nameLength + extraLength + commentLength
            guard directory.count - at >= recordLength else {
                throw Self.bad("central directory entry \(entries.count + 1) runs past the end of the directory")
            }
            let nameStart = at + 46
            var entry = ZipEntry(
                name: String(decoding: directory[nameStart..<(nameStart + nameLength)], as: UTF8.self),
                nameBytes: nameLength,
                method: directory.u16le(at + 10),
                flags: directory.u16le(at + 8),
                crc: directory.u32(at + 16, bigEndian: false),
                compressedSize: UInt64(directory.u32(at + 20, bigEndian: false)),
                uncompressedSize: UInt64(directory.u32(at + 24, bigEndian: false)),
                localHeaderOffset: UInt64(directory.u32(at + 42, bigEndian: false)),
                dataOffset: 0,
                unixType: directory[at + 5] == 3 ? (directory.u32(at + 38, bigEndian: false) >> 16) & 0o170000 : nil)
            let diskStart = directory.u16le(at + 34)
            try applyZip64(&entry, extra: directory[(nameStart + nameLength)..<(nameStart + nameLength + extraLength)], diskStart: diskStart)
            entries.append(entry)
            names.append(nameStart..<(nameStart + nameLength))
            at += recordLength
        }
        return names
    }

    /// The ZIP64 extended information field (id 0x0001) holds, in this order, the uncompressed
    /// size, the compressed size and the local header offset whose 32-bit fields are 0xFFFFFFFF.
    private func applyZip64(_ entry: inout ZipEntry, extra: ArraySlice<UInt8>, diskStart: UInt16) throws(ArtifactError) {
        let full: UInt64 = 0xffff_ffff
        let wanted = (entry.uncompressedSize == full ? 1 : 0) + (entry.compressedSize == full ? 1 : 0) + (entry.localHeaderOffset == full ? 1 : 0)
        let bytes = Array(extra)
        var at = 0
        while wanted > 0, bytes.count - at >= 4 {
            let id = bytes.u16le(at), length = Int(bytes.u16le(at + 2))
            guard bytes.count - at - 4 >= length else { break }
            if id == 0x0001 {
                guard length >= wanted * 8 else { break }
                var field = at + 4
                if entry.uncompressedSize == full { entry.uncompressedSize = bytes.u64(field, bigEndian: false); field += 8 }
                if entry.compressedSize == full { entry.compressedSize = bytes.u64(field, bigEndian: false); field += 8 }
                if entry.localHeaderOffset == full { entry.localHeaderOffset = bytes.u64(field, bigEndian: false) }
                return
            }
            at += 4 + length
        }
        if wanted > 0 {
            throw Self.bad("zip entry \"\(entry.name)\" has 32-bit sizes or offset marked as ZIP64 but no ZIP64 field holding them")
        }
        if diskStart != 0 && diskStart != 0xffff { throw Self.bad("a zip archive split over several disks is not supported") }
    }

    // MARK: - Local headers and overlap

    /// Reads every local header, checks it against its central record, and checks that no two
    /// entries' header-and-data ranges overlap or reach into the central directory.
    private func checkLayout(directoryStart: UInt64, names: (Int) -> ArraySlice<UInt8>) throws(ArtifactError) {
        var ranges: [(start: UInt64, end: UInt64, index: Int)] = []
        ranges.reserveCapacity(entries.count)
        for i in entries.indices {
            let e = entries[i]
            guard e.localHeaderOffset <= directoryStart, directoryStart - e.localHeaderOffset >= 30 else {
                throw Self.bad("zip entry \"\(e.name)\": its local header (offset \(e.localHeaderOffset)) is not before the central directory")
            }
            let header = try read(e.localHeaderOffset, 30, "local header of \"\(e.name)\"")
            guard header.u32(0, bigEndian: false) == 0x0403_4b50 else {
                throw Self.bad("zip entry \"\(e.name)\": no local header at offset \(e.localHeaderOffset)")
            }
            let nameLength = UInt64(header.u16le(26)), extraLength = UInt64(header.u16le(28))
            let dataOffset = e.localHeaderOffset + 30 + nameLength + extraLength
            guard dataOffset <= directoryStart, e.compressedSize <= directoryStart - dataOffset else {
                throw Self.bad("zip entry \"\(e.name)\": its data (\(e.compressedSize) bytes at offset \(dataOffset)) does not end before the central directory at \(directoryStart)")
            }
            guard nameLength == UInt64(e.nameBytes),
                  try read(e.localHeaderOffset + 30, e.nameBytes, "name in the local header of \"\(e.name)\"").elementsEqual(names(i))
            else {
                throw Self.bad("zip entry \"\(e.name)\": its local header names another path")
            }
            if e.flags & 0x8 == 0 {
                let crc = header.u32(14, bigEndian: false)
                let compressed = header.u32(18, bigEndian: false), uncompressed = header.u32(22, bigEndian: false)
                let sizesAgree = (compressed == 0xffff_ffff || UInt64(compressed) == e.compressedSize)
                    && (uncompressed == 0xffff_ffff || UInt64(uncompressed) == e.uncompressedSize)
                guard crc == e.crc, sizesAgree, header.u16le(8) == e.method else {
                    throw Self.bad("zip entry \"\(e.name)\": its local header and its central-directory record disagree on method, sizes or CRC")
                }
            }
            entries[i].dataOffset = dataOffset
            ranges.append((e.localHeaderOffset, dataOffset + e.compressedSize, i))
        }
        ranges.sort { $0.start < $1.start }
        for k in ranges.indices.dropFirst() where ranges[k].start < ranges[k - 1].end {
            let a = entries[ranges[k - 1].index].name, b = entries[ranges[k].index].name
            throw Self.bad("zip entries \"\(a)\" and \"\(b)\" overlap in the file (bytes \(ranges[k].start)..<\(min(ranges[k - 1].end, ranges[k].end))): an overlapping-entries zip bomb or a damaged archive, not read")
        }
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
