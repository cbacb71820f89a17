/// Sets of possible values: a computed property that returns in several places (the cases of a
/// `switch self`, `#if` branches, an `if`), a ternary, and definitions made in `#if` branches.
/// Each possible value is checked on its own; a value compiled only under an `#if` condition is
/// checked only in the configurations whose build settings make that condition true.

/// One possible value of an expression: how the code reaches it (`case .beta`, `#if BETA`,
/// `isBeta ? ... : ...` (first)), the `#if` condition it is compiled under, if any, and the value.
public struct Alternative: Sendable, Hashable {
    public var label: String
    public var condition: CompilationCondition?
    public var line: Int
    public var value: StringExpression

    public init(label: String, condition: CompilationCondition? = nil, line: Int, value: StringExpression) {
        self.label = label
        self.condition = condition
        self.line = line
        self.value = value
    }

    /// At most this many possible values are kept for one expression (more: unknown), and at most
    /// this many come out of joining parts that each have several.
    public static let maxValues = 16
}

/// An `#if` condition, as far as the scanner reads one. Swift: flags (`DEBUG`, `BETA`), `!`,
/// `&&`, `||`, parentheses; platform tests (`os(iOS)`, `canImport(X)`, `targetEnvironment(...)`,
/// `swift(>=5)`) and anything else are `unknown`: the build settings do not decide them here.
/// Objective-C and C (`PreprocessorConditions.swift`): `defined(X)`, macros, integer literals.
public indirect enum CompilationCondition: Sendable, Hashable {
    /// A Swift compilation condition.
    case flag(String)
    /// C `defined(X)` (also `#ifdef X`).
    case defined(String)
    /// A C macro tested for a non-zero value (`#if DEBUG`).
    case macro(String)
    case not(CompilationCondition)
    case and(CompilationCondition, CompilationCondition)
    case or(CompilationCondition, CompilationCondition)
    case unknown(String)
    /// An `#else` branch on its own, `true`.
    case always

    /// True, false, or nil (not decided), with only Swift flags known: `flags` are the unit's
    /// active compilation conditions, nil when not known.
    public func holds(_ flags: Set<String>?) -> Bool? {
        holds(ConditionFacts(swift: flags))
    }

    /// True, false, or nil (not decided). A Swift flag is read from `SWIFT_ACTIVE_COMPILATION_CONDITIONS`
    /// and the `-D` flags of `OTHER_SWIFT_FLAGS` only (never `GCC_PREPROCESSOR_DEFINITIONS`); one not
    /// among known conditions is false, as in the compiler. A C macro is read from the
    /// preprocessor definitions (`ConditionFacts.macro`). Depth is bounded by construction (the
    /// readers nest at most `maxDepth`).
    public func holds(_ facts: ConditionFacts) -> Bool? {
        switch self {
        case .flag(let name):
            return facts.swift.map { $0.contains(name) }
        case .defined(let name):
            return facts.isDefined(name)
        case .macro(let name):
            return facts.isNonZero(name)
        case .not(let c):
            return c.holds(facts).map { !$0 }
        case .and(let a, let b):
            let (x, y) = (a.holds(facts), b.holds(facts))
            if x == false || y == false { return false }
            return x == true && y == true ? true : nil
        case .or(let a, let b):
            let (x, y) = (a.holds(facts), b.holds(facts))
            if x == true || y == true { return true }
            return x == false && y == false ? false : nil
        case .unknown:
            return nil
        case .always:
            return true
        }
    }

    /// As written, for messages: `BETA`, `!DEBUG`, `DEBUG && BETA`.
    public var text: String {
        switch self {
        case .flag(let name), .macro(let name): return name
        case .defined(let name): return "defined(\(name))"
        case .not(.always): return "false"
        case .not(.not(let c)): return c.text
        case .not(let c):
            switch c {
            case .flag, .macro, .defined, .always: return "!" + c.text
            case .unknown(let w) where !w.contains(" "): return "!" + w
            default: return "!(\(c.text))"
            }
        case .and(let a, let b): return "\(a.grouped) && \(b.grouped)"
        case .or(let a, let b): return "\(a.grouped) || \(b.grouped)"
        case .unknown(let written): return written
        case .always: return "true"
        }
    }

    private var grouped: String {
        switch self {
        case .and, .or: return "(\(text))"
        default: return text
        }
    }

    /// Conditions nest at most this deep (`#if` inside `#if` and operators together).
    static let maxDepth = 16
}

extension CompilationCondition {
    /// Reads the condition written in tokens `lo..<hi` of an `#if`/`#elseif` line.
    static func read(_ src: TokenizedSource, _ lo: Int, _ hi: Int) -> CompilationCondition {
        var reader = ConditionReader(src: src, pos: lo, end: hi)
        let c = reader.or(depth: 0)
        return reader.pos == hi ? c : .unknown(src.snippet(lo, hi))
    }
}

/// A recursive-descent reader of conditions: `||` of `&&` of unary terms, each chain at most 16
/// operators long (the rest is left unread, so the condition is unknown); the reader says what
/// a unary term is and where the operators are.
protocol ConditionChainReader {
    func isOperator(_ text: String) -> Bool
    mutating func skipOperator()
    mutating func unary(depth: Int) -> CompilationCondition
}

