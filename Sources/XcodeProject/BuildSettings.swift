import EntitlintCore
import PropertyList

/// Evaluates build settings as Xcode does, over the ordered assignments of every level, lowest
/// precedence first: the project's xcconfig, the project's settings, the target's xcconfig, the
/// target's settings (Apple's "Configuration Settings File" and Xcode's Build Settings
/// reference). A lookup takes the last assignment whose conditions match; `$(inherited)` (and
/// `$(NAME)` inside NAME's own value) is the value of the assignments before it, down the levels
/// (Xcode 10 release notes: later assignments in an xcconfig inherit from earlier ones).
///
/// References: `$(X)`, `${X}`, `$X`, nested `$(A_$(B))`, operators `:lower`, `:upper`,
/// `:rfc1034identifier`, `:c99extidentifier`, `:identifier`, `:default=V`, `:dir`, `:file`, `:base`,
/// `:suffix`, `:standardizepath`. A variable no level sets is the empty string, as in Xcode (keychain-access-groups.md
/// section 2.1); its name is kept in `undefined` so that a malformed result can say which setting
/// was empty. `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` are not build settings: code
/// signing fills them in from the profile, so they stay as written for the entitlements expander.
/// Cycles, nesting deeper than 64 (of references or of `$(` inside `$(`), values longer than
/// 64 KiB (exponential self-reference), names longer than 1 KiB and more than 4 MiB of expanded
/// text in one evaluator are problems, not hangs: each assignment is expanded once (memoised, so
/// `$(inherited)$(inherited)` on many lines is linear), the matching `)` of every `$(` is found in
/// one pass over the value (an unclosed `$(` repeated is linear), and the recursion is at most
/// 64 levels deep.
final class SettingsEvaluator {
    static let maxDepth = 64
    static let maxLength = 64 << 10
    static let maxNameLength = 1 << 10
    /// Undefined settings a value keeps the names of, at most.
    static let maxUndefined = 64
    /// Bytes of expanded text one evaluator produces at most, over all its settings.
    static let maxTotalLength = 4 << 20
    /// Bytes a value that signing reads may have (the bundle ID, the team, the entitlements and
    /// Info.plist paths, the profile, the platforms, and the settings an entitlements file refers
    /// to): PATH_MAX, far above any real one. A longer value is unknown, with a problem saying so,
    /// so no rule ever compares, hashes or prints megabytes of it once per configuration.
    static let maxSigningValueBytes = 4_096

    /// `resolve`, for a value signing reads: past `maxSigningValueBytes` it is unknown, with a problem.
    func resolveForSigning(_ name: String, structural: Bool = false) -> ResolvedSetting {
        var r = resolve(name, structural: structural)
        if let v = r.value, v.utf8.count > Self.maxSigningValueBytes {
            r.value = nil
            r.problem = "its value is \(v.utf8.count) bytes long, more than the \(Self.maxSigningValueBytes) bytes a signing setting is read to"
        }
        return r
    }

    /// How the problem of a setting that only a missing file could set begins (`ResolvedSetting.missingFile`).
    static let missingFilePrefix = "no committed file sets it; it may be set in "

    let entries: [SettingAssignment]
    let builtins: [String: String]
    let context: SettingContext
    private var byName: [String: [Int]] = [:]
    private var holes: [Int] = []
    private var memo: [String: Part] = [:]
    /// The expansion of each assignment, by index: `$(inherited)` reads the one before.
    private var entryMemo: [Int: Part] = [:]
    private var visiting: [String] = []
    /// Bytes of expanded text produced so far (bounded by `maxTotalLength`).
    private(set) var produced = 0
    /// Calls of `expand`: work done, for tests of the bounds.
    private(set) var expansions = 0

    struct Part {
        var text: String
        var isSet: Bool
        var undefined: [String] = []
        var problem: String?

        /// Adds names, each once, and at most `maxUndefined` in all (a message names a few).
        mutating func noteUndefined(_ names: [String]) {
            for n in names where undefined.count < SettingsEvaluator.maxUndefined && !undefined.contains(n) { undefined.append(n) }
        }
    }

    /// When true, a reference to a setting no level defines is kept as written (`$(NAME)`) instead
    /// of becoming the empty string: for settings copied into entitlements, whose expander then
    /// gives it the empty value and can still say which setting was empty.
    let keepUndefined: Bool

    init(entries: [SettingAssignment], builtins: [String: String], context: SettingContext, keepUndefined: Bool = false) {
        self.entries = entries
        self.builtins = builtins
        self.context = context
        self.keepUndefined = keepUndefined
        for (i, e) in entries.enumerated() {
            if e.hole != nil { holes.append(i) } else { byName[e.name, default: []].append(i) }
        }
    }

