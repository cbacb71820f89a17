#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which files a unit's scan has to lex, decided on raw bytes before any lexing.
///
/// A file can give a keychain site or save only if its bytes hold one of `triggers` (every idiom
/// `SiteExtractor` recognises is spelt with one of them: `kSecAttrAccessGroup`, `accessGroup`,
/// `setAccessGroup:`, `keychainSharingGroup`, `SharedGroupIdentifier` hold `Group`; `SecItemAdd`;
/// a KeychainAccess save needs `import KeychainAccess`; a Locksmith 1.x `request.group` needs a
/// `LocksmithRequest`). Any other file matters only through the definitions it holds, and a
/// definition of a name holds that name's bytes: `mentions` finds the files that may define the
/// names the lexed files use. Both are single passes over the bytes.
public enum SourceFilter {
    /// Byte strings one of which every file with a keychain site or save contains.
    public static let triggers = ["Group", "SecItemAdd", "KeychainAccess", "LocksmithRequest"]

    private static let triggerMatcher = ByteMatcher(triggers, wholeWords: false)

    /// True when `bytes` hold a trigger word: the file may pass or save a keychain group.
    public static func mayHaveSites(_ bytes: [UInt8]) -> Bool {
        triggerMatcher.matches(bytes)
    }

    /// The bytes every inline directive starts with (`// entitlint:disable-next-line ...`).
    static let directiveMark: [UInt8] = Array("entitlint:".utf8)

    /// True when `bytes` hold `entitlint:`: the file may hold an inline directive, so the run reads
    /// its directives even when it has no finding (a stale one is reported). One pass: `memchr`
    /// finds each `:`, and only there are the nine bytes before it compared.
    public static func mayHaveDirectives(_ bytes: [UInt8]) -> Bool {
        let word = directiveMark.count - 1
        return bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, b.count > word else { return false }
            var from = word
            while from < b.count, let hit = memchr(base + from, 0x3A, b.count - from) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var j = 0
                while j < word, b[i - word + j] == directiveMark[j] { j += 1 }
                if j == word { return true }
                from = i + 1
            }
            return false
        }
    }

    /// What the preprocessor lines of `bytes` (a C-family file) define and read: the names
    /// `#define`d or `#undef`d (include guards included), and the file names (last path component)
    /// of the headers `#import`ed or `#include`d with quotes. A `#` counts when only spaces and
    /// tabs precede it on its line, so a directive inside a block comment counts too: more names,
    /// never fewer (a name here leaves its `#if`s undecided). One pass: `memchr` finds each `#`.
    public static func preprocessorNames(_ bytes: [UInt8]) -> (defined: Set<String>, included: Set<String>) {
        var defined = Set<String>()
        var included = Set<String>()
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            var from = 0
            while from < b.count, let hit = memchr(base + from, 0x23, b.count - from) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                from = i + 1
                var k = i - 1
                while k >= 0, b[k] == 0x20 || b[k] == 0x09 { k -= 1 }
                guard k < 0 || b[k] == 0x0A || b[k] == 0x0D else { continue }
                var j = i + 1
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
                let word = j
                while j < b.count, j - word < 16, ByteClass.isIdentifierBody(b[j]) { j += 1 }
                let directive = String(decoding: b[word..<j], as: UTF8.self)
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
                let start = j
                if directive == "define" || directive == "undef" {
                    while j < b.count, j - start < 256, ByteClass.isIdentifierBody(b[j]) { j += 1 }
                    if j > start { defined.insert(String(decoding: b[start..<j], as: UTF8.self)) }
                } else if directive == "import" || directive == "include", j < b.count, b[j] == UInt8(ascii: "\"") {
                    j += 1
                    var name = j
                    while j < b.count, j - start < 1024, b[j] != UInt8(ascii: "\""), b[j] != 0x0A {
                        if b[j] == UInt8(ascii: "/") { name = j + 1 }
                        j += 1
                    }
                    if j > name { included.insert(String(decoding: b[name..<j], as: UTF8.self)) }
                }
                from = max(from, j)
            }
        }
        return (defined, included)
    }

    /// True when `bytes` hold one of `names` as a whole word (not inside a longer identifier):
    /// the file may define it.
    public static func mentions(_ bytes: [UInt8], anyOf names: Set<String>) -> Bool {
        NameMatcher(names).matches(bytes)
    }

    /// `mentions` for one set of names and many files: the table is built once.
    public struct NameMatcher: Sendable {
        private let matcher: ByteMatcher

        public init(_ names: Set<String>) {
            matcher = ByteMatcher(Array(names), wholeWords: true)
        }

        /// True when `bytes` hold one of the names as a whole word.
        public func matches(_ bytes: [UInt8]) -> Bool {
            matcher.matches(bytes)
        }
    }
}

