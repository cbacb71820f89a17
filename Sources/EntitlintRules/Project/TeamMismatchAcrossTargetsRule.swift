import EntitlintCore

/// `team-mismatch-across-targets` (keychain-access-groups.md section 2): units that claim the same group under
/// different teams or App ID prefixes.
struct TeamMismatchAcrossTargetsRule: ProjectRule {
    static let description = RuleDescription(
        id: "team-mismatch-across-targets", severity: .error,
        category: .project, readsOnlyTheFile: false, precision: .high,
        facts: FactNeeds(needs: [.teamID], certainWith: [.appIDPrefix], whenAssumed: .warning),
        summary: "Targets that claim the same group but have different teams or App ID prefixes, so they can never share it.",
        rationale: """
        Keychain items cannot move between teams: a keychain access group is `PREFIX.name`, and the prefix is the \
        App ID prefix of the app (keychain-access-groups.md section 2). When two targets write the same group as \
        `$(AppIdentifierPrefix)com.example.shared` but are signed by different teams (or a team with a legacy prefix), \
        they get two different groups and share nothing; an app group, registered by one team, cannot be claimed by \
        another. Targets are compared within the same configuration (a Debug team may differ from a Release team), \
        and each finding names the other targets and their prefixes. The teams and prefixes compared are \
        the units' own (from the project, the configuration or the profile), never a group's first component; a \
        unit whose prefix is unknown is not compared. Per-unit prefix errors are `team-prefix-mismatch`'s. \
        Targets of different teams never share a prefix; targets of one team differ only when a prefix is not \
        the Team ID (a legacy prefix), which is certain only when both prefixes are known: while this target's \
        prefix is only assumed to be its Team ID, the finding is a warning whose note says so, and a target \
        whose assumed prefix is its team's own, the same team as this one, is not taken to differ.

        An app and the extensions, watch app or App Clip it embeds must be signed by one team: an app that \
        embeds a target of another team cannot be installed on a device or uploaded. When both teams come from \
        the project's settings for the same configuration, the app's team setting is reported (a warning: a \
        configuration that is never built for a device is unaffected).
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ZYXWV98765", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "AppTwo moved to another team: the same line gives two different groups."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "↓<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ZYXWV98765", host: "AppOne", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>"),
            ], comment: "An app group claimed by two teams; and the app embeds a widget of another team."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ZYXWV98765", configuration: "Staging", entitlements: "↓<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.staging</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ABCDE12345", host: "AppOne", configuration: "Staging", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.widget</string>\n</array>"),
            ], comment: "The app's Staging configuration moved to another team; its widget did not."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ]),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", configuration: "Release", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppTwo", bundleID: "com.example.AppTwo", teamID: "ZYXWV98765", configuration: "Debug", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "Different configurations are not compared: Debug and Release may be signed by different teams."),
        ]
    )

    struct Claim {
        var context: UnitContext
        var entry: AccessGroupEntry
        var prefix: String
    }

    func check(project units: [UnitContext]) -> [Finding] {
        sharingFindings(units) + embeddingFindings(units)
    }

    /// How a keychain finding that rests on the targets' App ID prefixes says so: targets of one
    /// team, or of a team not known, whose prefixes differ. Only such a finding is capped while this
    /// unit's prefix is assumed; one between teams known to differ holds whatever the prefixes are
    /// (a prefix belongs to one team), and an app group's rests on the teams.
    static let prefixWords = "targets of different App ID prefixes get different groups"

    func facts(behind finding: Finding) -> [FactKind] {
        finding.message.contains(Self.prefixWords) ? [.appIDPrefix] : []
    }

    /// Whether `a` and `b` are of two teams, both known.
    static func teamsDiffer(_ a: SigningUnit, _ b: SigningUnit) -> Bool {
        guard let x = a.teamID?.value, let y = b.teamID?.value else { return false }
        return x != y
    }

    /// Apps that embed a target of another team in the same configuration, both teams set in the
    /// project: one finding per app configuration, at its team, naming the targets.
    func embeddingFindings(_ units: [UnitContext]) -> [Finding] {
        /// A team that is known (the project's setting, a profile, a flag, the configuration), not assumed.
        func projectTeam(_ u: SigningUnit) -> String? {
            u.certainty(of: .teamID).isKnown ? u.teamID?.value : nil
        }
        var hostsByKey: [String: UnitContext] = [:]
        for c in units {
            guard let o = c.unit.origin, o.kind == .app || o.kind == .watchApp else { continue }
            hostsByKey[o.projectFile + "#" + o.target + "#" + o.configuration + "#" + (o.sdk ?? "")] = c
        }
        var others: [String: [String]] = [:]
        var order: [String] = []
        for c in units {
            guard let o = c.unit.origin, let hostName = o.hostTarget, let team = projectTeam(c.unit) else { continue }
            let key = o.projectFile + "#" + hostName + "#" + o.configuration + "#" + (o.sdk ?? "")
            guard let host = hostsByKey[key], let hostTeam = projectTeam(host.unit), hostTeam != team else { continue }
            if others[key] == nil { order.append(key) }
            others[key, default: []].append("\(o.target) (\(team))")
        }
        return order.compactMap { key in
            let host = hostsByKey[key]!.unit
            guard let o = host.origin, let team = host.teamID else { return nil }
            // At the app's team setting when the project says where it is, else at its entitlements.
            var path = host.entitlementsPath
            var line = host.entitlements.entries.first?.keyLocation.line ?? 0
            var column = host.entitlements.entries.first?.keyLocation.column ?? 0
            if let place = o.settingSources["DEVELOPMENT_TEAM"], let colon = place.lastIndex(of: ":"),
               let n = Int(place[place.index(after: colon)...]) {
                path = String(place[..<colon])
                line = n
                column = 0
            }
            let names = Array(Set(others[key]!)).sorted()
            return Finding(rule: Self.description.id, severity: .warning,
                           message: "\(o.target) is signed by team \(team.value) in \(o.configuration) (\(team.source)), but it embeds \(names.listed), signed by another team: an app and what it embeds must be signed by one team, or the app cannot be installed on a device or uploaded; set the same DEVELOPMENT_TEAM for them in \(o.configuration)",
                           path: path, line: line, column: column, unit: host.name)
        }
    }

    func sharingFindings(_ units: [UnitContext]) -> [Finding] {
        var claims: [String: [Claim]] = [:]
        var order: [String] = []
        func add(_ key: String, _ claim: Claim) {
            if claims[key] == nil { order.append(key) }
            claims[key, default: []].append(claim)
        }
        for c in units {
            for e in c.sharingClaims where e.isConcrete || e.expansion.unresolved.isEmpty {
                if e.origin == .keychainAccessGroups {
                    // The unit's App ID prefix, a fact about the unit, never the group's literal
                    // first component: a group that does not start with the unit's own prefix is
                    // `team-prefix-mismatch`'s, and a unit whose prefix is unknown says nothing.
                    guard let prefix = c.unit.appIDPrefix?.value, e.value.firstComponent == prefix,
                          e.value.count > prefix.count + 1 else { continue }
                    add("k:" + e.value.dropFirst(prefix.count + 1), Claim(context: c, entry: e, prefix: prefix))
                } else if let team = c.unit.teamID?.value ?? c.unit.appIDPrefix?.value {
                    add("a:" + e.value, Claim(context: c, entry: e, prefix: team))
                }
            }
        }
        var out: [Finding] = []
        for key in order {
            let list = claims[key]!
            guard Set(list.map(\.prefix)).count > 1 else { continue }
            for claim in list {
                let me = claim.context.unit
                let keychain = claim.entry.origin == .keychainAccessGroups
                let others = list.filter { o in
                    o.prefix != claim.prefix && o.context.unit.targetKey != me.targetKey
                        && (o.context.unit.origin?.configuration == nil || me.origin?.configuration == nil
                            || o.context.unit.origin?.configuration == me.origin?.configuration)
                        // Another target's prefix assumed from the team both share does not differ for
                        // sure: that target's own finding, capped while its prefix is assumed, says it.
                        && (!keychain || o.context.unit.certainty(of: .appIDPrefix).isKnown || Self.teamsDiffer(me, o.context.unit))
                }
                guard !others.isEmpty else { continue }
                let names = Array(Set(others.map { "\($0.context.unit.origin?.target ?? $0.context.unit.name) (\($0.prefix))" })).sorted()
                let what: String
                if claim.entry.origin == .keychainAccessGroups {
                    let byTeam = others.allSatisfy { Self.teamsDiffer(me, $0.context.unit) }
                    what = "keychain access group \"\(claim.entry.value)\" is \"\(others[0].entry.value)\" for \(names.listed): \(byTeam ? "targets of different teams get different groups" : Self.prefixWords) and share nothing; sign them with the same team, or stop sharing"
                } else {
                    what = "app group \"\(claim.entry.value)\" is also claimed by \(names.listed), of another team (this one is \(claim.prefix)): an app group belongs to one team, so they cannot share it; sign them with the same team"
                }
                out.append(finding(what, in: claim.context, at: claim.context.location(of: claim.entry), keyPath: claim.entry.keyPath))
            }
        }
        return out
    }
}
