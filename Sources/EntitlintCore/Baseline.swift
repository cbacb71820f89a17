#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import PropertyList

/// A baseline: the findings a project has accepted for now (`lint --write-baseline FILE`), hidden
/// from later runs (`lint --baseline FILE`, or `baseline:` in the configuration) so that only new
/// ones are reported.
///
/// Entries are keyed on rule + path + plist key path (+ the profile's UUID for findings in a
/// profile) + the hash of the offending value, never on line numbers: editing a file elsewhere
/// does not bring its findings back; replacing a profile, or one bad value by another, does.
/// Paths are relative to the baseline's folder, so the file works from any current folder. The
/// JSON is sorted and stable:
///
/// ```json
/// { "findings" : [ { "key-path" : "keychain-access-groups[0]", "path" : "App/App.entitlements",
///                    "rule" : "wildcard-access-group", "value-hash" : "a3f1c2d4e5b60718" } ],
///   "version" : 1 }
/// ```
///
/// `value-hash` is `StableHash.of` the element the finding points at (a value, or a dict entry's
/// key and value) in the entitlements file; a finding that points at no element (a comment, a
/// profile, a file as a whole) has none. An entry written before the field existed has none
/// either, and matches a finding on the rest of its key, whatever the value.
public struct Baseline: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable, Comparable {
        public var rule: String
        /// Relative to the baseline's folder, with `/`.
        public var path: String
        public var keyPath: String?
        /// The UUID of the profile a finding in a profile file concerns.
        public var profile: String?
        /// The hash of the offending value (`StableHash.of`), when the finding points at one.
        public var valueHash: String?
        /// How many findings share this key (omitted when 1).
        public var count: Int?

        public init(rule: String, path: String, keyPath: String? = nil, profile: String? = nil, valueHash: String? = nil, count: Int? = nil) {
            self.rule = rule
            self.path = path
            self.keyPath = keyPath
            self.profile = profile
            self.valueHash = valueHash
            self.count = count
        }

        enum CodingKeys: String, CodingKey {
            case rule, path, profile, count
            case keyPath = "key-path"
            case valueHash = "value-hash"
        }

