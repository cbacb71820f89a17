import EntitlintCore
import PropertyList

/// `profile-app-id-mismatch` (keychain-access-groups.md sections 2 and 3.1).
struct ProfileAppIDMismatchRule: Rule {
    static let description = RuleDescription(
        id: "profile-app-id-mismatch", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Compares only the part after the prefix: the bundle ID, which comes from stated sources, with the profile's App ID pattern and the file's App ID; a prefix of another team is team-prefix-mismatch's. Its own check that the bundle ID is independent of the values compared (not read back from the file or the profile) is about where the fact came from, not how certain it is."),
        summary: "The unit's bundle ID is not covered by its App ID: the entitlements' own application-identifier, or the profile's.",
        rationale: """
        The App ID is the App ID prefix, a dot and the bundle ID (keychain-access-groups.md section 2). A profile is for one App ID \
        or a wildcard App ID pattern (`ABCDE12345.com.example.*`), and an entitlements file that spells its \
        `application-identifier` out names one too: both must cover the bundle ID the app is built with (section \
        3.1). Xcode stops with "Provisioning profile ... has app ID ..., which does not match the bundle ID ...", \
        and a device (0xE8008016) or the App Store refuses a build signed that way. The bundle ID is the one the \
        unit is built with: `--bundle-id`, the configuration, the project's `PRODUCT_BUNDLE_IDENTIFIER`, or the \
        built bundle's `Info.plist`; without one, the entitlements' literal `application-identifier` is compared \
        with the profile. A bundle ID read from the profile itself cannot disagree with it. Only the part after the \
        prefix is compared here: an App ID prefix of another team is `team-prefix-mismatch`'s, so one wrong \
        value gives one finding.
        """,
        triggering: [
            RuleExample("↓<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>",
                        bundleID: "com.example.AppTwo", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>",
                        comment: "A profile of another App ID."),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.other.app</string>",
                        bundleID: "com.example.app", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.other.app</string>",
                        comment: "The bundle ID given (`--bundle-id`) is covered by neither the literal application-identifier nor the profile made for it."),
            RuleExample("<key>application-identifier</key>\n↓<string>ABCDE12345.com.other.app</string>",
                        bundleID: "com.example.app", teamID: "ABCDE12345",
                        comment: "No profile needed: the file names another App ID than the bundle ID's."),
        ],
        nonTriggering: [
            RuleExample("<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>",
                        bundleID: "com.example.AppTwo", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.*</string>",
                        comment: "A wildcard App ID covers every bundle ID under it."),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>",
                        bundleID: "com.example.app", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>"),
            RuleExample("<key>application-identifier</key>\n<string>ZYXWV98765.com.example.app</string>",
                        bundleID: "com.example.app", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>",
                        comment: "Only the prefix is wrong: that is `team-prefix-mismatch`'s finding, not a second one here."),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.other.app</string>",
                        comment: "No bundle ID and no profile: nothing to compare with."),
        ]
    )

    /// Whether `source` says which bundle ID the unit is really built with (not a value read back
    /// from the entitlements or the profile being checked).
    static func isIndependent(_ source: FactSource) -> Bool {
        switch source {
        case .entitlements, .profile: return false
        case .flag, .config, .xcode, .derived, .assumed: return true
        }
    }

    /// The part of an App ID after its prefix (`com.example.App` of `ABCDE12345.com.example.App`).
    static func bundlePart(_ appID: String) -> String? {
        guard let dot = appID.firstIndex(of: ".") else { return nil }
        return String(appID[appID.index(after: dot)...])
    }

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        let ent = unit.entitlements
        let key = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        let bundle = unit.bundleID.flatMap { Self.isIndependent($0.source) ? $0 : nil }
        let profileFile = unit.profile
        let pattern = profileFile?.profile.applicationIdentifier
        // The profile's pattern after its prefix: what must cover the bundle ID.
        let patternRest = pattern.flatMap(Self.bundlePart)
        func profileCovers(_ b: String) -> Bool { patternRest.map { ProfileAllowlist.allows(pattern: $0, value: b) } ?? true }
        let profileText = { (b: String) -> String in
            guard let profileFile, let pattern else { return "" }
            return "Provisioning profile \"\(profileFile.displayName)\" has app ID \"\(pattern)\", which does not match the bundle ID \"\(b)\" (profile \(profileFile.path))"
        }

        // The entitlements' own App ID, when it is spelled out.
        if let node = ent[key], let raw = node.string {
            let e = context.expand(raw)
            if e.isConcrete, let written = Self.bundlePart(e.text) {
                if let bundle, written != bundle.value {
                    var message = "\(key) \"\(e.text)\" is the App ID of bundle ID \"\(written)\", but the bundle ID is \(bundle.value) (\(bundle.source))"
                    if !profileCovers(bundle.value) { message += "; and " + profileText(bundle.value) }
                    message += "; write \"$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)\"" + (profileCovers(bundle.value) ? "" : " and sign with a profile of this App ID")
                    return [finding(message, in: context, at: context.located(node.location), keyPath: key)]
                }
                if bundle == nil, let profileFile, !profileCovers(written) {
                    if case .profile? = unit.bundleID?.source { return [] }
                    return [finding("Provisioning profile \"\(profileFile.displayName)\" has app ID \"\(pattern!)\", which does not cover \(key) \"\(e.text)\"; sign with a profile of this App ID (profile \(profileFile.path))",
                                    in: context, at: context.keyLocation(key), keyPath: key)]
                }
            }
        }
        guard let bundle, profileFile != nil, !profileCovers(bundle.value) else { return [] }
        return [finding(profileText(bundle.value) + ", the bundle ID from \(bundle.source); sign with a profile of this App ID",
                        in: context, at: ent.entry(key)?.keyLocation ?? unit.document.root.location, keyPath: ent[key] != nil ? key : nil)]
    }
}
