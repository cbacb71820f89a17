public import PropertyList
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A triggering or non-triggering example of a rule. The examples are the rule's tests and its
/// documentation (`Rules/<id>.md`).
///
/// `entitlements` is the inside of the entitlements `<dict>` (or, when it starts with `<`+`?xml`
/// or `<plist`, a whole file). In a triggering example, `↓` marks where each finding is expected
/// (just before the element the finding points at); the marker is removed before parsing.
public struct RuleExample: Sendable, Hashable {
    public var entitlements: String
    public var bundleID: String?
    public var teamID: String?
    /// When set, the unit gets a profile whose `Entitlements` allowlist is this dict body, with
    /// `TeamIdentifier` and `ApplicationIdentifierPrefix` equal to `teamID`.
    public var profileEntitlements: String?
    /// When set, the lock file records this default access group for the unit.
    public var lockedDefaultGroup: String?
    /// Entries of the example's lock file by unit name (the example's unit is `Example`, its file
    /// `Example.entitlements`), for what `lockedDefaultGroup` cannot say: facts and their sources,
    /// the group list, a unit renamed since.
    public var locked: [String: LockFile.Entry] = [:]
    /// One line for the docs: why this example does or does not trigger.
    public var comment: String?
    /// For project rules: the units of the example's project (`RuleExample.project(_:)`, ProjectRule.swift);
    /// empty for a one-file example.
    public var project: [ProjectExampleUnit] = []
    /// When set, more top-level keys of the example's profile (a dict body: `ExpirationDate`,
    /// `ProvisionedDevices`, `DeveloperCertificates`, ...), after `Name`, `TeamIdentifier` and
    /// `ApplicationIdentifierPrefix`; `profileEntitlements` still gives `Entitlements`. `↓` may
    /// mark findings in it (the profile is a plain plist, so its findings have lines).
    public var profile: String?
    /// When set, the unit is read from a built product: the entitlements are those signed into
    /// its binary (slot 5).
    public var built: Built?
    /// Build settings of the example's Xcode target (name -> value); the unit is then a target's
    /// `Debug` configuration. A name whose value is empty is one this configuration leaves empty.
    public var settings: [String: String] = [:]
    /// When true, the example's file lies in a project's folders and no target signs with it.
    public var unused = false
    /// For a triggering example of a rule with fixes: the file after `lint --fix --unsafe-fixes`
    /// applied the rule's fixes (written as `entitlements` is), a correction example that is
    /// tested and shown on the rule's page; `""` is not used, nil means no correction shown.
    public var fixed: String?
    /// Where the example is written (the rule's source file and line, filled in by the
    /// initialisers' defaults), so that a failing example is reported at its own line.
    public var sourceFile: String
    public var sourceLine: Int

    /// The built product of an example.
    public struct Built: Sendable, Hashable {
        public var platform: Platform
        /// Slot 7 (DER entitlements) as a dict body; nil means the same as slot 5.
        public var derEntitlements: String?
        public var bundleKind: BuiltArtifactFacts.BundleKind
        /// The common name of the certificate that signed the binary (the CMS signature, slot
        /// `0x10000`; its team is the example's `teamID`); nil means signed ad hoc.
        public var signingCertificate: String?
        /// For a watch app: the `keychain-access-groups` the iPhone app that embeds it is signed
        /// with (empty: no iPhone app around it), and whether some file of the watch app mentions
        /// synchronizable items (nil: not known).
        public var phoneAppGroups: [String]
        public var watchSynchronizable: Bool?
        public init(platform: Platform = .iOS, derEntitlements: String? = nil, bundleKind: BuiltArtifactFacts.BundleKind = .app,
                    signingCertificate: String? = nil, phoneAppGroups: [String] = [], watchSynchronizable: Bool? = nil) {
            self.phoneAppGroups = phoneAppGroups
            self.watchSynchronizable = watchSynchronizable
            self.platform = platform
            self.derEntitlements = derEntitlements
            self.bundleKind = bundleKind
            self.signingCertificate = signingCertificate
        }
    }

    public init(_ entitlements: String, bundleID: String? = nil, teamID: String? = nil, profileEntitlements: String? = nil,
                lockedDefaultGroup: String? = nil, comment: String? = nil, profile: String? = nil, built: Built? = nil,
                settings: [String: String] = [:], unused: Bool = false, locked: [String: LockFile.Entry] = [:],
                fixed: String? = nil, file: String = #filePath, line: Int = #line) {
        self.entitlements = entitlements
        self.fixed = fixed
        self.sourceFile = file
        self.sourceLine = line
        self.locked = locked
        self.settings = settings
        self.unused = unused
        self.bundleID = bundleID
        self.teamID = teamID
        self.profileEntitlements = profileEntitlements
        self.lockedDefaultGroup = lockedDefaultGroup
        self.comment = comment
        self.profile = profile
        self.built = built
    }

    public static let marker: Character = "↓"
}

/// A string element of an entitlement array, with its index and position.
public struct StringItem: Sendable, Hashable {
    public var key: String
    public var index: Int
    public var value: String
    public var location: SourceLocation
    /// The value with variables expanded, when the caller computed it (keychain groups).
    public var expansion: VariableExpander.Result?
    public var keyPath: String { "\(key)[\(index)]" }

    /// The string elements of the array entitlement `key` (non-strings skipped).
    public static func items(of key: String, in entitlements: PlistDictionary) -> [StringItem] {
        guard let items = entitlements[key]?.array else { return [] }
        var out: [StringItem] = []
        out.reserveCapacity(items.count)
        for (i, n) in items.enumerated() {
            if let s = n.string { out.append(StringItem(key: key, index: i, value: s, location: n.location, expansion: nil)) }
        }
        return out
    }
}