        /// Decoded field by field so that `count` is checked at load (1 to `Baseline.maxCount`).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            rule = try c.decode(String.self, forKey: .rule)
            path = try c.decode(String.self, forKey: .path)
            keyPath = try c.decodeIfPresent(String.self, forKey: .keyPath)
            profile = try c.decodeIfPresent(String.self, forKey: .profile)
            valueHash = try c.decodeIfPresent(String.self, forKey: .valueHash)
            count = try c.decodeWholeNumberIfPresent(forKey: .count, in: 1...Baseline.maxCount, what: "a count")
        }

        /// The entry without its count: what findings are matched on.
        public var key: Entry { Entry(rule: rule, path: path, keyPath: keyPath, profile: profile, valueHash: valueHash) }
        /// The key without the value's hash: how an entry written without one matches.
        var keyWithoutValue: Entry { Entry(rule: rule, path: path, keyPath: keyPath, profile: profile) }
        package var times: Int { count ?? 1 }

        public static func < (a: Entry, b: Entry) -> Bool {
            (a.path, a.rule, a.keyPath ?? "", a.profile ?? "", a.valueHash ?? "") < (b.path, b.rule, b.keyPath ?? "", b.profile ?? "", b.valueHash ?? "")
        }

        /// `rule path [key path] [profile UUID]`, for listing unmatched entries.
        public var summary: String {
            var s = "\(rule) \(path)"
            if let keyPath { s += " \(keyPath)" }
            if let profile { s += " (profile \(profile))" }
            if let valueHash { s += " (value \(valueHash))" }
            return s
        }
    }

    public var version: Int
    public var findings: [Entry]

    /// The largest `count` an entry may have: far above the findings any run reports (the
    /// `max-findings` ceiling is 100,000), far below where adding counts could overflow. A file
    /// with a larger one is refused at load; counts added up in memory stop here.
    public static let maxCount = 1_000_000_000

    public init(findings: [Entry] = []) {
        version = 1
        self.findings = findings
    }

    enum CodingKeys: String, CodingKey {
        case version, findings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeWholeNumber(forKey: .version, in: Int.min...Int.max, what: "a version")
        findings = try c.decode([Entry].self, forKey: .findings)
    }

    /// `a + b`, at most `maxCount`: counts from a file are at most `maxCount` each, and however
    /// many entries share a key their sum neither traps nor grows past what a file may hold.
    package static func addCounts(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? maxCount : min(sum, maxCount)
    }

    package static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing '\(key.stringValue)'\(Self.at(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type\(Self.at(context.codingPath))"
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "not JSON" : "bad value\(Self.at(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    static func at(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    /// Sorted, pretty, stable JSON with a final newline.
    public func encoded() -> [UInt8] {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? enc.encode(self)) ?? Data()
        return Array(data) + [0x0A]
    }

    // MARK: - Keys

    /// Turns the findings of a run into baseline keys relative to the baseline's folder.
    public struct Keyer: Sendable {
        /// The absolute folder of the baseline file.
        public var directory: String
        public var cwd: String
        /// UUID by profile path as shown (from `LintResult.profiles`).
        public var profileUUIDs: [String: String]
        /// The entitlements documents of the run by path as shown (`LintResult.units`), where
        /// the offending values are looked up.
        public var documents: [String: PlistDocument]

        public init(baselinePath: String, profiles: [ProfileFile], units: [SigningUnit] = [], cwd: String) {
            self.cwd = cwd
            directory = Paths.directoryName(Paths.absolute(baselinePath, cwd: cwd))
            var uuids: [String: String] = [:]
            for p in profiles { if let u = p.profile.uuid { uuids[p.path] = u.uppercased() } }
            profileUUIDs = uuids
            documents = FindingStage.documents(of: units)
        }

        /// A path as shown in findings (relative to the current folder), relative to the baseline.
        public func path(_ shown: String) -> String {
            Baseline.relativePath(Paths.absolute(shown, cwd: cwd), from: directory)
        }

        /// The key of one finding (`keys` for many: each document is walked once per call).
        public func key(_ f: Finding) -> Entry { keys([f])[0] }

        /// The keys of `findings`, in order. Each document with findings is walked once, and
        /// each element's value hashed once however many findings point at it.
        public func keys(_ findings: [Finding]) -> [Entry] {
            var work = 0
            return keys(findings, work: &work)
        }

        /// `keys`, counting the values hashed (`StableHash.of`).
        public func keys(_ findings: [Finding], work: inout Int) -> [Entry] {
            var wanted: [String: Set<SourceLocation>] = [:]
            for f in findings where f.line > 0 && documents[f.path] != nil {
                wanted[f.path, default: []].insert(SourceLocation(line: f.line, column: f.column))
            }
            var hashes: [String: [SourceLocation: String]] = [:]
            for (path, locations) in wanted {
                var found: [SourceLocation: String] = [:]
                PlistWalk.forEach(documents[path]!.root) { element in
                    let at = element.location
                    // The first element at a place is the outer one (a dict entry before its value).
                    if locations.contains(at), found[at] == nil { found[at] = StableHash.of(element, work: &work) }
                    return found.count < locations.count
                }
                hashes[path] = found
            }
            return findings.map { f in
                Entry(rule: f.rule, path: path(f.path), keyPath: f.keyPath, profile: profileUUIDs[f.path],
                      valueHash: hashes[f.path]?[SourceLocation(line: f.line, column: f.column)])
            }
        }
    }

    /// `target` relative to the folder `base` (both absolute), with `..` where needed.
    public static func relativePath(_ target: String, from base: String) -> String {
        let t = target.split(separator: "/")
        let b = base.split(separator: "/")
        var common = 0
        while common < t.count, common < b.count, t[common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: b.count - common)
        let parts = up + t[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    // MARK: - Recording and applying

    /// The baseline of `findings`. Entries of `previous` for files not checked in this run
    /// (`checked`: paths as shown in findings) are kept, as the lock file keeps units not in the run.
    public static func recording(_ findings: [Finding], keyer: Keyer, checked: [String], previous: Baseline?) -> Baseline {
        var counts: [Entry: Int] = [:]
        for key in keyer.keys(findings) { counts[key] = addCounts(counts[key] ?? 0, 1) }
        let checkedPaths = Set(checked.map(keyer.path))
        for e in previous?.findings ?? [] where !checkedPaths.contains(e.path) {
            counts[e.key] = addCounts(counts[e.key] ?? 0, e.times)
        }
        let entries = counts.map { key, n in
            var e = key
            e.count = n > 1 ? n : nil
            return e
        }
        return Baseline(findings: entries.sorted())
    }

    public struct Application: Sendable {
        /// The findings not in the baseline: what the run reports.
        public var findings: [Finding]
        /// How many findings the baseline hid.
        public var hidden: Int
        /// Entries for files checked in this run that matched no finding (or fewer than their
        /// count): fixed since, so the baseline can be pruned.
        public var unmatched: [Entry]
    }

    /// Hides the findings the baseline lists. Entries of files not checked in this run are
    /// neither used nor reported as unmatched. An entry with a value hash matches findings with
    /// that hash; one without (written before the field existed) matches on the rest of the key.
    public func apply(to findings: [Finding], keyer: Keyer, checked: [String]) -> Application {
        var remaining: [Entry: Int] = [:]
        for e in self.findings { remaining[e.key] = Self.addCounts(remaining[e.key] ?? 0, e.times) }
        var kept: [Finding] = []
        var hidden = 0
        for (f, key) in zip(findings, keyer.keys(findings)) {
            let match = remaining[key].map { $0 > 0 } == true ? key : key.keyWithoutValue
            if let n = remaining[match], n > 0 {
                remaining[match] = n - 1
                hidden += 1
            } else {
                kept.append(f)
            }
        }
        let checkedPaths = Set(checked.map(keyer.path))
        var unmatched: [Entry] = []
        for (key, n) in remaining where n > 0 && checkedPaths.contains(key.path) {
            var e = key
            e.count = n > 1 ? n : nil
            unmatched.append(e)
        }
        return Application(findings: kept, hidden: hidden, unmatched: unmatched.sorted())
    }
}
