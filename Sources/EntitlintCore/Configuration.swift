import Yams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `.entitlint.yml` (DESIGN.md section 6):
///
/// ```yaml
/// team: ABCDE12345              # Team ID (also the App ID prefix unless a profile says otherwise)
/// apps:
///   - name: AppOne
///     entitlements: App/App.entitlements
///     bundle-id: com.example.AppOne
///     profile: profiles/AppOne.mobileprovision
///     team: ABCDE12345          # optional, overrides the top-level team
/// rules:
///   comment-in-plist: off
///   default-group-not-app-id: error
/// exclude: ["Tests/**", "*.xcent"]
/// external-groups: ["$(AppIdentifierPrefix)com.vendor.sso"]   # shared with apps outside the project
/// lock: entitlint.lock
/// variables:                    # values for custom build variables used in entitlements
///   BUNDLE_ID_PREFIX: com.example
/// profiles: [profiles]          # folders (or files) of provisioning profiles to pair with units
/// baseline: entitlint.baseline.json
/// fail-on: error                # error | warning | note
/// ```
/// Unknown keys and wrong types are errors naming the key and line. A plain scalar that YAML reads
/// as a number, boolean, null or date is not a string (quote it). The JSON Schema of the file is
/// `Examples/entitlint.schema.json`; a test checks that both accept and reject the same files.
public struct Configuration: Sendable, Hashable {
    public struct App: Sendable, Hashable {
        public var name: String?
        public var entitlements: String
        public var bundleID: String?
        public var profile: String?
        public var team: String?
    }

    public enum RuleSetting: String, Sendable, Hashable {
        case error, warning, note, off
    }

    /// The file it was read from, for `FactSource.config`; paths in it are relative to its folder.
    public var path: String?
    public var team: String?
    public var apps: [App] = []
    public var rules: [String: RuleSetting] = [:]
    public var exclude: [Glob] = []
    public var lock: String?
    public var variables: [String: String] = [:]
    /// Folders or files of provisioning profiles, paired with units like profiles among the inputs.
    public var profiles: [String] = []
    /// The baseline file of known findings (`--baseline`).
    public var baseline: String?
    /// The lowest severity that fails the run (`--fail-on`).
    public var failOn: Severity?
    /// `limits: {max-file-size: N, max-depth: N, max-elements: N, max-total-bytes: N}` (RunLimits).
    public var limits: [String: Int] = [:]
    /// Groups shared with apps outside the project (`external-groups`): a trailing `*` matches any rest.
    public var externalGroups: [String] = []
    /// `profile-expiring-days`: how close an expiry must be for `profile-expiring` (default 30).
    public var profileExpiringDays: Int?
    /// `select:`: the only rules that run (nil: every rule); `ignore:`: rules that do not run
    /// (RuleSelection.swift).
    public var select: [String]?
    public var ignore: [String] = []
    /// `per-file-ignores:`: rules not reported in the files a glob matches.
    public var perFileIgnores: [PerFileIgnore] = []

    /// The top-level keys, in the order the README documents them.
    public static let knownKeys = ["team", "apps", "rules", "exclude", "external-groups", "lock", "variables", "profiles", "baseline",
                                   "fail-on", "limits", "profile-expiring-days", "select", "ignore", "per-file-ignores"]
    /// The keys of an `apps` entry.
    public static let knownAppKeys = ["name", "entitlements", "bundle-id", "profile", "team"]

    public init() {}