/// What a rule sees of one unit: the unit and the reference points of the run. A class, so
/// rules and their closures share one instance instead of copying it.
public final class UnitContext: @unchecked Sendable {
    public let unit: SigningUnit
    public let lock: LockFile?
    /// The lock entry (or unit at the `--against` revision) this unit is compared with: the one
    /// of its name, or, for a unit renamed since, the one the run paired it with (`LockFile.pair`).
    public let lockEntry: (name: String, entry: LockFile.Entry)?
    /// The unit's access-group list (keychain-access-groups.md section 1), built when first asked for: in a run
    /// without a lock file or profiles few rules need it, and building it was a seventh of
    /// linting a unit. Locked, since a project's rules may read another unit's context.
    public var accessGroups: AccessGroupList {
        accessGroupsLock.lock()
        defer { accessGroupsLock.unlock() }
        if let built = builtAccessGroups { return built }
        let list = AccessGroupList(unit: unit, expander: expander, keychainExpansions: keychainGroups.map { $0.expansion! })
        builtAccessGroups = list
        return list
    }
    private let accessGroupsLock = MutexLock()
    private var builtAccessGroups: AccessGroupList?
    /// `accessGroups.keychainEntitlementHonoured` without building the list: false when
    /// `keychain-access-groups` is not an array of strings (the system then ignores it).
    public var keychainEntitlementHonoured: Bool { AccessGroupList.keychainEntitlementHonoured(in: unit.entitlements) }
    /// The unit's variable values, built once.
    public let expander: VariableExpander
    /// The string elements of `keychain-access-groups`, read once.
    public let keychainGroups: [StringItem]
    /// "Now" and thresholds of the run, for time-dependent rules (see `CheckSettings`).
    public let settings: CheckSettings
    /// The string elements of `com.apple.security.application-groups`, read when first asked
    /// for (three rules read them). A unit's rules run on one thread, one after another.
    public private(set) lazy var appGroups: [StringItem] = StringItem.items(of: "com.apple.security.application-groups", in: unit.entitlements)
    /// Scans the sources of the run's units; set by the linter (and the rule examples) before
    /// the project rules run. Nil: code is not checked.
    public var codeIndex: CodeIndex?
    /// What the unit's code does with access groups: nil when the run scans no code or the
    /// project does not say what the unit compiles (loose files, built products). Scanned when
    /// first asked for, so a run whose rules never ask reads no source.
    public private(set) lazy var code: UnitCode? = unit.origin?.sources.flatMap { sources in codeIndex?.code(for: sources) }

    public init(unit: SigningUnit, lock: LockFile?, settings: CheckSettings = CheckSettings(),
                lockEntry: (name: String, entry: LockFile.Entry)? = nil) {
        self.unit = unit
        self.lock = lock
        self.lockEntry = lockEntry ?? lock?.namedEntry(for: unit)
        self.settings = settings
        self.expander = unit.expander
        var groups = StringItem.items(of: "keychain-access-groups", in: unit.entitlements)
        for i in groups.indices { groups[i].expansion = expander.expand(groups[i].value) }
        self.keychainGroups = groups
    }

    /// The expansion of a string item: precomputed for keychain groups, else computed now.
    public func expanded(_ item: StringItem) -> VariableExpander.Result {
        item.expansion ?? expand(item.value)
    }

    /// `expander.expand(s)` (cheap: a byte scan, and one pass for strings with references).
    public func expand(_ s: String) -> VariableExpander.Result {
        expander.expand(s)
    }
}



/// A rule: a value type with a description and a check over one signing unit.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func check(_ context: UnitContext) -> [Finding]
    /// The rule as a profile rule, if it is one. A protocol requirement rather than `as?`: a
    /// dynamic cast to a protocol scans every conformance record of the (static) binary, which
    /// cost a pre-commit run two milliseconds.
    var asProfileRule: (any ProfileRule)? { get }
    /// The rule as a project rule, if it is one (same reason).
    var asProjectRule: (any ProjectRule)? { get }
    /// The rule as a reference rule, if it is one (same reason).
    var asReferenceRule: (any ReferenceRule)? { get }
    /// The facts `finding` rests on, of those the rule is certain with (`FactNeeds.certainWith`):
    /// all of them unless the rule says a finding rests on fewer.
    func facts(behind finding: Finding) -> [FactKind]
}

extension Rule {
    public var asProfileRule: (any ProfileRule)? { nil }
    public var asProjectRule: (any ProjectRule)? { nil }
    public var asReferenceRule: (any ReferenceRule)? { nil }
    public func facts(behind finding: Finding) -> [FactKind] { Self.description.facts?.certainWith ?? [] }
}

/// A rule that compares units with the run's reference point (the lock file, or the units at a
/// git revision). Its per-unit check sees the entry of the unit's name; once every unit of the
/// run is known, the linter checks again each unit renamed since against the entry it pairs
/// with (`LockFile.pair`), and hands the rule the entries of a lock file that the run covered
/// and no unit pairs with.
public protocol ReferenceRule: Rule {
    /// `cwd`: the folder the lock file's path is shown relative to.
    func check(unpaired names: [String], in lock: LockFile, cwd: String) -> [Finding]
}

extension ReferenceRule {
    public var asReferenceRule: (any ReferenceRule)? { self }
}

extension Rule {
    public var description: RuleDescription { Self.description }

    /// A finding of this rule at `location` in the unit's entitlements file.
    public func finding(_ message: String, in context: UnitContext, at location: SourceLocation, keyPath: String? = nil) -> Finding {
        Finding(rule: Self.description.id, severity: Self.description.severity, message: message,
                path: context.unit.entitlementsPath, line: location.line, column: location.column,
                unit: context.unit.name, keyPath: keyPath)
    }
}
