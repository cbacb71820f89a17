import CZlib

/// A zip writer for the tests, after APPNOTE.TXT: local headers and data as entries are added,
/// then the central directory from `records`, which a test may edit first to make an archive
/// lie (sizes, offsets, names, duplicates, overlapping entries). Deflate is the system zlib's.
struct ZipWriter {
    /// One central-directory record.
    struct Record {
        var name: [UInt8]
        var method: UInt16
        var flags: UInt16 = 0
        var crc: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        /// Unix mode in the external attributes (made on Unix), or nil (made on MS-DOS).
        var unixMode: UInt32? = 0o100644
    }

    var out: [UInt8] = []
    var records: [Record] = []
    /// Writes ZIP64 fields: every record's sizes and offset in the ZIP64 extra field, and the
    /// ZIP64 end-of-central-directory record and locator.
    var zip64 = false

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> ($0 * 8) & 0xff) } }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(v >> ($0 * 8) & 0xff) } }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        UInt32(data.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func deflate(_ data: [UInt8], level: Int32 = 6) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        precondition(deflateInit2_(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(data.count))) + 64)
        let status = input.withUnsafeMutableBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                stream.pointee.next_in = i.baseAddress
                stream.pointee.avail_in = uInt(i.count)
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = uInt(o.count)
                return CZlib.deflate(stream, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END)
        return Array(output.prefix(Int(stream.pointee.total_out)))
    }

    /// Adds an entry whose data is `data`, deflated (method 8) or stored (0); `payload` replaces
    /// the bytes written (and the compressed size), for streams made by hand.
    /// `lie` edits the record before its local header is written (both then say the same).
    @discardableResult
    mutating func add(_ name: String, _ data: [UInt8], stored: Bool = false, payload: [UInt8]? = nil,
                      lie: (inout Record) -> Void = { _ in }) -> Int {
        let body = payload ?? (stored ? data : Self.deflate(data))
        var record = Record(name: Array(name.utf8), method: stored ? 0 : 8, crc: Self.crc32(data),
                            compressedSize: UInt64(body.count), uncompressedSize: UInt64(data.count),
                            localHeaderOffset: UInt64(out.count))
        lie(&record)
        out += localHeader(record) + body
        records.append(record)
        return records.count - 1
    }

    func zip64Extra(_ r: Record) -> [UInt8] {
        Self.le16(1) + Self.le16(24) + Self.le64(r.uncompressedSize) + Self.le64(r.compressedSize) + Self.le64(r.localHeaderOffset)
    }

    func size32(_ v: UInt64) -> [UInt8] { Self.le32(zip64 ? 0xffff_ffff : UInt32(truncatingIfNeeded: v)) }

    func localHeader(_ r: Record) -> [UInt8] {
        // The local ZIP64 field holds the two sizes only.
        let extra = zip64 ? Self.le16(1) + Self.le16(16) + Self.le64(r.uncompressedSize) + Self.le64(r.compressedSize) : []
        var h = Self.le32(0x0403_4b50) + Self.le16(zip64 ? 45 : 20) + Self.le16(r.flags) + Self.le16(r.method)
        h += Self.le16(0) + Self.le16(0x21) + Self.le32(r.crc) + size32(r.compressedSize) + size32(r.uncompressedSize)
        return h + Self.le16(UInt16(truncatingIfNeeded: r.name.count)) + Self.le16(UInt16(extra.count)) + r.name + extra
    }

    /// The archive: what was added, then the central directory of `records`.
    func finish() -> [UInt8] {
        var bytes = out
        let directoryOffset = UInt64(bytes.count)
        for r in records {
            let extra = zip64 ? zip64Extra(r) : []
            bytes += Self.le32(0x0201_4b50) + Self.le16(r.unixMode == nil ? 20 : 0x0300 | 20) + Self.le16(zip64 ? 45 : 20)
            bytes += Self.le16(r.flags) + Self.le16(r.method) + Self.le16(0) + Self.le16(0x21) + Self.le32(r.crc)
            bytes += size32(r.compressedSize) + size32(r.uncompressedSize)
            bytes += Self.le16(UInt16(truncatingIfNeeded: r.name.count)) + Self.le16(UInt16(extra.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0)
            bytes += Self.le32((r.unixMode ?? 0) << 16) + size32(r.localHeaderOffset) + r.name + extra
        }
        let directorySize = UInt64(bytes.count) - directoryOffset
        let count = UInt64(records.count)
        if zip64 {
            let recordOffset = UInt64(bytes.count)
            bytes += Self.le32(0x0606_4b50) + Self.le64(44) + Self.le16(45) + Self.le16(45) + Self.le32(0) + Self.le32(0)
            bytes += Self.le64(count) + Self.le64(count) + Self.le64(directorySize) + Self.le64(directoryOffset)
            bytes += Self.le32(0x0706_4b50) + Self.le32(0) + Self.le64(recordOffset) + Self.le32(1)
            bytes += Self.le32(0x0605_4b50) + Self.le16(0xffff) + Self.le16(0xffff) + Self.le16(0xffff) + Self.le16(0xffff)
            bytes += Self.le32(0xffff_ffff) + Self.le32(0xffff_ffff) + Self.le16(0)
        } else {
            bytes += Self.le32(0x0605_4b50) + Self.le16(0) + Self.le16(0) + Self.le16(UInt16(count)) + Self.le16(UInt16(count))
            bytes += Self.le32(UInt32(directorySize)) + Self.le32(UInt32(directoryOffset)) + Self.le16(0)
        }
        return bytes
    }
}
