/// Objective-C and C `#if` conditions: what the scanner reads of them and what decides them.
///
/// Read: `defined(X)`, `defined X`, a macro `X` (true when its value is a non-zero integer),
/// integer literals, `!`, `&&`, `||` and parentheses. Anything else (a comparison, a
/// function-like macro such as `__has_include(...)`) is `unknown`: no configuration decides it.

/// What decides the `#if` branches of a unit's code in one configuration.
public struct ConditionFacts: Sendable, Hashable {
    /// The Swift active compilation conditions (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`, `-D` of
    /// `OTHER_SWIFT_FLAGS`); nil when not known.
    public var swift: Set<String>?
    /// The preprocessor macros the build settings define for C and Objective-C compiles
    /// (`GCC_PREPROCESSOR_DEFINITIONS`, `-D`/`-U` of `OTHER_CFLAGS`), name to value (`1` for a name
    /// given without one); nil when not known.
    public var macros: [String: String]?
    /// The macro names some C-family file of the unit `#define`s or `#undef`s: their value is the
    /// code's, not the settings'. Nil when that is not known (a file unread, a file the project
    /// lists missing, code out of reach): then a macro the settings do not define may be defined
    /// by code the scan did not see.
    public var codeMacros: Set<String>?
    /// The macros of the C++ and Objective-C++ compiles (`.mm`, `.cpp`, `.cc`, `.cxx`), which read
    /// `OTHER_CPLUSPLUSFLAGS` in place of `OTHER_CFLAGS`; nil when not known. `macros` is then what
    /// the C and Objective-C compiles get.
    public var cplusplusMacros: [String: String]?

    /// `cplusplusMacros` not given: the C++ compiles get `macros` too.
    public init(swift: Set<String>? = nil, macros: [String: String]? = nil, codeMacros: Set<String>? = nil,
                cplusplusMacros: [String: String]?? = nil) {
        self.swift = swift
        self.macros = macros
        self.codeMacros = codeMacros
        self.cplusplusMacros = cplusplusMacros ?? macros
    }

    /// The extensions of the files compiled as C++ or Objective-C++, and of C++-only headers.
    static let cplusplusExtensions = [".mm", ".cc", ".cpp", ".cxx", ".hpp", ".hh"]

    /// What decides the `#if`s of the file at `path`: a C++ or Objective-C++ file reads the C++
    /// macros; a `.h` header, which C and C++ files alike may include, knows only the macros both
    /// define alike (a macro they differ on is undecided there); any other file the C macros.
    /// Swift files read only `swift`, which is the same in all.
    public func forFile(_ path: String) -> ConditionFacts {
        guard cplusplusMacros != macros else { return self }
        let lower = path.lowercased()
        var out = self
        out.cplusplusMacros = nil
        if Self.cplusplusExtensions.contains(where: { lower.hasSuffix($0) }) {
            out.macros = cplusplusMacros
        } else if lower.hasSuffix(".h"), let c = macros, let cpp = cplusplusMacros {
            let differing = Set(c.keys).union(cpp.keys).filter { c[$0] != cpp[$0] }
            out.macros = c.filter { !differing.contains($0.key) }
            // A name either compile may give another value is not known here, however the code's
            // own `#define`s are known.
            out.codeMacros = codeMacros?.union(differing)
        } else if lower.hasSuffix(".h") {
            out.macros = nil
        }
        return out
    }

    /// Macro names a compiler or an SDK header defines (`__OBJC__`, `TARGET_OS_IOS`,
    /// `NS_BLOCK_ASSERTIONS`, `SWIFT_PACKAGE`): what the build settings say does not decide them.
    static let predefinedPrefixes = ["_", "TARGET_", "NS_", "CF_", "OS_", "OBJC_", "MAC_OS_", "IPHONE_", "API_", "SWIFT_", "UI_", "CLANG_", "GCC_"]

    /// The value of macro `name` here: the settings' value, `""` when it is surely not defined
    /// (the settings and the code are fully known and none defines it, and no compiler or SDK does),
    /// nil when not known.
    func macro(_ name: String) -> String?? {
        guard let macros else { return nil }
        if let codeMacros, codeMacros.contains(name) { return nil }
        if let value = macros[name] { return .some(value) }
        guard codeMacros != nil, !Self.predefinedPrefixes.contains(where: { name.hasPrefix($0) }) else { return nil }
        return .some(nil)
    }

    /// `defined(name)`: true, false or nil (not known).
    func isDefined(_ name: String) -> Bool? {
        macro(name).map { $0 != nil }
    }

    /// `name` in a condition: its value as an integer is non-zero (an undefined macro is 0); nil
    /// when its value is not known or is not an integer.
    func isNonZero(_ name: String) -> Bool? {
        guard let value = macro(name) else { return nil }
        guard let text = value else { return false }
        return Self.integer(text).map { $0 != 0 }
    }

    /// A C integer literal (`1`, `0x10`, `010`, `1UL`, `-1`); nil for anything else.
    static func integer(_ text: String) -> Int64? {
        var s = Substring(text)
        let negative = s.hasPrefix("-")
        if negative { s = s.dropFirst() }
        while let last = s.last, "uUlL".contains(last) { s = s.dropLast() }
        guard !s.isEmpty, s.count <= 24 else { return nil }
        var radix = 10
        if s.hasPrefix("0x") || s.hasPrefix("0X") {
            radix = 16
            s = s.dropFirst(2)
        } else if s.count > 1, s.hasPrefix("0") {
            radix = 8
            s = s.dropFirst()
        }
        guard let v = UInt64(s, radix: radix) else { return nil }
        return negative ? -Int64(truncatingIfNeeded: v) : Int64(truncatingIfNeeded: v)
    }
}