    public struct ConfigError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)" }
    }

    /// The name of a configuration file.
    public static let fileName = ".entitlint.yml"

    /// Looks for `.entitlint.yml` in `directory` and its parents.
    public static func find(from directory: String) -> String? {
        var dir = Paths.absolute(directory)
        while true {
            let candidate = (dir == "/" ? "" : dir) + "/" + fileName
            if Paths.kind(candidate) == .file { return candidate }
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
        }
    }

    public static func load(path: String, knownRules: Set<String>) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: 1 << 20) } catch {
            throw ConfigError(path: path, line: 0, reason: "cannot read: \(error)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path, knownRules: knownRules)
    }

    public static func parse(_ text: String, path: String, knownRules: Set<String>) throws(ConfigError) -> Configuration {
        var config = Configuration()
        config.path = path
        let root: Node?
        // Yams reads nesting recursively: bound it first (YAMLNestingLimit, found by fuzzing).
        if let line = YAMLNestingLimit.firstLineDeeperThan(100, in: text) {
            throw ConfigError(path: path, line: line, reason: "nested more than 100 levels deep: not a configuration")
        }
        do { root = try Yams.compose(yaml: text) } catch {
            let problem = yamlProblem(error)
            throw ConfigError(path: path, line: problem.line, reason: "not valid YAML: \(problem.text)")
        }
        guard let root else { return config }
        func fail(_ node: Node, _ reason: String) -> ConfigError {
            ConfigError(path: path, line: (node.mark?.line ?? 0), reason: reason)
        }
        func string(_ node: Node, _ key: String) throws(ConfigError) -> String {
            guard let s = node.scalar?.string else { throw fail(node, "'\(key)' must be a string") }
            // A plain `1234567890`, `yes` or `~` is a number, a boolean or null to YAML (and to every
            // other YAML tool reading the file, JSON Schema validators included): quoting says "string".
            guard node.resolvedTagName == .str else {
                throw fail(node, "'\(OutputText.excerpt(key))' must be a string, not \(Self.yamlTypeName(node)) (quote it: \"\(OutputText.excerpt(s))\")")
            }
            return s
        }
        func strings(_ node: Node, _ key: String, _ what: String) throws(ConfigError) -> [String] {
            guard let seq = node.sequence else { throw fail(node, "'\(key)' must be a list of \(what)") }
            var out: [String] = []
            for item in seq { out.append(try string(item, key)) }
            return out
        }
        guard let top = root.mapping else { throw fail(root, "the configuration must be a mapping of keys") }
        var seenKeys = Set<String>()
        for (k, v) in top {
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
                guard v.resolvedTagName == .int, let n = v.int, n > 0, n <= 3650 else {
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
                for (lk, lv) in map {
                    guard let name = lk.scalar?.string, RunLimits.names.contains(name) else {
                        let given = lk.scalar?.string ?? ""
                        throw fail(lk, "unknown limit '\(OutputText.excerpt(given))'\(Suggestion.hint(for: given, in: RunLimits.names)) (known: \(RunLimits.names.joined(separator: ", ")))")
                    }
                    guard config.limits[name] == nil else { throw fail(lk, "limits.\(name) is given twice") }
                    guard lv.resolvedTagName == .int, let n = lv.int, n > 0 else {
                        throw fail(lv, "limits.\(name) must be a positive whole number, not '\(OutputText.excerpt(lv.scalar?.string ?? "a collection"))'")
                    }
                    config.limits[name] = n
                }
            case "variables":
                guard let map = v.mapping else { throw fail(v, "'variables' must be a mapping of NAME: value") }
                for (vk, vv) in map {
                    guard let name = vk.scalar?.string else { throw fail(vk, "variable names must be strings") }
                    config.variables[name] = try string(vv, "variables.\(name)")
                }
            case "rules":
                guard let map = v.mapping else { throw fail(v, "'rules' must be a mapping of rule-id: error|warning|note|off") }
                for (rk, rv) in map {
                    guard let id = rk.scalar?.string else { throw fail(rk, "rule ids must be strings") }
                    guard config.rules[id] == nil else { throw fail(rk, "rules.\(id) is given twice") }
                    guard knownRules.contains(id) else {
                        throw fail(rk, "unknown rule '\(OutputText.excerpt(id))'\(Suggestion.hint(for: id, in: knownRules.sorted())) (see `entitlint rules`)")
                    }
                    // YAML 1.1 reads a bare `off` (or `no`, `false`) as the boolean false.
                    let raw = rv.scalar?.string ?? ""
                    let isFalse = rv.scalar != nil && rv.resolvedTagName == .bool && rv.bool == false
                    let normalized = isFalse ? "off" : rv.resolvedTagName == .str ? raw : ""
                    guard let setting = RuleSetting(rawValue: normalized) else {
                        throw fail(rv, "rules.\(id) must be error, warning, note or off, not '\(OutputText.excerpt(raw))'")
                    }
                    config.rules[id] = setting
                }
            case "select":
                config.select = try ruleIDs(v, key, knownRules: knownRules, fail: fail)
            case "ignore":
                config.ignore = try ruleIDs(v, key, knownRules: knownRules, fail: fail)
            case "per-file-ignores":
                config.perFileIgnores = try perFileIgnores(v, knownRules: knownRules, fail: fail)
            case "apps":
                guard let seq = v.sequence else { throw fail(v, "'apps' must be a list") }
                for item in seq {
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
                }
            default:
                throw fail(k, "unknown key '\(OutputText.excerpt(key))'\(Suggestion.hint(for: key, in: Self.knownKeys)) (known: \(Self.knownKeys.joined(separator: ", ")))")
            }
        }
        return config
    }

    /// What YAML made of a plain scalar that is not a string, for messages.
    static func yamlTypeName(_ node: Node) -> String {
        switch node.resolvedTagName {
        case .int: return "a number"
        case .float: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .timestamp: return "a date"
        default: return "'\(node.resolvedTagName.rawValue)'"
        }
    }

    /// What a YAML error says without the lines of the document that Yams quotes after it: the
    /// kind, the problem and where (libyaml's texts, which hold none of the document). The
    /// document may be anything a reference named, so nothing of it is repeated.
    public static func yamlProblem(_ error: Error) -> (line: Int, text: String) {
        guard let e = error as? YamlError else { return (0, "not YAML") }
        func describe(_ stage: String, _ context: YamlError.Context?, _ problem: String, _ mark: Mark) -> (Int, String) {
            let during = context.map { "\($0.text) (line \($0.mark.line)), " } ?? ""
            return (mark.line, OutputText.excerpt("\(stage): \(during)\(problem) at line \(mark.line), column \(mark.column)", limit: 200))
        }
        switch e {
        case .scanner(let context, let problem, let mark, _): return describe("scanner", context, problem, mark)
        case .parser(let context, let problem, let mark, _): return describe("parser", context, problem, mark)
        case .composer(let context, let problem, let mark, _): return describe("composer", context, problem, mark)
        case .reader(let problem, _, _, _): return (0, OutputText.excerpt("reader: \(problem)", limit: 200))
        default: return (0, "not YAML")
        }
    }

    /// The folder paths in the file are relative to.
    public var baseDirectory: String { path.map(Paths.directoryName) ?? "." }

    /// A path from the file, made usable from the current folder.
    /// Whether `exclude` leaves out `path` (as given or absolute). Globs are matched against the
    /// path relative to the configuration's folder, so they mean the same files whatever folder
    /// Entitlint runs from (a hook at the repository's root, a configuration in `ios/`).
    public func excludes(_ path: String, cwd: String) -> Bool {
        guard !exclude.isEmpty else { return false }
        let relative = relativePath(path, cwd: cwd)
        return exclude.contains { $0.matches(relative) }
    }

    /// `path` relative to the configuration's folder when below it, else as shown: what
    /// `exclude` and `per-file-ignores` globs are matched against.
    func relativePath(_ path: String, cwd: String) -> String {
        let abs = Paths.absolute(path, cwd: cwd)
        let base = Paths.absolute(baseDirectory, cwd: cwd)
        return abs.hasPrefix(base == "/" ? "/" : base + "/") ? String(abs.dropFirst(base == "/" ? 1 : base.utf8.count + 1))
                                                             : Paths.display(path, cwd: cwd)
    }

    public func resolve(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        let base = baseDirectory
        return base == "." ? p : base + "/" + p
    }
}