extension ConditionChainReader {
    mutating func or(depth: Int) -> CompilationCondition {
        var left = and(depth: depth)
        var terms = 0
        while isOperator("||"), terms < 16 {
            skipOperator()
            left = .or(left, and(depth: depth))
            terms += 1
        }
        return left
    }

    mutating func and(depth: Int) -> CompilationCondition {
        var left = unary(depth: depth)
        var terms = 0
        while isOperator("&&"), terms < 16 {
            skipOperator()
            left = .and(left, unary(depth: depth))
            terms += 1
        }
        return left
    }
}

/// A recursive-descent reader of Swift `#if` conditions, nesting bounded by `maxDepth`.
private struct ConditionReader: ConditionChainReader {
    let src: TokenizedSource
    var pos: Int
    let end: Int

    func isOperator(_ text: String) -> Bool {
        pos < end && (src.tokens[pos].kind == .other || src.tokens[pos].kind == .punct) && src.text(pos) == text
    }

    mutating func skipOperator() { pos += 1 }

    mutating func unary(depth: Int) -> CompilationCondition {
        guard depth < CompilationCondition.maxDepth, pos < end else { pos = end; return .unknown("a condition nested too deeply") }
        if src.isPunct(pos, UInt8(ascii: "!")) {
            pos += 1
            return .not(unary(depth: depth + 1))
        }
        if src.isPunct(pos, UInt8(ascii: "(")) {
            let close = Int(src.tokens[pos].partner)
            guard close > pos, close < end else { pos = end; return .unknown("an unclosed condition") }
            var inner = ConditionReader(src: src, pos: pos + 1, end: close)
            let c = inner.or(depth: depth + 1)
            pos = close + 1
            return inner.pos == close ? c : .unknown(src.snippet(inner.pos, close))
        }
        if src.tokens[pos].kind == .identifier {
            let name = src.text(pos)
            // `os(iOS)`, `canImport(X)`, ...: decided by the platform, not by the flags.
            if src.isPunct(pos + 1, UInt8(ascii: "(")), src.tokens[pos + 1].partner > pos + 1 {
                let close = Int(src.tokens[pos + 1].partner)
                let written = src.snippet(pos, min(close + 1, end))
                pos = min(close + 1, end)
                return .unknown(written)
            }
            pos += 1
            if name == "true" { return .always }
            if name == "false" { return .not(.always) }
            return .flag(name)
        }
        let written = src.snippet(pos, end)
        pos = end
        return .unknown(written)
    }
}

/// The `#if` branches open at a point of a Swift file: a stack of the branch conditions, each
/// with the conditions of the earlier branches of its `#if` (an `#else` holds when none did).
struct ConditionStack {
    private var frames: [(current: CompilationCondition, earlier: [CompilationCondition])] = []
    /// `#if`s nested deeper than this are read as one unknown condition.
    static let maxFrames = 16

    /// The condition under which code here is compiled (nil: not inside any `#if`).
    var effective: CompilationCondition? {
        var out: CompilationCondition?
        for frame in frames {
            // The earlier branches did not hold, then this one does: `!A && !B && C`.
            let terms = frame.earlier.map { CompilationCondition.not($0) } + (frame.current == .always ? [] : [frame.current])
            guard var here = terms.first else { continue }
            for t in terms.dropFirst() { here = .and(here, t) }
            out = out.map { .and($0, here) } ?? here
        }
        return out
    }

    /// Applies the directive at token `i` (the `#`), reading its condition up to the end of its line.
    mutating func apply(_ src: TokenizedSource, at i: Int) {
        guard src.isPunct(i, UInt8(ascii: "#")), i + 1 < src.tokens.count, src.tokens[i + 1].kind == .identifier,
              src.tokens[i + 1].start == src.tokens[i].end else { return }
        var end = i + 2
        while end < src.tokens.count, src.tokens[end].line == src.tokens[i].line, end - i < 256 { end += 1 }
        let condition = { () -> CompilationCondition in
            end - i >= 256 ? .unknown("a long condition") : CompilationCondition.read(src, i + 2, end)
        }
        if src.isWord(i + 1, "if") {
            open(condition())
        } else if src.isWord(i + 1, "elseif") {
            elseIf(condition())
        } else if src.isWord(i + 1, "else") {
            elseIf(.always)
        } else if src.isWord(i + 1, "endif") {
            close()
        }
    }

    /// `#if condition`.
    mutating func open(_ condition: CompilationCondition) {
        frames.append((frames.count >= Self.maxFrames ? .unknown("#if nested too deeply") : condition, []))
    }

    /// `#elseif condition` (Swift), `#elif` (C); `#else` is `.always`. Without an open `#if`: nothing.
    mutating func elseIf(_ condition: CompilationCondition) {
        guard var last = frames.popLast() else { return }
        last.earlier.append(last.current)
        if last.earlier.count > 16 { last.earlier = [.unknown("too many branches")] }
        last.current = condition
        frames.append(last)
    }

    /// `#endif`.
    mutating func close() {
        _ = frames.popLast()
    }
}
