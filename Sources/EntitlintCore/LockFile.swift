#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `entitlint.lock`: each unit's default access group and ordered group list, committed so
/// that a later change of the default (keychain-access-groups.md section 4) is caught.
///
/// Format version 1. Fields were added over time, never renamed or removed: a file that lacks
/// the newer ones (`entitlements`, `app-id-prefix`, `team-id`, `sources`) still loads, and its
/// entries are compared as written (nothing tells whether their prefix was a guess).
public struct LockFile: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var bundleID: String?
        public var defaultAccessGroup: String
        public var accessGroups: [String]
        /// The file the unit was read from (its entitlements file, or its project file when the
        /// target has none), relative to the lock file's folder: pairs a unit renamed with its
        /// bundle ID to its entry, and tells whether an entry that no unit pairs with was in the run.
        public var entitlements: String?
        public var appIDPrefix: String?
        public var teamID: String?
        /// Where each fact came from, by fact (`app-id-prefix`, `bundle-id`, `team-id`).
        public var sources: [String: Source]?

        public init(bundleID: String?, defaultAccessGroup: String, accessGroups: [String], entitlements: String? = nil,
                    appIDPrefix: String? = nil, teamID: String? = nil, sources: [String: Source]? = nil) {
            self.bundleID = bundleID
            self.defaultAccessGroup = defaultAccessGroup
            self.accessGroups = accessGroups
            self.entitlements = entitlements
            self.appIDPrefix = appIDPrefix
            self.teamID = teamID
            self.sources = sources
        }

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle-id"
            case defaultAccessGroup = "default-access-group"
            case accessGroups = "access-groups"
            case entitlements
            case appIDPrefix = "app-id-prefix"
            case teamID = "team-id"
            case sources
        }

        /// Whether the App ID prefix recorded was a guess (the Team ID taken for it). False when
        /// it came from a profile, the entitlements or a setting, and when the entry does not say.
        public var prefixWasGuessed: Bool { sources?["app-id-prefix"]?.kind == .guess }
    }

    /// Where a recorded fact came from.
    public struct Source: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            case flag, config, profile, entitlements, setting, guess, derived
        }
        public var kind: Kind
        /// The source in words that do not change with the folder the lock is written from or
        /// with edits elsewhere in a file: `--team-id`, a setting's name, a profile's file name,
        /// an entitlement's key, `App ID prefix taken to be the Team ID`.
        public var detail: String

        public init(kind: Kind, detail: String) {
            self.kind = kind
            self.detail = detail
        }

        /// `fact`'s source. A derived App ID prefix is always the Team ID taken for it: a guess.
        init(_ source: FactSource, isPrefix: Bool) {
            switch source {
            case .flag(let f): (kind, detail) = (.flag, f)
            case .config(let p): (kind, detail) = (.config, Paths.baseName(p))
            case .profile(let p): (kind, detail) = (.profile, Paths.baseName(p))
            case .entitlements(let key): (kind, detail) = (.entitlements, key)
            case .xcode(let setting):
                let name = setting.firstRange(of: " at ").map { String(setting[..<$0.lowerBound]) } ?? setting
                (kind, detail) = (.setting, name)
            case .assumed(let why), .derived(let why):
                if isPrefix { (kind, detail) = (.guess, "App ID prefix taken to be the Team ID") }
                else { (kind, detail) = (.derived, why.firstRange(of: " at ").map { String(why[..<$0.lowerBound]) } ?? why) }
            }
        }
    }

    public var version: Int
    /// Keyed by unit name.
    public var units: [String: Entry]
    /// What the entries were taken from, for messages, when not a lock file: `revision main`
    /// for `--against main`. Not written to the file.
    public var reference: String?
    /// The lock file's path as shown, when read from a file; its folder is the base of the
    /// entries' `entitlements` paths (else the current folder). Not written to the file.
    public var path: String?

    /// The bundle IDs and files the entries record, for `hasReference`: built by `init`, `load`
    /// and `indexEntries()`; used while the number of entries is the one indexed (only
    /// `entitlint lock` changes entries, and it does not ask), else the entries are scanned.
    /// Not written.
    public private(set) var referenceIndex: ReferenceIndex?

    public struct ReferenceIndex: Sendable, Hashable {
        var bundleIDs: Set<String>
        var files: Set<String>
        var count: Int
    }

    enum CodingKeys: String, CodingKey {
        case version, units
    }

    /// Decoded field by field so that a `version` that is no whole number is an error at its key.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeWholeNumber(forKey: .version, in: Int.min...Int.max, what: "a version")
        units = try c.decode([String: Entry].self, forKey: .units)
    }

    public init(units: [String: Entry] = [:]) {
        self.version = 1
        self.units = units
        indexEntries()
    }

    /// Builds `referenceIndex` from the entries as they are.
    public mutating func indexEntries() {
        referenceIndex = ReferenceIndex(bundleIDs: Set(units.values.compactMap(\.bundleID)),
                                        files: Set(units.values.compactMap(\.entitlements)), count: units.count)
    }

    /// The entry recording `unit`; `folder` (absolute) is the base of its `entitlements` path.
    public static func entry(for unit: SigningUnit, folder: String? = nil, cwd: String) -> Entry {
        let list = unit.accessGroups
        var sources: [String: Source] = [:]
        if let f = unit.appIDPrefix { sources["app-id-prefix"] = Source(f.source, isPrefix: true) }
        if let f = unit.bundleID { sources["bundle-id"] = Source(f.source, isPrefix: false) }
        if let f = unit.teamID { sources["team-id"] = Source(f.source, isPrefix: false) }
        let file = Paths.absolute(unit.entitlementsPath, cwd: cwd)
        return Entry(bundleID: unit.bundleID?.value, defaultAccessGroup: list.defaultGroup?.value ?? "",
                     accessGroups: list.distinctValues,
                     entitlements: Baseline.relativePath(file, from: folder ?? cwd),
                     appIDPrefix: unit.appIDPrefix?.value, teamID: unit.teamID?.value, sources: sources.isEmpty ? nil : sources)
    }

    /// The absolute path of an entry's file, or nil when it records none.
    public func file(of entry: Entry, cwd: String) -> String? {
        guard let f = entry.entitlements else { return nil }
        let base = path.map { Paths.absolute(Paths.directoryName($0), cwd: cwd) } ?? cwd
        return Paths.absolute(f, cwd: base)
    }

    /// The entry named as the unit, if any.
    public func namedEntry(for unit: SigningUnit) -> (name: String, entry: Entry)? {
        units[unit.name].map { (unit.name, $0) }
    }

    /// Whether some entry records `unit`: one of its name, or, for a unit renamed since, one of
    /// its bundle ID or read from its file. Two set lookups with the index, else one pass.
    public func hasReference(for unit: SigningUnit, cwd: String) -> Bool {
        if units[unit.name] != nil { return true }
        let bundle = unit.bundleID?.value
        let file = relativeFile(of: unit, cwd: cwd)
        if let index = referenceIndex, index.count == units.count {
            return bundle.map(index.bundleIDs.contains) == true || index.files.contains(file)
        }
        return units.values.contains { e in (bundle != nil && e.bundleID == bundle) || e.entitlements == file }
    }

    /// The unit's file as an entry of this lock records it: relative to the lock's folder.
    func relativeFile(of unit: SigningUnit, cwd: String) -> String {
        let base = path.map { Paths.absolute(Paths.directoryName($0), cwd: cwd) } ?? cwd
        return Baseline.relativePath(Paths.absolute(unit.entitlementsPath, cwd: cwd), from: base)
    }

    /// Sorted, pretty, stable JSON with a final newline.
    public func encoded() -> [UInt8] {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? enc.encode(self)) ?? Data()
        return Array(data) + [0x0A]
    }

    /// The line of each entry in `encoded()` (1 for a name not found), where findings about the
    /// entries point. One encoding and one pass over it, however many entries are asked for.
    public func lines(of names: [String]) -> [String: Int] {
        let enc = JSONEncoder()
        enc.outputFormatting = [.withoutEscapingSlashes]
        var wanted: [String: String] = [:]
        for name in names {
            guard let key = try? enc.encode(name) else { continue }
            wanted["    " + String(decoding: key, as: UTF8.self) + " : {"] = name
        }
        var out: [String: Int] = [:]
        var line = 1
        for l in String(decoding: encoded(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if l.hasPrefix("    \""), l.hasSuffix(" : {"), let name = wanted[String(l)] { out[name] = line }
            line += 1
        }
        for name in names where out[name] == nil { out[name] = 1 }
        return out
    }
}

extension LockFile {
    /// The lock file when neither `--lock` nor the configuration's `lock:` names one:
    /// `entitlint.lock` beside the configuration, else in the current folder.
    public static func defaultPath(_ configuration: Configuration?) -> String {
        configuration?.resolve("entitlint.lock") ?? "entitlint.lock"
    }
}
