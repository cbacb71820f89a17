/// Which files a run reads, by name: entitlements and profiles as property lists, sources as code.
public enum InputFiles {
    public static let entitlementsExtensions: Set<String> = ["entitlements", "xcent"]
    public static let profileExtensions: Set<String> = ["mobileprovision", "provisionprofile"]

    /// Whether `path` ends in `.ext` for one of `exts` (ASCII, case-insensitive), without
    /// allocating.
    public static func hasExtension(_ path: String, in exts: [[UInt8]]) -> Bool {
        func check(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            for e in exts where b.count > e.count {
                let start = b.count - e.count
                guard b[start - 1] == UInt8(ascii: ".") else { continue }
                var ok = true
                for (k, c) in e.enumerated() {
                    var x = b[start + k]
                    if x >= 65 && x <= 90 { x += 32 }
                    if x != c { ok = false; break }
                }
                if ok { return true }
            }
            return false
        }
        // Over the contiguous bytes: indexing `utf8` generically costs several times more.
        if let answer = path.utf8.withContiguousStorageIfAvailable(check) { return answer }
        return Array(path.utf8).withUnsafeBufferPointer(check)
    }

    /// Whether the last component of `path` (trailing slashes ignored) is exactly one of `names`
    /// (bytes, compared as written), without building the base name.
    public static func hasBaseName(_ path: String, in names: [[UInt8]]) -> Bool {
        func check(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            var end = b.count
            while end > 1 && b[end - 1] == UInt8(ascii: "/") { end -= 1 }
            for n in names where end >= n.count {
                let start = end - n.count
                guard start == 0 || b[start - 1] == UInt8(ascii: "/") else { continue }
                var ok = true
                for k in 0..<n.count where b[start + k] != n[k] { ok = false; break }
                if ok { return true }
            }
            return false
        }
        if let answer = path.utf8.withContiguousStorageIfAvailable(check) { return answer }
        return Array(path.utf8).withUnsafeBufferPointer(check)
    }

    package static let walkedExtensions: [[UInt8]] = (entitlementsExtensions.sorted() + profileExtensions.sorted()).map { Array($0.utf8) }

    package static func ext(_ path: String) -> String {
        let b = Paths.baseName(path)
        guard let dot = b.lastIndex(of: ".") else { return "" }
        return String(b[b.index(after: dot)...]).lowercased()
    }

    public static func isProfilePath(_ path: String) -> Bool { hasExtension(path, in: profileExtensionBytes) }
    /// `profileExtensions` as bytes, from literals: building the Set first would cost a pre-commit
    /// run the Swift runtime's scan for `String: Hashable` (ProfilePathTests checks they agree).
    static let profileExtensionBytes: [[UInt8]] = [Array("mobileprovision".utf8), Array("provisionprofile".utf8)]

    /// `.swift`, `.m`, `.mm` and `.h`: what the code rules scan. Named on the command line (a hook
    /// passes the changed ones), they bring the targets that compile them into the run, and are
    /// read only as code, never as property lists.
    public static func isSourceFile(_ path: String) -> Bool {
        switch ext(path) {
        case "swift", "m", "mm", "h": return true
        default: return false
        }
    }
}
