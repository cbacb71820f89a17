import YAMLReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import EntitlintCore

/// Finding and reading `.entitlint.yml` (the values are `Configuration` in EntitlintCore).
extension Configuration {
    public struct ConfigError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int
        public var reason: String
        /// The problems found after this one in the same file, in file order: a file is read whole
        /// and every key checked, so one run names every mistake instead of one per run.
        public var more: [ConfigError] = []

        public init(path: String, line: Int, reason: String) {
            self.path = path
            self.line = line
            self.reason = reason
        }

        /// This problem alone, as `path:line: reason`.
        public var located: String { line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)" }
        /// Every problem, one per line.
        public var description: String { ([self] + more).map(\.located).joined(separator: "\n") }
        /// Every problem, each alone.
        public var all: [ConfigError] { [self] + more.map { var e = $0; e.more = []; return e } }
    }

    /// Looks for `.entitlint.yml` in `directory` and its parents (in `trusted` when the run reads
    /// its configuration from a revision: `TrustedFiles`).
    public static func find(from directory: String, in trusted: TrustedFiles? = nil) -> String? {
        var dir = Paths.absolute(directory)
        while true {
            let candidate = (dir == "/" ? "" : dir) + "/" + fileName
            if TrustedFiles.isFile(candidate, in: trusted) { return candidate }
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
        }
    }

    public static func load(path: String, knownRules: Set<String>, from trusted: TrustedFiles? = nil) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(path, limit: 1 << 20, in: trusted) } catch {
            throw ConfigError(path: path, line: 0, reason: "cannot read\(trusted.map { " at revision \(OutputText.escape($0.revision))" } ?? ""): \(error)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path, knownRules: knownRules)
    }

    public static func parse(_ text: String, path: String, knownRules: Set<String>) throws(ConfigError) -> Configuration {
        var config = Configuration()
        config.path = path
        let root: YAMLNode?
        // Nesting is bounded before composing (YAMLNestingLimit, found by fuzzing): the message names the line.
        if let line = YAMLNestingLimit.firstLineDeeperThan(100, in: text) {
            throw ConfigError(path: path, line: line, reason: "nested more than 100 levels deep: not a configuration")
        }
        do { root = try YAMLNode.compose(yaml: text) } catch {
            let problem = yamlProblem(error)
            throw ConfigError(path: path, line: problem.line, reason: "not valid YAML: \(problem.text)")
        }
        guard let root else { return config }
        func fail(_ node: YAMLNode, _ reason: String) -> ConfigError {
            ConfigError(path: path, line: (node.mark.line), reason: reason)
        }
        func string(_ node: YAMLNode, _ key: String) throws(ConfigError) -> String {
            guard let s = node.scalar?.string else { throw fail(node, "'\(key)' must be a string") }
            // A plain `1234567890`, `yes` or `~` is a number, a boolean or null to YAML (and to every
            // other YAML tool reading the file, JSON Schema validators included): quoting says "string".
            guard node.tag == .str else {
                throw fail(node, "'\(OutputText.excerpt(key))' must be a string, not \(Self.yamlTypeName(node)) (quote it: \"\(OutputText.excerpt(s))\")")
            }
            return s
        }
        func strings(_ node: YAMLNode, _ key: String, _ what: String) throws(ConfigError) -> [String] {
            guard let seq = node.sequence else { throw fail(node, "'\(key)' must be a list of \(what)") }
            var out: [String] = []
            for item in seq { out.append(try string(item, key)) }
            return out
        }
        guard let top = root.mapping else { throw fail(root, "the configuration must be a mapping of keys") }
        var seenKeys = Set<String>()
        var problems: [ConfigError] = []
        // Each entry of a mapping is checked on its own: a problem is kept and the next entry read.
        func checking(_ body: () throws(ConfigError) -> Void) {
            do { try body() } catch { problems.append(error) }
        }
        for (k, v) in top { checking { () throws(ConfigError) in
            guard let key = k.scalar?.string else { throw fail(k, "keys must be strings") }
            guard seenKeys.insert(key).inserted else { throw fail(k, "'\(key)' is given twice") }
            switch key {
            case "team":
                config.team = try string(v, key)
            case "lock":
                config.lock = try string(v, key)
            case "exclude":
                config.exclude = try strings(v, key, "globs").map(Glob.init)
            case "profiles":
                config.profiles = try strings(v, key, "folders or files of provisioning profiles")
            case "external-groups":
                config.externalGroups = try strings(v, key, "keychain access groups or app groups")
            case "profile-expiring-days":
                guard let n = wholeNumber(v), n > 0, n <= 3650 else {
                    throw fail(v, "'profile-expiring-days' must be a whole number of days from 1 to 3650, not '\(OutputText.excerpt(v.scalar?.string ?? "a collection"))'")
                }
                config.profileExpiringDays = n
            case "baseline":
                config.baseline = try string(v, key)
            case "fail-on":
                let raw = try string(v, key)
                guard let level = Severity(rawValue: raw) else {
                    throw fail(v, "'fail-on' must be error, warning or note, not '\(OutputText.excerpt(raw))'")
                }
                config.failOn = level
            case "limits":
                guard let map = v.mapping else { throw fail(v, "'limits' must be a mapping of \(RunLimits.names.joined(separator: ", ")) to numbers") }
                for (lk, lv) in map { checking { () throws(ConfigError) in
                    guard let name = lk.scalar?.string, RunLimits.names.contains(name) else {
                        let given = lk.scalar?.string ?? ""
                        throw fail(lk, "unknown limit '\(OutputText.excerpt(given))'\(Suggestion.hint(for: given, in: RunLimits.names)) (known: \(RunLimits.names.joined(separator: ", ")))")
                    }
                    guard config.limits[name] == nil else { throw fail(lk, "limits.\(name) is given twice") }
                    guard let n = wholeNumber(lv), n > 0 else {
                        throw fail(lv, "limits.\(name) must be a positive whole number, not '\(OutputText.excerpt(lv.scalar?.string ?? "a collection"))'")
                    }
                    config.limits[name] = n
                } }
            case "variables":
                guard let map = v.mapping else { throw fail(v, "'variables' must be a mapping of NAME: value") }
                for (vk, vv) in map {
                    guard let name = vk.scalar?.string else { throw fail(vk, "variable names must be strings") }
                    config.variables[name] = try string(vv, "variables.\(name)")
                }
            case "rules":
                guard let map = v.mapping else { throw fail(v, "'rules' must be a mapping of rule-id: error|warning|note|off") }
                for (rk, rv) in map { checking { () throws(ConfigError) in
                    guard let id = rk.scalar?.string else { throw fail(rk, "rule ids must be strings") }
                    guard config.rules[id] == nil else { throw fail(rk, "rules.\(id) is given twice") }
                    guard knownRules.contains(id) else {
                        throw fail(rk, "unknown rule '\(OutputText.excerpt(id))'\(Suggestion.hint(for: id, in: knownRules.sorted())) (see `entitlint rules`)")
                    }
                    // YAML 1.1 reads a bare `off` (or `no`, `false`) as the boolean false.
                    let raw = rv.scalar?.string ?? ""
                    let isFalse = rv.scalar != nil && rv.tag == .bool && rv.bool == false
                    let normalized = isFalse ? "off" : rv.tag == .str ? raw : ""
                    guard let setting = RuleSetting(rawValue: normalized) else {
                        throw fail(rv, "rules.\(id) must be error, warning, note or off, not '\(OutputText.excerpt(raw))'")
                    }
                    config.rules[id] = setting
                } }
            case "select":
                config.select = try ruleIDs(v, key, knownRules: knownRules, fail: fail)
            case "ignore":
                config.ignore = try ruleIDs(v, key, knownRules: knownRules, fail: fail)
            case "per-file-ignores":
                config.perFileIgnores = try perFileIgnores(v, knownRules: knownRules, fail: fail)
            case "apps":
                guard let seq = v.sequence else { throw fail(v, "'apps' must be a list") }
                for item in seq { checking { () throws(ConfigError) in
                    guard let map = item.mapping else { throw fail(item, "each app must be a mapping") }
                    var app = App(entitlements: "")
                    var hasEntitlements = false
                    var seenAppKeys = Set<String>()
                    for (ak, av) in map {
                        guard let akey = ak.scalar?.string else { throw fail(ak, "keys must be strings") }
                        guard seenAppKeys.insert(akey).inserted else { throw fail(ak, "'apps.\(akey)' is given twice") }
                        switch akey {
                        case "name": app.name = try string(av, "apps.name")
                        case "entitlements": app.entitlements = try string(av, "apps.entitlements"); hasEntitlements = true
                        case "bundle-id": app.bundleID = try string(av, "apps.bundle-id")
                        case "profile": app.profile = try string(av, "apps.profile")
                        case "team": app.team = try string(av, "apps.team")
                        default: throw fail(ak, "unknown key 'apps.\(OutputText.excerpt(akey))'\(Suggestion.hint(for: akey, in: Self.knownAppKeys)) (known: \(Self.knownAppKeys.joined(separator: ", ")))")
                        }
                    }
                    guard hasEntitlements else { throw fail(item, "an app needs 'entitlements'") }
                    config.apps.append(app)
                } }
            default:
                throw fail(k, "unknown key '\(OutputText.excerpt(key))'\(Suggestion.hint(for: key, in: Self.knownKeys)) (known: \(Self.knownKeys.joined(separator: ", ")))")
            }
        } }
        if var first = problems.first {
            first.more = Array(problems.dropFirst())
            throw first
        }
        return config
    }

    /// The value of a scalar YAML tags as an integer (YAML 1.1, as YAMLReader resolves it: decimal,
    /// `0x` hexadecimal, `0o` or leading-`0` octal, `0b` binary, `_` between digits, base 60 as
    /// `1:30`), or nil when it is no integer or does not fit in an `Int`. Read here with checked
    /// arithmetic, so base-60 digits that overflow (`1:00:00:00:00:00:00:00:00:00:00:00`) give
    /// nil, never a trap.
    static func wholeNumber(_ node: YAMLNode) -> Int? {
        guard node.tag == .int, let text = node.scalar?.string else { return nil }
        var s = Substring(text.filter { $0 != "_" })
        var negative = false
        if let sign = s.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            s = s.dropFirst()
        }
        // Digits only: `Int(_:radix:)` would take a second sign.
        func digits(_ part: Substring, _ radix: Int) -> Int? {
            guard let first = part.first, first != "-", first != "+" else { return nil }
            return Int(part, radix: radix)
        }
        let magnitude: Int?
        if s.contains(":") {
            var value = 0
            for part in s.split(separator: ":", omittingEmptySubsequences: false) {
                guard let d = digits(part, 10) else { return nil }
                let (shifted, o1) = value.multipliedReportingOverflow(by: 60)
                let (sum, o2) = shifted.addingReportingOverflow(d)
                guard !o1, !o2 else { return nil }
                value = sum
            }
            magnitude = value
        } else if s.hasPrefix("0x") {
            magnitude = digits(s.dropFirst(2), 16)
        } else if s.hasPrefix("0b") {
            magnitude = digits(s.dropFirst(2), 2)
        } else if s.hasPrefix("0o") {
            magnitude = digits(s.dropFirst(2), 8)
        } else if s.count > 1, s.hasPrefix("0") {
            magnitude = digits(s.dropFirst(), 8)
        } else {
            magnitude = digits(s, 10)
        }
        guard let magnitude else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// What YAML made of a plain scalar that is not a string, for messages.
    static func yamlTypeName(_ node: YAMLNode) -> String {
        switch node.tag {
        case .int: return "a number"
        case .float: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .timestamp: return "a date"
        default: return "'\(node.tag.rawValue)'"
        }
    }

    /// What a YAML error says: the kind, the problem and where (libyaml's texts, which hold none
    /// of the document). The document may be anything a reference named, so nothing of it is
    /// repeated.
    public static func yamlProblem(_ error: Error) -> (line: Int, text: String) {
        guard let e = error as? YAMLError else { return (0, "not YAML") }
        func describe(_ stage: String, _ context: YAMLError.Context?, _ problem: String, _ mark: YAMLMark) -> (Int, String) {
            let during = context.map { "\($0.text) (line \($0.mark.line)), " } ?? ""
            return (mark.line, OutputText.excerpt("\(stage): \(during)\(problem) at line \(mark.line), column \(mark.column)", limit: 200))
        }
        switch e {
        case .scanner(let context, let problem, let mark): return describe("scanner", context, problem, mark)
        case .parser(let context, let problem, let mark): return describe("parser", context, problem, mark)
        case .composer(let context, let problem, let mark): return describe("composer", context, problem, mark)
        case .reader(let problem, _, _): return (0, OutputText.excerpt("reader: \(problem)", limit: 200))
        case .memory: return (0, "not YAML")
        }
    }
}
