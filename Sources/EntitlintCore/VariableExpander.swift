#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands the build variables Xcode substitutes in entitlements (keychain-access-groups.md section 2):
/// `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` (with their trailing dot),
/// `$(PRODUCT_BUNDLE_IDENTIFIER)`, `$(CFBundleIdentifier)`, `$(DEVELOPMENT_TEAM)`, in both the
/// `$(X)` and `${X}` forms, plus any user-supplied variables.
///
/// A variable whose value is not known is never guessed: it stays in the text as written.
/// The standard ones are then *symbolic* (Xcode will fill them in, correct by construction);
/// any other is *unresolved* (a defect: nothing will fill it in, or we cannot check it).
/// Template placeholders left by generators (`{{VAR}}`, `###VAR###`) are always unresolved.
public struct VariableExpander: Sendable {
    public static let standardNames: Set<String> = [
        "AppIdentifierPrefix", "TeamIdentifierPrefix", "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier", "DEVELOPMENT_TEAM",
    ]

    public var values: [String: String] {
        didSet { table = Self.table(values) }
    }
    /// `values` as (name bytes, value) pairs: a handful, searched linearly without hashing.
    private var table: [([UInt8], String)]
    /// The standard names as byte arrays, with their (immortal) literal strings.
    static let standardTable: [([UInt8], String)] = [
        "AppIdentifierPrefix", "TeamIdentifierPrefix", "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier", "DEVELOPMENT_TEAM",
    ].map { (Array($0.utf8), $0) }

    static func table(_ values: [String: String]) -> [([UInt8], String)] {
        values.sorted { $0.key < $1.key }.map { (Array($0.key.utf8), $0.value) }
    }

    public init(appIDPrefix: String?, teamID: String?, bundleID: String?, extra: [String: String] = [:]) {
        var v = extra
        if let appIDPrefix { v["AppIdentifierPrefix"] = appIDPrefix + "." }
        if let teamID {
            v["TeamIdentifierPrefix"] = teamID + "."
            v["DEVELOPMENT_TEAM"] = teamID
        }
        if let bundleID {
            v["PRODUCT_BUNDLE_IDENTIFIER"] = bundleID
            v["CFBundleIdentifier"] = bundleID
        }
        values = v
        table = Self.table(v)
    }

    public struct Reference: Sendable, Hashable {
        public enum Form: UInt8, Sendable, Hashable { case parens, braces, doubleBraces, hashes }
        public var name: String
        public var form: Form
        /// UTF-8 byte offset in the original string.
        public var offset: Int
        /// UTF-8 length of the reference as written.
        public var length: Int

        public init(text: String, name: String, isTemplate: Bool, offset: Int) {
            self.name = name
            self.offset = offset
            self.length = text.utf8.count
            if text.hasPrefix("$(") { form = .parens } else if text.hasPrefix("${") { form = .braces }
            else if text.hasPrefix("{{") { form = .doubleBraces } else { form = .hashes }
        }

        init(name: String, form: Form, offset: Int, length: Int) {
            self.name = name
            self.form = form
            self.offset = offset
            self.length = length
        }

        /// The reference in its written form: `$(X)`, `${X}`, `{{X}}`, `###X###`.
        public var text: String { written }
        public var written: String {
            switch form {
            case .parens: return "$(" + name + ")"
            case .braces: return "${" + name + "}"
            case .doubleBraces: return "{{" + name + "}}"
            case .hashes: return "###" + name + "###"
            }
        }
        public var isTemplate: Bool { form == .doubleBraces || form == .hashes }
    }

    public struct Result: Sendable, Hashable {
        public var text: String
        /// Standard variables left as written because their value is unknown.
        public var symbolic: [Reference]
        /// Unknown variables and template placeholders.
        public var unresolved: [Reference]
        public var isConcrete: Bool { symbolic.isEmpty && unresolved.isEmpty }
    }