    /// The index of the assignment (or hole) that answers `name` among the entries before `below`.
    /// `structural`: for the settings that shape a unit (its entitlements file, bundle ID, team,
    /// SDK): a missing file is taken to leave such a setting unset unless the template committed
    /// beside it sets it (a per-developer file that chooses the entitlements makes them unknown; a
    /// `pod install` output does not).
    func lookup(_ name: String, below: Int, structural: Bool = false) -> Int? {
        var found: Int?
        if let candidates = byName[name] {
            for i in candidates.reversed() where i < below && context.matches(entries[i].conditions) {
                found = i
                break
            }
        }
        if let hole = holes.last(where: { $0 < below && entries[$0].missingFile == nil }), hole > (found ?? -1) { return hole }
        if found == nil, let hole = holes.last(where: { $0 < below && (!structural || entries[$0].templateSettings.contains(name)) }) { return hole }
        // A setting the template of a missing file sets is the developer's copy's, over what comes before it.
        if let f = found, let hole = holes.last(where: { $0 < below && $0 > f && entries[$0].templateSettings.contains(name) }) { return hole }
        return found
    }

    /// `structural`: see `lookup`.
    func resolve(_ name: String, structural: Bool = false) -> ResolvedSetting {
        var part: Part
        if structural && !visiting.contains(name) {
            visiting.append(name)
            part = evaluate(name, below: entries.count, depth: 0, structural: true)
            visiting.removeLast()
        } else {
            part = evaluateTop(name, depth: 0)
        }
        let source = lookup(name, below: entries.count, structural: structural).flatMap { entries[$0].hole == nil ? entries[$0] : nil }
        guard part.isSet else { return ResolvedSetting(value: nil, source: nil, undefined: [], problem: nil) }
        return ResolvedSetting(value: part.problem == nil ? part.text : nil, source: source, undefined: part.undefined, problem: part.problem)
    }

    private func evaluateTop(_ name: String, depth: Int) -> Part {
        if let m = memo[name] { return m }
        if visiting.contains(name) {
            return Part(text: "", isSet: true, problem: "$(\(name)) refers to itself through \((visiting.drop { $0 != name } + [name]).joined(separator: " -> "))")
        }
        visiting.append(name)
        let p = evaluate(name, below: entries.count, depth: depth)
        visiting.removeLast()
        memo[name] = p
        return p
    }

    private func evaluate(_ name: String, below: Int, depth: Int, structural: Bool = false) -> Part {
        guard depth <= Self.maxDepth else {
            return Part(text: "", isSet: true, problem: "references nested deeper than \(Self.maxDepth) levels")
        }
        if let i = lookup(name, below: below, structural: structural) {
            let e = entries[i]
            if let missing = e.missingFile {
                // A built-in (TARGET_NAME, SRCROOT) is known whatever a missing file might add.
                if let b = builtins[name] { return Part(text: b, isSet: true) }
                return Part(text: "", isSet: true, problem: "\(SettingsEvaluator.missingFilePrefix)\(missing), which is not here (\(e.hole ?? ""))")
            }
            if let hole = e.hole { return Part(text: "", isSet: true, problem: "it may be set in a file that cannot be read (\(hole), \(e.place))") }
            if let known = entryMemo[i] { return known }
            let part = expand(e.value, setting: name, index: i, depth: depth + 1)
            entryMemo[i] = part
            return part
        }
        if let b = builtins[name] { return Part(text: b, isSet: true) }
        if let other = Self.fallbacks[name] { return evaluateTop(other, depth: depth + 1) }
        return Part(text: "", isSet: false)
    }

    /// Settings whose default, when no level sets them (or at the bottom of their `$(inherited)`),
    /// is another setting's value: `OTHER_CPLUSPLUSFLAGS` defaults to `$(OTHER_CFLAGS)` in Xcode.
    static let fallbacks = ["OTHER_CPLUSPLUSFLAGS": "OTHER_CFLAGS"]

    /// Expands the references in `text`, the value of `setting` at `index`.
    func expand(_ text: String, setting: String, index: Int, depth: Int) -> Part {
        let b = Array(text.utf8)
        guard b.contains(UInt8(ascii: "$")) else { return Part(text: text, isSet: true) }
        return expand(b, 0, b.count, Self.matchingCloses(b), setting: setting, index: index, depth: depth)
    }

