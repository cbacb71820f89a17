/// `.entitlint.yml` (Rules/reference/configuration.md):
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
/// The values only: EntitlintWorkspace finds and reads the file (`Configuration.load`).
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

        package init(name: String? = nil, entitlements: String, bundleID: String? = nil, profile: String? = nil, team: String? = nil) {
            self.name = name
            self.entitlements = entitlements
            self.bundleID = bundleID
            self.profile = profile
            self.team = team
        }
    }

    public enum RuleSetting: String, Sendable, Hashable {
        case error, warning, note, off

        /// The severity this setting gives a rule's findings; nil for `off` (the rule does not run
        /// and reports nothing).
        public var severity: Severity? {
            switch self {
            case .error: return .error
            case .warning: return .warning
            case .note: return .note
            case .off: return nil
            }
        }
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

    /// The name of a configuration file.
    public static let fileName = ".entitlint.yml"

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

