#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths as strings: absolute and shown forms, names, sorting, and the escapes that keep a file
/// name's bytes. Nothing here looks at the file system; only `currentDirectory` asks the process
/// for its current folder (the workspace module adds what is at a path and folder walks).
public enum Paths {
    /// `paths.sorted()`, faster when every path is ASCII (nearly always): then Swift's order is
    /// the order of the bytes, and the paths are sorted by `memcmp` over one buffer holding them
    /// all instead of by `<` (which costs a few hundred instructions a comparison).
    public static func sorted(_ paths: [String]) -> [String] {
        guard paths.count > 1 else { return paths }
        var buffer: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(paths.count)
        for p in paths {
            let start = buffer.count
            var ascii = true
            let copied: Void? = p.utf8.withContiguousStorageIfAvailable { (b: UnsafeBufferPointer<UInt8>) -> Void in
                for c in b where c >= 0x80 { ascii = false; break }
                buffer.append(contentsOf: b)
            }
            if copied == nil {
                for c in p.utf8 { if c >= 0x80 { ascii = false }; buffer.append(c) }
            }
            guard ascii else { return paths.sorted() }
            spans.append((start, buffer.count - start))
        }
        var order = Array(paths.indices)
        buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) -> Void in
            let base = b.baseAddress!
            spans.withUnsafeBufferPointer { (spans: UnsafeBufferPointer<(start: Int, count: Int)>) -> Void in
                order.sort { (x: Int, y: Int) -> Bool in
                    let a = spans[x], c = spans[y]
                    let r = memcmp(base + a.start, base + c.start, min(a.count, c.count))
                    return r != 0 ? r < 0 : a.count < c.count
                }
            }
        }
        return order.map { paths[$0] }
    }

    /// The first of the code points that stand for raw bytes in a path (`fileSystemName`):
    /// U+10FF00 + the byte, in the last private-use plane.
    static let rawByteBase: UInt32 = 0x10FF00

    /// A file name's bytes as a String that gives them back exactly (`withFileSystemPath`):
    /// valid UTF-8 as it is; each byte of an invalid sequence (and of a code point in
    /// U+10FF00...U+10FFFF, so that those too come back as they were) as U+10FF00 + the byte.
    /// Foundation and `String(cString:)` replace invalid bytes with U+FFFD instead, and a file
    /// named so could then not be opened.
    public static func fileSystemName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var plain = true
        for b in bytes where b >= 0x80 { plain = false; break }
        if plain { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
            if length > 0, i + length <= bytes.count,
               let decoded = String(validating: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]), as: UTF8.self),
               let scalar = decoded.unicodeScalars.first, decoded.unicodeScalars.count == 1,
               !(rawByteBase...(rawByteBase + 0xFF)).contains(scalar.value) {
                scalars.append(scalar)
                i += length
                continue
            }
            // An invalid byte, or a code point of the escape range: each byte escaped.
            let count = length > 0 && i + length <= bytes.count ? length : 1
            for k in i..<(i + count) { scalars.append(Unicode.Scalar(rawByteBase + UInt32(bytes[k]))!) }
            i += count
        }
        return String(scalars)
    }

    /// Calls `body` with `path` as the bytes the system knows it by: `fileSystemName`'s escapes
    /// turned back into their bytes.
    public static func withFileSystemPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
        // U+10FF00...U+10FFFF are F4 8F BC 80 ... F4 8F BF BF in UTF-8.
        guard path.utf8.contains(0xF4) else { return path.withCString(body) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if scalar.value >= rawByteBase && scalar.value <= rawByteBase + 0xFF {
                bytes.append(UInt8(scalar.value - rawByteBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { body($0) }
        }
    }

    /// A relative path with no `.`/`..` components, no `//` and no trailing `/`.
    static func isCleanRelative(_ path: String) -> Bool {
        withBytes(path) { b in
            guard let first = b.first, first != UInt8(ascii: "/"), first != UInt8(ascii: ".") else { return false }
            return hasOnlyPlainComponents(b)
        }
    }

    /// An absolute path other than `/` with no `.`/`..` components, no `//` and no trailing `/`:
    /// already in the form `absolute` gives (a project lists thousands of such paths).
    static func isCleanAbsolute(_ path: String) -> Bool {
        withBytes(path) { b in b.count > 1 && b.first == UInt8(ascii: "/") && hasOnlyPlainComponents(b) }
    }

    /// No trailing `/`, and no `/` followed by `.` or `/` (so no `.`/`..` component after the first
    /// and no `//`); the first component is the caller's to check.
    private static func hasOnlyPlainComponents(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.last != UInt8(ascii: "/") else { return false }
        var previous: UInt8 = 0
        for c in b {
            if previous == UInt8(ascii: "/") && (c == UInt8(ascii: ".") || c == UInt8(ascii: "/")) { return false }
            previous = c
        }
        return true
    }

    /// `body` over the string's UTF-8 bytes, contiguous: iterating `utf8` generically costs several
    /// times more.
    private static func withBytes(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        if let answer = path.utf8.withContiguousStorageIfAvailable(body) { return answer }
        return Array(path.utf8).withUnsafeBufferPointer(body)
    }

    /// An absolute, `.`/`..`-free version of `path`.
    public static func absolute(_ path: String, cwd: String) -> String {
        if isCleanRelative(path) { return cwd == "/" ? "/" + path : cwd + "/" + path }
        if isCleanAbsolute(path) { return path }
        let joined = path.hasPrefix("/") ? path : cwd + "/" + path
        var parts: [Substring] = []
        for p in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if p == "." { continue }
            if p == ".." { _ = parts.popLast(); continue }
            parts.append(p)
        }
        // Not `joined(separator:)`: its generic code costs a protocol-conformance scan of the
        // whole binary the first time, a tenth of a pre-commit run.
        var out = ""
        out.reserveCapacity(joined.utf8.count + 1)
        for p in parts {
            out.append("/")
            out.append(contentsOf: p)
        }
        return out.isEmpty ? "/" : out
    }

    /// `path` relative to `base` when below it, else `path` unchanged.
    public static func display(_ path: String, cwd: String) -> String {
        if isCleanRelative(path) { return path }
        let abs = absolute(path, cwd: cwd)
        let base = cwd.hasSuffix("/") ? cwd : cwd + "/"
        if abs.hasPrefix(base) { return String(abs.dropFirst(base.count)) }
        return path
    }

    public static func baseName(_ path: String) -> String {
        // Over the contiguous bytes: the generic UTF8View walk costs several times more.
        let fast = path.utf8.withContiguousStorageIfAvailable { b -> String in
            var end = b.count
            while end > 1 && b[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var start = end
            while start > 0 && b[start - 1] != UInt8(ascii: "/") { start -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
        if let fast { return fast }
        var p = Substring(path)
        while p.utf8.last == UInt8(ascii: "/") && p.utf8.count > 1 { p = p.dropLast() }
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return String(p) }
        return String(p[p.utf8.index(after: slash)...])
    }

    public static func directoryName(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "." }
        return i == path.startIndex ? "/" : String(path[..<i])
    }

    /// The file name without its last extension.
    public static func stem(_ path: String) -> String {
        let b = baseName(path)
        guard let dot = b.utf8.lastIndex(of: UInt8(ascii: ".")), dot != b.utf8.startIndex else { return b }
        return String(b[..<dot])
    }
}