    /// Expands `b[start..<end]`; `closes` is `matchingCloses(b)`. A `$(...)` nested inside is
    /// expanded as a range of the same bytes: no copy per level.
    private func expand(_ b: [UInt8], _ start: Int, _ end: Int, _ closes: [Int], setting: String, index: Int, depth: Int) -> Part {
        expansions += 1
        guard depth <= Self.maxDepth else {
            return Part(text: "", isSet: true, problem: "references nested deeper than \(Self.maxDepth) levels")
        }
        guard produced <= Self.maxTotalLength else {
            return Part(text: "", isSet: true, problem: "the build settings expand to more than \(Self.maxTotalLength) bytes in all")
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var result = Part(text: "", isSet: true)
        var i = start
        func isNameByte(_ c: UInt8) -> Bool {
            c == UInt8(ascii: "_") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
        }
        while i < end {
            let c = b[i]
            guard c == UInt8(ascii: "$"), i + 1 < end else { out.append(c); i += 1; continue }
            let next = b[i + 1]
            var expression: String
            if next == UInt8(ascii: "(") || next == UInt8(ascii: "{") {
                let close = closes[i]
                guard close >= 0, close < end else { out.append(c); i += 1; continue }
                let innerPart = expand(b, i + 2, close, closes, setting: setting, index: index, depth: depth + 1)
                result.noteUndefined(innerPart.undefined)
                if result.problem == nil { result.problem = innerPart.problem }
                expression = innerPart.text
                i = close + 1
            } else if isNameByte(next), !(next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) {
                var j = i + 1
                while j < end, isNameByte(b[j]) { j += 1 }
                expression = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                i = j
            } else {
                out.append(c)
                i += 1
                continue
            }
            var operators: [Substring] = []
            if let colon = expression.firstIndex(of: ":") {
                operators = expression[expression.index(after: colon)...].split(separator: ":")
                expression = String(expression[..<colon])
            }
            let name = expression
            guard name.utf8.count <= Self.maxNameLength else {
                if result.problem == nil { result.problem = "a setting name longer than \(Self.maxNameLength) bytes" }
                continue
            }
            if operators.isEmpty, name == "AppIdentifierPrefix" || name == "TeamIdentifierPrefix", builtins[name] == nil,
               lookup(name, below: entries.count).map({ entries[$0].missingFile != nil }) ?? true {
                out.append(contentsOf: "$(\(name))".utf8)
                continue
            }
            var part: Part
            if name == "inherited" || name == setting {
                part = evaluate(setting, below: index, depth: depth + 1)
                part.isSet = true   // inheriting nothing is the empty string, not a defect
            } else {
                part = evaluateTop(name, depth: depth + 1)
            }
            var value = part.text
            var known = part.isSet
            for op in operators {
                if op.hasPrefix("default=") {
                    if !known || value.isEmpty { value = String(op.dropFirst("default=".count)); known = true }
                    continue
                }
                switch op {
                case "lower": value = value.lowercased()
                case "upper": value = value.uppercased()
                case "rfc1034identifier":
                    value = VariableExpander.rfc1034Identifier(value)
                case "c99extidentifier", "identifier":
                    value = VariableExpander.c99Identifier(value)
                case "dir": value = Paths.directoryName(value)
                case "file": value = Paths.baseName(value)
                case "base": value = Paths.stem(value)
                case "suffix":
                    let base = Paths.baseName(value)
                    value = base.lastIndex(of: ".").map { String(base[$0...]) } ?? ""
                case "standardizepath": value = ProjectFiles.normalize(value)
                default:
                    if result.problem == nil { result.problem = "the operator :\(op) in $(\(expression):...) is not supported" }
                }
            }
            if !known {
                result.noteUndefined([name])
                if keepUndefined, SettingAssignment.isSettingName(name) { value = "$(\(name))" }
            } else {
                result.noteUndefined(part.undefined)
                if result.problem == nil { result.problem = part.problem }
            }
            out.append(contentsOf: value.utf8)
            produced += value.utf8.count
            if out.count > Self.maxLength {
                result.problem = result.problem ?? "the value grows past \(Self.maxLength) bytes"
                break
            }
        }
        result.text = String(decoding: out, as: UTF8.self)
        return result
    }

    /// For each `$(` / `${` of `b` (at the `$`), the index of the `)` or `}` that closes it,
    /// counting nested openings (either bracket closes either); -1 elsewhere and when unclosed.
    /// One pass with a stack: the same answer as scanning forward from each opening, in linear time.
    static func matchingCloses(_ b: [UInt8]) -> [Int] {
        var closes = [Int](repeating: -1, count: b.count)
        var open: [Int] = []
        var j = 0
        while j < b.count {
            let d = b[j]
            if d == UInt8(ascii: "$"), j + 1 < b.count, b[j + 1] == UInt8(ascii: "(") || b[j + 1] == UInt8(ascii: "{") {
                open.append(j)
                j += 2
                continue
            }
            if d == UInt8(ascii: ")") || d == UInt8(ascii: "}"), let start = open.popLast() { closes[start] = j }
            j += 1
        }
        return closes
    }
}
