public import EntitlintCore

/// Line-independent identities of findings, for code hosts that track an alert across commits
/// (SARIF `partialFingerprints.primaryLocationLineHash`, GitLab Code Quality `fingerprint`).
///
/// A finding is identified by its rule, its path relative to the repository root and its plist key
/// path (`keychain-access-groups[2]`), never by its line, column or message (messages quote line
/// numbers, e.g. duplicate-key's "given again on line 9"): an edit above a finding, or a profile,
/// which has no lines at all, keeps the alert. When several findings share that identity (a rule
/// without key paths reporting twice in a file) they are told apart by their rank among those
/// findings, in report order, as CodeQL numbers line hashes (`hash:1`, `hash:2`).
///
/// The hash is 64-bit FNV-1a (`StableHash`), written as 16 hex digits: stable across platforms and
/// releases, which Swift's `Hasher` is not. It is an identity, not a security measure.
public struct Fingerprint: Sendable, Hashable {
    /// Hash of rule, path and key path, 16 lower-case hex digits.
    public var identity: String
    /// 1 for the first finding with this identity in the report, 2 for the next, ...
    public var occurrence: Int

    /// `identity:occurrence`, the shape of CodeQL's `primaryLocationLineHash`.
    public var lineHash: String { "\(identity):\(occurrence)" }

    /// One fingerprint per finding, in the same order.
    public static func of(_ findings: [Finding], path: (Finding) -> String) -> [Fingerprint] {
        var seen: [String: Int] = [:]
        return findings.map { f in
            let identity = hex(fnv1a64([f.rule, path(f), f.keyPath ?? ""]))
            let n = (seen[identity] ?? 0) + 1
            seen[identity] = n
            return Fingerprint(identity: identity, occurrence: n)
        }
    }

    static func fnv1a64(_ parts: [String]) -> UInt64 { StableHash.fnv1a64(parts) }
    static func hex(_ v: UInt64) -> String { StableHash.hex(v) }
}
