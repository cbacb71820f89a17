#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a built product could not be read: a code, a reason, equality on the code (as
/// swift-asn1's errors and `PlistError`).
public struct ArtifactError: Error, Sendable, CustomStringConvertible, Hashable {
    public enum Code: String, Sendable {
        /// Fewer bytes than a header or a table needs.
        case truncated
        /// Not a Mach-O (thin or fat) file.
        case notMachO
        /// An offset or length pointing outside the file or its slice, or overlapping another.
        case outOfBounds
        /// A count (architectures, load commands, blobs) too large for the space it claims.
        case implausibleCount
        /// A load command or code-signature blob that does not have its documented shape.
        case malformed
        /// Past a limit: file size, entry count, expanded size, compression ratio.
        case tooLarge
        /// A zip archive that cannot be read, or an entry with an unsafe path.
        case badArchive
        /// A file that cannot be read.
        case unreadable
        /// Internal to streaming reads: these bytes are not available yet.
        case needBytes
    }

    public var code: Code
    public var reason: String
    /// For `.needBytes`: the range wanted.
    var wanted: Range<Int>?

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    static func need(_ range: Range<Int>) -> ArtifactError {
        var e = ArtifactError(.needBytes, "bytes \(range) are not available")
        e.wanted = range
        return e
    }

    public static func == (a: ArtifactError, b: ArtifactError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { reason }
}

/// Bytes read at offsets: a file read with `pread`, an array, or the bytes a streaming read has
/// collected so far. Every read is checked against `count` before it happens.
protocol ByteSource {
    var count: Int { get }
    func bytes(at offset: Int, count: Int) throws(ArtifactError) -> [UInt8]
}

extension ByteSource {
    /// Checks that `offset..<offset+length` lies inside `0..<count` without overflow.
    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(ArtifactError) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw ArtifactError(.outOfBounds, "\(what()) (offset \(offset), \(length) bytes) lies outside the \(count)-byte file")
        }
    }
}

/// An in-memory byte array.
struct ArrayBytes: ByteSource {
    var storage: [UInt8]
    var count: Int { storage.count }
    func bytes(at offset: Int, count n: Int) throws(ArtifactError) -> [UInt8] {
        try check(offset, n, "a read")
        return Array(storage[offset..<(offset + n)])
    }
}

/// A regular file read with `pread`: only what the parser asks for is read.
final class FileBytes: ByteSource {
    let fd: Int32
    let count: Int
    /// Bytes read so far (for tests that bound the work of a parser).
    private(set) var bytesRead = 0

    init(path: String) throws(ArtifactError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ArtifactError(.unreadable, "cannot open \(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ArtifactError(.unreadable, "\(path) is not a regular file")
        }
        self.fd = fd
        self.count = Int(st.st_size)
    }

    deinit { close(fd) }

    func bytes(at offset: Int, count n: Int) throws(ArtifactError) -> [UInt8] {
        try check(offset, n, "a read")
        var out = [UInt8](repeating: 0, count: n)
        var done = 0
        while done < n {
            let r = out.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, n - done, off_t(offset + done))
            }
            if r < 0 {
                if errno == EINTR { continue }
                throw ArtifactError(.unreadable, "read failed: \(String(cString: strerror(errno)))")
            }
            if r == 0 { throw ArtifactError(.truncated, "the file ended at \(offset + done) bytes while reading") }
            done += r
        }
        bytesRead += n
        return out
    }
}

/// The ranges of a file that a streaming read (a compressed zip entry) has collected. A read of
/// bytes not collected throws `.needBytes` with the range, so the same parser can run again once
/// they have streamed past.
struct SparseBytes: ByteSource {
    let count: Int
    var pieces: [(start: Int, bytes: [UInt8])] = []

    init(count: Int) { self.count = count }

    func bytes(at offset: Int, count n: Int) throws(ArtifactError) -> [UInt8] {
        try check(offset, n, "a read")
        if n == 0 { return [] }
        for p in pieces where p.start <= offset && offset + n <= p.start + p.bytes.count {
            let from = offset - p.start
            return Array(p.bytes[from..<(from + n)])
        }
        throw ArtifactError.need(offset..<(offset + n))
    }
}

/// Big- and little-endian integers from byte arrays.
extension Array where Element == UInt8 {
    func u32(_ at: Int, bigEndian: Bool) -> UInt32 {
        let b0 = UInt32(self[at]), b1 = UInt32(self[at + 1]), b2 = UInt32(self[at + 2]), b3 = UInt32(self[at + 3])
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    func u64(_ at: Int, bigEndian: Bool) -> UInt64 {
        let hi = UInt64(u32(at + (bigEndian ? 0 : 4), bigEndian: bigEndian))
        let lo = UInt64(u32(at + (bigEndian ? 4 : 0), bigEndian: bigEndian))
        return hi << 32 | lo
    }

    /// A fixed 16-byte name (segment or section), up to its first NUL.
    func name16(_ at: Int) -> String {
        let raw = self[at..<(at + 16)]
        let end = raw.firstIndex(of: 0) ?? raw.endIndex
        return String(decoding: raw[raw.startIndex..<end], as: UTF8.self)
    }
}
