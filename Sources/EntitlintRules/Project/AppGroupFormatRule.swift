import EntitlintCore
import PropertyList

/// `app-group-format` (keychain-access-groups.md section 1): an app group that does not fit its platform's form.
struct AppGroupFormatRule: Rule {
    static let description = RuleDescription(
        id: "app-group-format", severity: .error,
        category: .project, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Its only error is an iOS app group that does not start with group., which fails whatever a prefix variable expands to; the platform comes from the project or a built product, never assumed."),
        summary: "An app group that does not fit its platform's form: `group.<name>` on iOS; `group.<name>` or `<TeamID>.<name>` on macOS (a warning there).",
        rationale: """
        On iOS (and watchOS, tvOS, visionOS) every app group must start with `group.`; anything else is rejected when \
        the app is signed or installed (keychain-access-groups.md section 1). macOS has two styles: `TEAMID.name`, which needs no \
        profile but cannot be used as a keychain access group, and `group.name`, iOS style, which must be in the \
        profile (recommended since 2025). macOS rules are still moving (macOS 15 prompts the user for `group.` \
        containers the profile does not authorise; macOS 26 logs rejections for groups not prefixed by the team), so \
        on macOS the rule warns, naming the macOS version concerned. The platform comes from the project's SDK, the \
        profile, or the entitlements themselves; with none known the rule stays silent. On macOS a `group.` app group \
        that the unit's profile does not authorise gets a warning too (macOS 15 asks the user before opening it); \
        on iOS that comparison is `entitlement-value-mismatch`'s. Values with variables that \
        cannot be expanded are left to `unresolved-variable`.
        """,
        triggering: [
            RuleExample("<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>com.example.suite</string>\n</array>",
                        comment: "An iOS app group without `group.`."),
            RuleExample("<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>$(TeamIdentifierPrefix)com.example.suite</string>\n</array>",
                        teamID: "ABCDE12345", comment: "The macOS team-prefixed style in an iOS app."),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>com.example.suite</string>\n</array>",
                        comment: "A macOS app group in neither style (a warning)."),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.com.example.suite</string>\n</array>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        profileEntitlements: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>",
                        comment: "macOS: a `group.` app group its profile does not authorise (a warning).",
                        profile: "<key>Platform</key>\n<array>\n\t<string>OSX</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)</string>\n</array>",
                        teamID: "ABCDE12345", comment: "On macOS the team prefix alone is the team's own app group, which needs no profile."),
            RuleExample("<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>"),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)com.example.suite</string>\n\t<string>group.com.example.suite</string>\n</array>",
                        teamID: "ABCDE12345", comment: "Both macOS styles."),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(TeamIdentifierPrefix)com.example.suite</string>\n</array>",
                        comment: "macOS, team unknown: `$(TeamIdentifierPrefix)` makes it team-prefixed whatever the team."),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.suite</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.suite</string>\n</array>",
                        teamID: "ABCDE12345", comment: "macOS: a team-prefixed group that is also a keychain group, as Xcode writes macOS sharing groups."),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>com.example.suite</string>\n</array>",
                        comment: "Platform unknown: nothing to check against."),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        profileEntitlements: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>\n<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>",
                        comment: "macOS: the profile authorises the `group.` app group.",
                        profile: "<key>Platform</key>\n<array>\n\t<string>OSX</string>\n</array>"),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard unit.platform != .unknown else { return [] }
        let keychain = Set(context.keychainGroups.map { context.expanded($0).text })
        var out: [Finding] = []
        items: for item in context.strings(of: "com.apple.security.application-groups") {
            let expansion = context.expanded(item)
            guard expansion.unresolved.isEmpty else { continue }
            let value = expansion.text
            guard !value.isBlank else { continue }
            if value.hasPrefix("group."), value.count > 6 {
                // macOS 15 asks the user before opening a `group.` container the profile does not
                // authorise (on iOS the profile comparison is entitlement-value-mismatch's).
                if unit.platform == .macOS, let profile = unit.profile,
                   ProfileAllowlist.allows(profile.profile, key: "com.apple.security.application-groups", value: value) != true {
                    out.append(warning("app group \"\(value)\" is not authorised by provisioning profile \"\(profile.displayName)\" (profile \(profile.path)): on macOS 15 and later the system asks the user before the app may open that container; add the group to the App ID's App Groups and download the profile again, or use \"$(TeamIdentifierPrefix)\(value.dropFirst(6))\", which needs no profile",
                                       context, item))
                }
                continue
            }
            if unit.platform == .iOS {
                var hint = ""
                if item.value.hasPrefix("$(TeamIdentifierPrefix)") || item.value.hasPrefix("${TeamIdentifierPrefix}") || String(value.firstComponent).isTeamIDLike {
                    hint = " (the team-prefixed style is macOS's)"
                }
                let suggestion = value.hasPrefix("group.") ? "name the group after `group.`" : "write \"group.\(Self.stripPrefix(value))\""
                out.append(finding("app group \"\(value)\" does not start with \"group.\"\(hint): on iOS every app group is group.<name>, and any other is rejected at signing or install; \(suggestion), and register it in the developer portal",
                                   in: context, at: item.location, keyPath: item.keyPath))
                continue
            }
            // macOS. A team prefix still symbolic (team unknown) is the team-prefixed style.
            for p in ["$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}", "$(AppIdentifierPrefix)", "${AppIdentifierPrefix}"]
            where value.hasPrefix(p) && value.count > p.count {
                continue items
            }
            let first = String(value.firstComponent)
            // The team prefix alone (`$(TeamIdentifierPrefix)`, `ABCDE12345.`) is the team's own
            // macOS app group, which needs no profile.
            if ["$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"].contains(item.value) && (unit.teamID == nil || value == unit.teamID!.value + ".")
                || (first.isTeamIDLike && value == first + "." && (unit.teamID == nil || unit.teamID!.value == first)) {
                continue
            }
            if first.isTeamIDLike, value.count > first.count + 1 {
                // A team-prefixed group that is also a keychain group is how Xcode writes macOS
                // sharing groups (keychain-access-groups.md section 1): only a prefix of another team is wrong.
                if let team = unit.teamID?.value, team != first, !keychain.contains(value) {
                    out.append(warning("app group \"\(value)\" is prefixed by \(first), but the team is \(team) (\(unit.teamID!.source)): a team-prefixed macOS app group must carry the app's own team; write \"$(TeamIdentifierPrefix)\(value.dropFirst(first.count + 1))\"",
                                       context, item))
                }
                continue
            }
            out.append(warning("app group \"\(value)\" is neither group.<name> nor <TeamID>.<name>: macOS 26 logs rejections for app groups not prefixed by the team, and macOS 15 prompts the user for containers the profile does not authorise; write \"group.\(value)\" (in the profile) or \"$(TeamIdentifierPrefix)\(value)\"",
                               context, item))
        }
        return out
    }

    func warning(_ message: String, _ context: UnitContext, _ item: StringItem) -> Finding {
        var f = finding(message, in: context, at: item.location, keyPath: item.keyPath)
        f.severity = .warning
        return f
    }

    /// The group without a leading `TEAMID.`.
    static func stripPrefix(_ value: String) -> String {
        let first = String(value.firstComponent)
        return first.isTeamIDLike && value.count > first.count + 1 ? String(value.dropFirst(first.count + 1)) : value
    }
}
