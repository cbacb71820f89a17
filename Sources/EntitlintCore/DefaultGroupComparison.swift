/// A unit's default access group and group list against a reference entry (a lock file entry, or
/// the unit at a git revision), compared in one form (keychain-access-groups.md section 4).
///
/// - A fact one side does not know is taken from the other: a lock written with the team
///   unknown (`$(AppIdentifierPrefix)com.example.App`) and a run with it known
///   (`ABCDE12345.com.example.App`) describe the same group; so do a lock written with
///   `--team-id --bundle-id` and a hook run given neither.
/// - A guessed App ID prefix (the Team ID taken for it) gives way to a real one (from a profile, the
///   entitlements or a setting) on the other side: a guess replaced by the real prefix is not a
///   drift. Two real prefixes that differ are a prefix change.
/// - What stays in different forms after that (a variable still unknown on one side only) is not
///   compared (`init` returns nil), unless one side lists the other's default, in the same form,
///   after its own first group: then the two defaults are two groups of one list.
public struct DefaultGroupComparison: Sendable, Hashable {
    /// Why the default moved, which decides the fix (keychain-access-groups.md section 4).
    public enum Cause: Sendable, Hashable {
        /// The App ID prefix changed (team migration, app transfer).
        case prefixChange(from: String, to: String)
        /// The bundle ID changed while the default was the App ID.
        case bundleIDChange(from: String, to: String)
        /// Another group is first: a reorder, a group put first, the first group renamed.
        case otherFirstGroup
    }

    /// The reference's default and the unit's, in the form they were compared in.
    public var oldDefault: String
    public var newDefault: String
    /// Nil when the default did not move.
    public var cause: Cause?
    /// Whether the old default is still in the unit's list (items there are still found).
    public var oldDefaultStillListed: Bool
    /// The reference's App ID, in the compared form, when its bundle ID is known.
    public var oldAppID: String?
    /// The reference's App ID prefix, when known (after a guess gave way).
    public var oldPrefix: String?
    /// Keychain groups of the reference that the unit no longer lists, besides the default and the
    /// App ID (app groups, `group.`, and `com.apple.token` left out). Empty after a prefix change,
    /// which moves every group at once.
    public var removedGroups: [String]

    public init?(entry: LockFile.Entry, unit: SigningUnit, list: AccessGroupList) {
        guard let current = list.defaultGroup else { return nil }
        var oldPrefix = entry.appIDPrefix ?? Self.inferredPrefix(entry)
        var newPrefix = unit.appIDPrefix?.value
        let newGuessed: Bool
        // Any prefix taken from the team, stated or not: the lock records it as a guess too.
        switch unit.appIDPrefix?.source {
        case .derived?, .assumed?: newGuessed = true
        default: newGuessed = false
        }
        var rewriteOld: (from: String, to: String)?
        var rewriteNew: (from: String, to: String)?
        if let o = oldPrefix, let n = newPrefix, o != n {
            if entry.prefixWasGuessed && !newGuessed {
                rewriteOld = (o, n)
                oldPrefix = n
            } else if newGuessed && !entry.prefixWasGuessed {
                rewriteNew = (n, o)
                newPrefix = o
            }
        }
        let oldBundle = entry.bundleID ?? unit.bundleID?.value
        let newBundle = unit.bundleID?.value ?? entry.bundleID
        let oldExpander = VariableExpander(appIDPrefix: oldPrefix ?? newPrefix, teamID: entry.teamID ?? unit.teamID?.value,
                                           bundleID: oldBundle, extra: unit.variables)
        let newExpander = VariableExpander(appIDPrefix: newPrefix ?? oldPrefix, teamID: unit.teamID?.value ?? entry.teamID,
                                           bundleID: newBundle, extra: unit.variables)
        func form(_ s: String, _ expander: VariableExpander, _ rewrite: (from: String, to: String)?) -> String {
            var text = expander.expand(s).text
            if let r = rewrite, text.hasPrefix(r.from + ".") { text = r.to + text.dropFirst(r.from.count) }
            return text
        }
        let oldDefault = form(entry.defaultAccessGroup, oldExpander, rewriteOld)
        let newDefault = form(current.value, newExpander, rewriteNew)
        let newList = list.entries.map { form($0.value, newExpander, rewriteNew) }
        if Self.references(oldDefault) != Self.references(newDefault) {
            // Different forms (`$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)` and
            // `$(AppIdentifierPrefix)com.example.shared`, the bundle ID unknown on both sides) are
            // still two groups when one side lists the other's default, in the same form, after
            // its own first group: a list names a group once (a repeat is another rule's).
            let oldList = entry.accessGroups.map { form($0, oldExpander, rewriteOld) }
            guard newList.dropFirst().contains(oldDefault) || oldList.dropFirst().contains(newDefault) else { return nil }
        }
        let oldAppID = oldBundle.map { form("$(AppIdentifierPrefix)" + $0, oldExpander, rewriteOld) }

        self.oldDefault = oldDefault
        self.newDefault = newDefault
        self.oldAppID = oldAppID
        self.oldPrefix = oldPrefix
        oldDefaultStillListed = newList.contains(oldDefault)
        if oldDefault == newDefault {
            cause = nil
        } else if let o = oldPrefix, let n = newPrefix, o != n, oldDefault.hasPrefix(o + ".") {
            cause = .prefixChange(from: o, to: n)
        } else if let ob = entry.bundleID, let nb = unit.bundleID?.value, ob != nb, oldDefault == oldAppID {
            cause = .bundleIDChange(from: ob, to: nb)
        } else {
            cause = .otherFirstGroup
        }
        if case .prefixChange? = cause {
            removedGroups = []
        } else {
            // Compared only where both lists are in one form: a concrete group against concrete ones.
            let listed = Set(newList)
            let newConcrete = newList.allSatisfy { Self.references($0).isEmpty }
            var seen = Set<String>()
            // A group is still there in its recorded form or with a guessed prefix given way: the
            // lock cannot say which groups were written with `$(AppIdentifierPrefix)`.
            removedGroups = entry.accessGroups.filter { raw in
                let g = form(raw, oldExpander, rewriteOld)
                let asRecorded = oldExpander.expand(raw).text
                return g != oldDefault && g != oldAppID && !g.hasPrefix("group.") && g != "com.apple.token"
                    && !listed.contains(g) && !listed.contains(asRecorded) && Self.references(g).isEmpty == newConcrete
            }.map { form($0, oldExpander, rewriteOld) }.filter { seen.insert($0).inserted }
        }
    }

    /// The prefix of an entry that does not record it: the part before the App ID's bundle ID.
    static func inferredPrefix(_ entry: LockFile.Entry) -> String? {
        guard let bundle = entry.bundleID else { return nil }
        for g in entry.accessGroups where g.hasSuffix("." + bundle) {
            let prefix = String(g.dropLast(bundle.count + 1))
            if prefix.isTeamIDLike { return prefix }
        }
        return nil
    }

    /// The variable references left in `s`, as written: equal sets mean the same form.
    static func references(_ s: String) -> [String] {
        guard VariableExpander.mayContainReference(s) else { return [] }
        return VariableExpander.references(in: s).map(\.written).sorted()
    }
}