/// Finds any of a set of byte strings. Few needles (the trigger words): for each, `memchr` finds
/// each place its first byte occurs (a vectorised scan), and only there is the rest compared.
/// Many needles: one pass, where a table says which bytes start one, and only at those bytes are
/// the candidates (those with that first byte) compared. Work: the bytes (once per needle when
/// few), plus the comparisons at candidate starts (each at most the length of the longest needle).
/// No allocation per search.
struct ByteMatcher {
    private var first = [Bool](repeating: false, count: 256)
    private var needles: [[UInt8]] = []
    /// The needles starting with each byte.
    private var byFirst = [[Int]](repeating: [], count: 256)
    private let wholeWords: Bool
    /// Up to this many needles are searched one by one with `memchr`.
    static let fewNeedles = 8

    init(_ words: [String], wholeWords: Bool) {
        self.wholeWords = wholeWords
        for word in words where !word.isEmpty {
            let bytes = Array(word.utf8)
            first[Int(bytes[0])] = true
            byFirst[Int(bytes[0])].append(needles.count)
            needles.append(bytes)
        }
    }

    /// ASCII letters, digits, `_`, `$` and every byte of a multi-byte UTF-8 sequence: what an
    /// identifier may be made of, so a name found next to one is part of a longer identifier.
    @inline(__always)
    private static func isIdentifierByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b == 0x5f || b == 0x24
    }

    func matches(_ bytes: [UInt8]) -> Bool {
        guard !needles.isEmpty, !bytes.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { b in
            needles.count <= Self.fewNeedles ? searchEach(b) : scanOnce(b)
        }
    }

    private func searchEach(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return false }
        for needle in needles {
            var from = 0
            while from < b.count, let hit = memchr(base + from, Int32(needle[0]), b.count - from) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if found(needle, in: b, at: i) { return true }
                from = i + 1
            }
        }
        return false
    }

    private func scanOnce(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        first.withUnsafeBufferPointer { table in
            var i = 0
            while i < b.count {
                if table[Int(b[i])] {
                    for k in byFirst[Int(b[i])] where found(needles[k], in: b, at: i) { return true }
                }
                i += 1
            }
            return false
        }
    }

    @inline(__always)
    private func found(_ needle: [UInt8], in b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let m = needle.count
        guard i + m <= b.count else { return false }
        var j = 1
        while j < m, b[i + j] == needle[j] { j += 1 }
        guard j == m else { return false }
        if wholeWords {
            if i > 0, Self.isIdentifierByte(b[i - 1]) { return false }
            if i + m < b.count, Self.isIdentifierByte(b[i + m]) { return false }
        }
        return true
    }
}

extension StringExpression {
    /// Every component of every name the expression refers to (`Constants.Keychain.group` gives
    /// `Constants`, `Keychain`, `group`; a call `Keys.make()` gives `Keys`, `make`): the names
    /// whose definitions its value may depend on.
    /// Walked with an explicit stack, each part once (linear in the expression's size, whatever
    /// its nesting).
    public var referencedNames: Set<String> {
        var names = Set<String>()
        var stack = [self]
        while let e = stack.popLast() {
            switch e {
            case .reference(let path): names.formUnion(path.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 })
            case .concatenation(let parts): stack.append(contentsOf: parts)
            case .alternatives(let list): stack.append(contentsOf: list.map(\.value))
            case .literal, .infoPlist, .unknown, .overLimit: break
            }
        }
        return names
    }
}