extension Configuration {
    /// The folder a configuration may point into: the top of the git work tree holding its folder
    /// (the nearest folder above with a `.git`), else its own folder. Absolute, symlinks resolved.
    public var projectRoot: String {
        ProjectRoot.enclosing(Paths.resolvingSymlinks(Paths.absolute(baseDirectory)))
    }

    /// Refuses a path of the configuration (`lock:`, `baseline:`, `profiles:`, `apps:`'
    /// `entitlements` and `profile`) that lies outside `projectRoot`, symlinks resolved, or in its
    /// `.git` folder: a repository's configuration names files for the run to read (and for
    /// `entitlint lock` to replace), and none may reach outside the project (`../../.ssh/...`,
    /// `/etc/...`, `/` walked for profiles, or a link inside the project that leads out). The
    /// same paths given on the command line are not limited.
    public func checkPathsInsideProject() throws(ConfigError) {
        let root = projectRoot
        let confinement = ProjectRoot(folders: [root])
        var named: [(key: String, value: String, flag: String)] = []
        if let lock { named.append(("lock", lock, "--lock")) }
        if let baseline { named.append(("baseline", baseline, "--baseline")) }
        named += profiles.map { ("profiles", $0, "--profiles") }
        for app in apps {
            named.append(("apps.entitlements", app.entitlements, "a path argument"))
            if let p = app.profile { named.append(("apps.profile", p, "--profile")) }
        }
        for (key, value, flag) in named where !confinement.contains(resolve(value)) {
            throw ConfigError(path: path ?? ".entitlint.yml", line: 0,
                              reason: "\(key): \(OutputText.reference(value)) is outside the project root \(root): a configuration may only name files inside it, not in its .git folder (give \(flag) on the command line for another place)")
        }
    }
}

extension Paths {
    /// `absolute` (an absolute path) with every symlink resolved, as far as the path exists: the
    /// longest existing prefix goes through `realpath(3)`, the rest is appended as written
    /// (`absolute` has already removed `.` and `..`).
    public static func resolvingSymlinks(_ absolute: String) -> String {
        var head = absolute
        var tail: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                var out = String(cString: real)
                for part in tail.reversed() { out += (out == "/" ? "" : "/") + part }
                return out
            }
            let parent = directoryName(head)
            if parent == head { return absolute }
            tail.append(baseName(head))
            head = parent
        }
    }
}