extension CompilationCondition {
    /// Conditions of Objective-C and C directives longer than this many bytes are not read.
    static let maxDirectiveBytes = 512

    /// The condition of an Objective-C/C `#if`/`#elif` whose text (after the directive's name, to
    /// the end of its line, comments included) is `bytes`.
    static func readPreprocessor(_ bytes: ArraySlice<UInt8>) -> CompilationCondition {
        guard bytes.count <= maxDirectiveBytes else { return .unknown("a long condition") }
        let words = PreprocessorWords.split(bytes)
        var reader = PreprocessorReader(words: words, pos: 0)
        let c = reader.or(depth: 0)
        return reader.pos == words.count && !words.isEmpty ? c : .unknown(words.joined(separator: " "))
    }

    /// `#ifdef NAME` (or, `negated`, `#ifndef NAME`).
    static func readDefined(_ bytes: ArraySlice<UInt8>, negated: Bool) -> CompilationCondition {
        guard bytes.count <= maxDirectiveBytes else { return .unknown("a long condition") }
        let words = PreprocessorWords.split(bytes)
        guard words.count == 1, let first = words[0].utf8.first, ByteClass.isIdentifierStart(first) else {
            return .unknown(words.joined(separator: " "))
        }
        return negated ? .not(.defined(words[0])) : .defined(words[0])
    }
}

/// The words of a directive's condition: identifiers, numbers, `&&`, `||`, and single bytes;
/// comments and line continuations are dropped.
enum PreprocessorWords {
    static func split(_ bytes: ArraySlice<UInt8>) -> [String] {
        var out: [String] = []
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A || c == UInt8(ascii: "\\") {
                i += 1
            } else if c == UInt8(ascii: "/"), i + 1 < end, bytes[i + 1] == UInt8(ascii: "/") {
                break
            } else if c == UInt8(ascii: "/"), i + 1 < end, bytes[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i < end, !(bytes[i] == UInt8(ascii: "*") && i + 1 < end && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(i + 2, end)
            } else if ByteClass.isIdentifierBody(c) {
                let start = i
                while i < end, ByteClass.isIdentifierBody(bytes[i]) { i += 1 }
                out.append(String(decoding: bytes[start..<i], as: UTF8.self))
            } else if (c == UInt8(ascii: "&") || c == UInt8(ascii: "|")), i + 1 < end, bytes[i + 1] == c {
                out.append(c == UInt8(ascii: "&") ? "&&" : "||")
                i += 2
            } else {
                out.append(String(decoding: bytes[i...i], as: UTF8.self))
                i += 1
            }
        }
        return out
    }
}

/// A recursive-descent reader of preprocessor conditions over their words, nesting bounded by
/// `CompilationCondition.maxDepth`, each operator chain by 16 terms (`ConditionChainReader`).
private struct PreprocessorReader: ConditionChainReader {
    let words: [String]
    var pos: Int

    func isWord(_ w: String) -> Bool { pos < words.count && words[pos] == w }
    func isOperator(_ text: String) -> Bool { isWord(text) }
    mutating func skipOperator() { pos += 1 }

    mutating func unary(depth: Int) -> CompilationCondition {
        guard depth < CompilationCondition.maxDepth, pos < words.count else {
            pos = words.count
            return .unknown("a condition nested too deeply")
        }
        let word = words[pos]
        if word == "!" {
            pos += 1
            return .not(unary(depth: depth + 1))
        }
        if word == "(" {
            pos += 1
            let c = or(depth: depth + 1)
            guard isWord(")") else {
                pos = words.count
                return .unknown("an unclosed condition")
            }
            pos += 1
            return c
        }
        guard let first = word.utf8.first else {
            pos = words.count
            return .unknown("an empty condition")
        }
        if word == "defined" {
            let paren = isWordAt(pos + 1, "(")
            let nameAt = paren ? pos + 2 : pos + 1
            guard nameAt < words.count, let n = words[nameAt].utf8.first, ByteClass.isIdentifierStart(n),
                  !paren || isWordAt(nameAt + 1, ")") else {
                pos = words.count
                return .unknown("defined without a name")
            }
            pos = paren ? nameAt + 2 : nameAt + 1
            return .defined(words[nameAt])
        }
        if ByteClass.isDigit(first) {
            pos += 1
            guard let v = ConditionFacts.integer(word) else { return .unknown(word) }
            return v != 0 ? .always : .not(.always)
        }
        if ByteClass.isIdentifierStart(first) {
            pos += 1
            // `__has_include(<X.h>)`, `FOO(1)`: a function-like macro, not decided here.
            if isWord("(") {
                var level = 0
                let start = pos - 1
                while pos < words.count {
                    if words[pos] == "(" { level += 1 }
                    if words[pos] == ")" { level -= 1 }
                    pos += 1
                    if level == 0 { break }
                }
                return .unknown(words[start..<pos].joined())
            }
            return .macro(word)
        }
        pos = words.count
        return .unknown(word)
    }

    func isWordAt(_ i: Int, _ w: String) -> Bool { i < words.count && words[i] == w }
}

extension ResolvedString {
    /// The value of a place compiled only under `condition`: each possible value starts with that
    /// `#if`, and is `undecided` (never reported) when the unit's settings do not decide it.
    public mutating func compiledUnder(_ condition: CompilationCondition, undecided: String?) {
        func mark(_ r: inout ResolvedString) {
            r.steps.insert("#if \(condition.text)", at: 0)
            if r.steps.count > StringResolver.maxKeptSteps { r.steps.removeLast() }
            r.undecided = r.undecided ?? undecided
        }
        if alternatives.isEmpty {
            mark(&self)
        } else {
            for k in alternatives.indices { mark(&alternatives[k]) }
        }
    }
}
