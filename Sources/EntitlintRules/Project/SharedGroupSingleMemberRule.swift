import EntitlintCore

/// `shared-group-single-member` (keychain-access-groups.md sections 1 and 4): a group meant for sharing that only
/// one target of the run claims.
struct SharedGroupSingleMemberRule: ProjectRule {
    static let description = RuleDescription(
        id: "shared-group-single-member", severity: .note,
        category: .project, readsOnlyTheFile: false, precision: .medium, facts: .nothing,
        summary: "A keychain or app group meant for sharing (not the unit's own App ID) that no other target of the project claims.",
        rationale: """
        A keychain access group other than the app's own App ID, or an app group, exists to share items with other \
        apps and extensions of the same team (keychain-access-groups.md section 1). When only one target of the project lists it, \
        nothing is shared: often a typo in one of the lists, a target that was removed, or sharing turned on half-way. \
        A group's members are counted per target (all configurations of a target are one member), over every unit of \
        the app family; the unit's own App ID is never reported. A group only one target claims is often shared with \
        apps outside the project (another repository of the team, a vendor's single sign-on group), so the rule \
        reports one only with evidence of a mistake: a shared group that differs from it by one or two letters (a \
        typo), or, for an app group, the host or an extension of the target listing app groups but none at all. \
        Groups the configuration lists under `external-groups` (shared outside the project) are never reported.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.sahred</string>\n</array>"),
            ], comment: "A typo: each app claims a group the other does not."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>com.apple.security.application-groups</key>\n<array/>"),
            ], comment: "The widget never joined the app group."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ]),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>"),
            ], comment: "The extension shares its host's own group: the host claims it as its App ID."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        // Every group of every unit's list counts as a claim, the App ID included (an extension may
        // share its host's own group).
        var claimers: [String: Set<String>] = [:]
        for c in units {
            for e in c.accessGroups.entries { claimers[e.value, default: []].insert(c.unit.targetKey) }
        }
        let all = claimers.keys.sorted()
        var out: [Finding] = []
        for c in units where c.unit.origin != nil {
            for e in c.sharingClaims where claimers[e.value]?.count == 1 && !c.settings.isExternal(value: e.value, raw: e.raw) {
                let kind = UnitContext.kindName(e)
                let others = all.filter { claimers[$0]?.contains(c.unit.targetKey) == false }
                if let near = Self.nearMiss(e.value, among: others) {
                    out.append(finding("\(kind) \"\(e.value)\" is claimed by no other target of the project, while another target claims \"\(near)\", which differs by a letter or two: a typo here or there is the usual cause",
                                       in: c, at: c.location(of: e), keyPath: e.keyPath))
                } else if e.origin == .appGroup, let partner = Self.partnerWithoutAppGroups(of: c, in: units) {
                    out.append(finding("\(kind) \"\(e.value)\" is claimed by no other target of the project, and \(partner) lists app groups but none: add the group to the targets meant to share it, or remove it",
                                       in: c, at: c.location(of: e), keyPath: e.keyPath))
                }
                // Otherwise the group may well be shared with apps outside the project (another
                // repository of the same team, a vendor's SSO group): nothing to say.
            }
        }
        return out
    }

    /// A group of another target within two edits of `value` (and not equal to it), compared only when the
    /// lengths allow it; at most 1,000 candidates are compared, each in O(length) space.
    static func nearMiss(_ value: String, among shared: [String]) -> String? {
        let a = Array(value.utf8)
        guard a.count <= 512 else { return nil }
        for candidate in shared.prefix(1_000) {
            let b = Array(candidate.utf8)
            guard abs(a.count - b.count) <= 2, b.count <= 512, a != b else { continue }
            if editDistance(a, b, limit: 2) <= 2 { return candidate }
        }
        return nil
    }

    /// Levenshtein distance, or `limit + 1` once every path exceeds `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMin = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : (b.isEmpty ? a.count : previous[b.count])
    }

    /// The host or an extension of `c`'s target that has `com.apple.security.application-groups`
    /// with no group in it: it meant to share and joined nothing.
    static func partnerWithoutAppGroups(of c: UnitContext, in units: [UnitContext]) -> String? {
        guard let origin = c.unit.origin else { return nil }
        for other in units where other.unit.targetKey != c.unit.targetKey {
            guard let o = other.unit.origin, o.projectFile == origin.projectFile,
                  o.hostTarget == origin.target || origin.hostTarget == o.target,
                  let list = other.unit.entitlements.entry("com.apple.security.application-groups")?.value.array, list.isEmpty else { continue }
            return "target \(o.target)"
        }
        return nil
    }
}
