import EntitlintCore
import PropertyList

/// `macos-restricted-without-profile` (keychain-access-groups.md sections 1 and 6).
struct MacOSRestrictedWithoutProfileRule: Rule {
    static let description = RuleDescription(
        id: "macos-restricted-without-profile", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Reads the platform, the signing settings of the configuration or the built product's embedded profile, which are never assumed."),
        summary: "A macOS app signed with keychain-access-groups or com.apple.application-identifier but no profile: a built bundle that embeds none, or a configuration that signs to run locally.",
        rationale: """
        On macOS, `keychain-access-groups` and `com.apple.application-identifier` are restricted entitlements: a \
        provisioning profile must authorise them (keychain-access-groups.md section 1). An app signed with either, even an empty \
        array, and without `Contents/embedded.provisionprofile` is killed at launch ("Unsatisfied entitlements: \
        keychain-access-groups", AMFI -413, keychain-access-groups.md section 6); Electron and other non-Xcode builds hit this. \
        For a source entitlements file, a missing profile in the lint run says nothing about the build, with one \
        exception the project (an Xcode project, or an XcodeGen spec's `settings`, `configs` and config files) states: \
        a macOS configuration that signs to run locally (`CODE_SIGN_IDENTITY = "-"`, \
        no `DEVELOPMENT_TEAM`, no profile setting), as a Debug configuration often does, gets no profile, so the app \
        it builds with either key is killed at launch (section 9). The fix there is a development team with \
        automatic signing for that configuration, or an entitlements file for it without the restricted keys. \
        Nothing is reported when any of those settings cannot be known (a missing xcconfig), or for Mac Catalyst.
        """,
        triggering: [
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.MacApp</string>\n</array>\n<key>com.apple.security.app-sandbox</key>\n<true/>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        built: RuleExample.Built(platform: .macOS)),
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.MacApp</string>\n</array>",
                        bundleID: "com.example.MacApp",
                        comment: "A macOS target's Debug configuration that signs to run locally, with no team and no profile.",
                        settings: ["SDKROOT": "macosx", "CODE_SIGN_IDENTITY": "-", "DEVELOPMENT_TEAM": ""]),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.MacApp</string>\n</array>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        comment: "The Debug configuration signs to run locally but has a team: automatic signing gets it a development profile.",
                        settings: ["SDKROOT": "macosx", "CODE_SIGN_IDENTITY": "-", "DEVELOPMENT_TEAM": "ABCDE12345"]),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.network.client</key>\n<true/>",
                        bundleID: "com.example.MacApp",
                        comment: "Signing to run locally with unrestricted entitlements only.",
                        settings: ["SDKROOT": "macosx", "CODE_SIGN_IDENTITY": "-", "DEVELOPMENT_TEAM": ""]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.MacApp</string>\n</array>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        profileEntitlements: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.*</string>\n</array>",
                        comment: "The bundle embeds a profile.",
                        profile: "<key>Platform</key>\n<array>\n\t<string>OSX</string>\n</array>",
                        built: RuleExample.Built(platform: .macOS)),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>", bundleID: "com.example.MacApp",
                        comment: "Only unrestricted entitlements.", built: RuleExample.Built(platform: .macOS)),
        ]
    )

    static let restrictedKeys = ["keychain-access-groups", "com.apple.application-identifier"]

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        if let origin = unit.origin, origin.signsToRunLocally, unit.artifact == nil {
            return Self.runsLocally(origin, context: context, rule: self)
        }
        guard let artifact = unit.artifact, unit.platform == .macOS, !artifact.hasEmbeddedProfile, unit.profile == nil else { return [] }
        return Self.restrictedKeys.compactMap { key in
            guard unit.entitlements[key] != nil else { return nil }
            return finding("\(artifact.bundlePath) is signed with the restricted entitlement \(key) but embeds no provisioning profile (Contents/embedded.provisionprofile): macOS kills it at launch (Unsatisfied entitlements, AMFI -413); embed a profile that allows it, or remove \(key)",
                           in: context, at: context.keyLocation(key), keyPath: key)
        }
    }

    /// The findings about a macOS configuration that signs to run locally (no team, no profile):
    /// each restricted key its entitlements list.
    static func runsLocally(_ origin: UnitOrigin, context: UnitContext, rule: Self) -> [Finding] {
        let unit = context.unit
        guard unit.platform == .macOS, !origin.isMacCatalyst, unit.profile == nil else { return [] }
        let place = origin.signingIdentitySource.map { " at \($0)" } ?? ""
        return restrictedKeys.compactMap { key in
            guard unit.entitlements[key] != nil else { return nil }
            return rule.finding("configuration \(origin.configuration) of target \(origin.target) signs to run locally (CODE_SIGN_IDENTITY = \"-\"\(place), no DEVELOPMENT_TEAM, no profile), so it gets no provisioning profile, and \(key) is a restricted entitlement on macOS: the app is killed at launch (Unsatisfied entitlements, AMFI -413); set a development team with automatic signing for this configuration, or give it an entitlements file without \(key)",
                                in: context, at: context.keyLocation(key), keyPath: key)
        }
    }
}
