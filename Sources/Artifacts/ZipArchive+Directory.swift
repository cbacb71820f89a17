// The structure of a zip archive, read once when it is opened: the end-of-central-directory record
// (and its ZIP64 form), the central directory's records, and every local header and overlap check.

extension ZipArchive {
    // MARK: - End of central directory

    func locateCentralDirectory() throws(ArtifactError) -> (offset: UInt64, size: UInt64, count: UInt64) {
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
    func readCentralDirectory(_ directory: [UInt8], offset: UInt64, count: UInt64) throws(ArtifactError) -> [Range<Int>] {
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
    func checkLayout(directoryStart: UInt64, names: (Int) -> ArraySlice<UInt8>) throws(ArtifactError) {
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

}