    /// Every variable reference in `s`, in order. Scans UTF-8 bytes: every delimiter is ASCII.
    public static func references(in s: String) -> [Reference] {
        let b = Array(s.utf8)
        var refs: [Reference] = []
        let dollar = UInt8(ascii: "$"), lbrace = UInt8(ascii: "{"), rbrace = UInt8(ascii: "}")
        let lparen = UInt8(ascii: "("), rparen = UInt8(ascii: ")"), hash = UInt8(ascii: "#")
        func text(_ from: Int, _ to: Int) -> String { String(decoding: b[from..<to], as: UTF8.self) }
        // The first position from which each closing sequence was looked for and not found:
        // it is not found from any later position either, so each is searched for once past
        // there, and an unclosed `$(` repeated costs linear time, not quadratic.
        var notFoundFrom: [[UInt8]: Int] = [:]
        // Compares in place (no array made per position tried).
        func find(_ seq: [UInt8], from: Int) -> Int? {
            guard seq.count <= b.count else { return nil }
            if let none = notFoundFrom[seq], none <= from { return nil }
            var k = from
            search: while k + seq.count <= b.count {
                for m in 0..<seq.count where b[k + m] != seq[m] {
                    k += 1
                    continue search
                }
                return k
            }
            notFoundFrom[seq] = min(from, notFoundFrom[seq] ?? from)
            return nil
        }
        let closeParen = [rparen], closeBrace = [rbrace], closeTemplate = [rbrace, rbrace], hashes = [hash, hash, hash]
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == dollar, i + 1 < b.count, b[i + 1] == lparen || b[i + 1] == lbrace {
                let close = b[i + 1] == lparen ? rparen : rbrace
                if let j = find(close == rparen ? closeParen : closeBrace, from: i + 2) {
                    refs.append(Reference(text: text(i, j + 1), name: text(i + 2, j), isTemplate: false, offset: i))
                    i = j + 1
                    continue
                }
            } else if c == lbrace, i + 1 < b.count, b[i + 1] == lbrace {
                if let j = find(closeTemplate, from: i + 2) {
                    refs.append(Reference(text: text(i, j + 2), name: text(i + 2, j).trimmingSpaces(), isTemplate: true, offset: i))
                    i = j + 2
                    continue
                }
            } else if c == hash, i + 2 < b.count, b[i + 1] == hash, b[i + 2] == hash {
                if let j = find(hashes, from: i + 3), j > i + 3 {
                    refs.append(Reference(text: text(i, j + 3), name: text(i + 3, j), isTemplate: true, offset: i))
                    i = j + 3
                    continue
                }
            }
            i += 1
        }
        return refs
    }

    /// Whether `s` may hold a reference at all (a cheap byte scan).
    public static func mayContainReference(_ s: String) -> Bool {
        func scan(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            b.contains { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "#") }
        }
        if let found = s.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return s.utf8.contains { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "#") }
    }

    /// `X` of `X:modifier,...`.
    public static func baseName(_ name: String) -> String {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[..<colon])
    }

    /// Xcode's `:rfc1034identifier`: every character other than an ASCII letter, digit, `-` or
    /// `.` becomes `-`. One definition for build settings and entitlements, so that the same
    /// setting gives the same value in both.
    public static func rfc1034Identifier(_ s: String) -> String {
        String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
    }

    /// Xcode's `:identifier` / `:c99extidentifier`: every character other than an ASCII letter,
    /// digit or `_` becomes `_`, and a leading digit gets a `_` in front.
    public static func c99Identifier(_ s: String) -> String {
        var out = String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        if let f = out.first, f.isNumber { out = "_" + out }
        return out
    }

    /// The value of a reference's name, applying Xcode's operators `:default=V`, `:lower`,
    /// `:upper`, `:rfc1034identifier` and `:identifier`; nil when unknown.
    func value(of name: String) -> String? {
        if !name.containsASCII(":") { return values[name] }
        let parts = name.split(separator: ":", maxSplits: 1)
        let base = String(parts.first ?? "")
        var v = values[base]
        guard parts.count == 2 else { return v }
        for op in parts[1].split(separator: ",") {
            if op.hasPrefix("default=") {
                if v == nil || v == "" { v = String(op.dropFirst("default=".count)) }
                continue
            }
            guard let current = v else { return nil }
            switch op {
            case "lower": v = current.lowercased()
            case "upper": v = current.uppercased()
            case "rfc1034identifier":
                v = Self.rfc1034Identifier(current)
            case "identifier", "c99extidentifier":
                v = Self.c99Identifier(current)
            default: return nil
            }
        }
        return v
    }

    /// Expands `s`. The common case (only `$(X)` / `${X}` references without operators) is a
    /// single pass over the bytes with no hashing; anything else takes the general path.
    /// The App ID a unit has when its file names none: `$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)`.
    public static let derivedAppID = "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"
    /// Its expansion when neither variable has a value (no team, prefix or bundle ID known: a run
    /// without flags or configuration), made once instead of once per unit.
    private static let derivedAppIDUnknown = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil).expandUncached(derivedAppID)

    public func expand(_ s: String) -> Result {
        if table.isEmpty && s == Self.derivedAppID { return Self.derivedAppIDUnknown }
        return expandUncached(s)
    }

    func expandUncached(_ s: String) -> Result {
        guard Self.mayContainReference(s) else { return Result(text: s, symbolic: [], unresolved: []) }
        var copy = s
        if let fast = copy.withUTF8({ expandFast($0) }) { return fast }
        return expandGeneral(s)
    }

    /// Whether `expand(s).unresolved` is not empty, without building the expanded text: most
    /// strings with references name only variables of the table or standard ones.
    public func hasUnresolved(_ s: String) -> Bool {
        guard Self.mayContainReference(s) else { return false }
        var copy = s
        if let answer = copy.withUTF8({ hasUnresolvedFast($0) }) { return answer }
        return !expandGeneral(s).unresolved.isEmpty
    }

    /// The simple references of `b`, `$(NAME)` and `${NAME}`, in order: `visit` gets the index of
    /// the `$`, of the closing bracket, and which bracket closes it, and returns false to stop.
    /// Nil when `b` holds a form only `expandGeneral` reads (`{{X}}`, `###X###`, `$(X:modifier)`).
    private static func simpleReferences(_ b: UnsafeBufferPointer<UInt8>,
                                         _ visit: (_ start: Int, _ end: Int, _ close: UInt8) -> Bool) -> Bool? {
        let dollar = UInt8(ascii: "$"), lparen = UInt8(ascii: "("), lbrace = UInt8(ascii: "{")
        let rparen = UInt8(ascii: ")"), rbrace = UInt8(ascii: "}"), hash = UInt8(ascii: "#"), colon = UInt8(ascii: ":")
        var i = 0
        let n = b.count
        var unclosedParen = false, unclosedBrace = false
        while i < n {
            let c = b[i]
            if c == lbrace && i + 1 < n && b[i + 1] == lbrace { return nil }
            if c == hash && i + 2 < n && b[i + 1] == hash && b[i + 2] == hash { return nil }
            guard c == dollar, i + 1 < n, b[i + 1] == lparen || b[i + 1] == lbrace else { i += 1; continue }
            let close = b[i + 1] == lparen ? rparen : rbrace
            // Past an unclosed `$(` (or `${`) no later one is closed either: skipped at once,
            // so that `$($($(...` costs linear time.
            if close == rparen ? unclosedParen : unclosedBrace { i += 1; continue }
            var j = i + 2
            while j < n && b[j] != close {
                if b[j] == colon { return nil }
                j += 1
            }
            guard j < n else {
                if close == rparen { unclosedParen = true } else { unclosedBrace = true }
                i += 1
                continue
            }
            if !visit(i, j, close) { return true }
            i = j + 1
        }
        return true
    }

    /// Whether `name` (bytes `from..<to` of `b`) is the name of `table`'s entry, by bytes.
    /// The entries are read in place: `first(where:)` would copy (retain and release) each.
    private static func lookup(_ table: [([UInt8], String)], _ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> ([UInt8], String)? {
        let length = to - from
        let hit = table.withUnsafeBufferPointer { t -> Int? in
            for index in t.indices {
                let same = t[index].0.withUnsafeBufferPointer { e -> Bool in
                    guard e.count == length else { return false }
                    var k = 0
                    while k < length { if e[k] != b[from + k] { return false }; k += 1 }
                    return true
                }
                if same { return index }
            }
            return nil
        }
        return hit.map { table[$0] }
    }

    /// `hasUnresolved` for the simple forms `expandFast` handles; nil for the others.
    private func hasUnresolvedFast(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        var found = false
        guard Self.simpleReferences(b, { i, j, _ in
            found = Self.lookup(table, b, i + 2, j) == nil && Self.lookup(Self.standardTable, b, i + 2, j) == nil
            return !found
        }) != nil else { return nil }
        return found
    }

    private func expandFast(_ b: UnsafeBufferPointer<UInt8>) -> Result? {
        var out: [UInt8] = []
        var symbolic: [Reference] = []
        var unresolved: [Reference] = []
        var last = 0
        guard Self.simpleReferences(b, { i, j, close in
            if out.isEmpty { out.reserveCapacity(b.count + 32) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last..<i]))
            last = j + 1
            if let hit = Self.lookup(table, b, i + 2, j) {
                out.append(contentsOf: hit.1.utf8)
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...j]))
                let form: Reference.Form = close == UInt8(ascii: ")") ? .parens : .braces
                if let std = Self.lookup(Self.standardTable, b, i + 2, j) {
                    symbolic.append(Reference(name: std.1, form: form, offset: i, length: j + 1 - i))
                } else {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 2)..<j]), as: UTF8.self)
                    unresolved.append(Reference(name: name, form: form, offset: i, length: j + 1 - i))
                }
            }
            return true
        }) != nil else { return nil }
        if last == 0 { return Result(text: String(decoding: b, as: UTF8.self), symbolic: [], unresolved: []) }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last...]))
        return Result(text: String(decoding: out, as: UTF8.self), symbolic: symbolic, unresolved: unresolved)
    }

    func expandGeneral(_ s: String) -> Result {
        let refs = Self.references(in: s)
        if refs.isEmpty { return Result(text: s, symbolic: [], unresolved: []) }
        let b = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 32)
        var symbolic: [Reference] = []
        var unresolved: [Reference] = []
        var last = 0
        for r in refs {
            out.append(contentsOf: b[last..<r.offset])
            last = r.offset + r.length
            if !r.isTemplate, let v = value(of: r.name) {
                out.append(contentsOf: v.utf8)
            } else {
                out.append(contentsOf: r.written.utf8)
                if !r.isTemplate && Self.standardNames.contains(Self.baseName(r.name)) {
                    symbolic.append(r)
                } else {
                    unresolved.append(r)
                }
            }
        }
        out.append(contentsOf: b[last...])
        return Result(text: String(decoding: out, as: UTF8.self), symbolic: symbolic, unresolved: unresolved)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }

    /// Whether the string looks like a Team ID / App ID prefix: 10 upper-case letters or digits.
    public var isTeamIDLike: Bool {
        utf8.count == 10 && utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) }
    }
}

extension String {
    /// Whether the string holds the ASCII character `c` (a byte scan, without Foundation).
    /// (Over the contiguous UTF-8 bytes: `utf8.contains` walks the view generically, ~35
    /// instructions a byte.)
    public func containsASCII(_ c: Unicode.Scalar) -> Bool {
        let byte = UInt8(c.value)
        // memchr: the generic `contains` costs several instructions a byte.
        if let found = utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard let base = b.baseAddress else { return false }
            return memchr(base, Int32(byte), b.count) != nil
        }) { return found }
        return utf8.contains(byte)
    }

    /// Whether the string holds the ASCII sequence `s` (a byte scan, without Foundation).
    public func containsASCII(sequence s: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
        if let found = utf8.withContiguousStorageIfAvailable({ Self.search(needle, in: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { Self.search(needle, in: $0) }
    }

    static func search(_ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= hay.count, let first = needle.first else { return needle.isEmpty }
        var i = 0
        while i + needle.count <= hay.count {
            if hay[i] == first {
                var j = 1
                while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
