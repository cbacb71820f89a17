import EntitlintCore
import PropertyList

/// `macos-restricted-without-profile` (keychain-access-groups.md sections 1 and 6).
struct MacOSRestrictedWithoutProfileRule: Rule {
    static let description = RuleDescription(
        id: "macos-restricted-without-profile", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .nothing,
        summary: "A built macOS bundle signed with keychain-access-groups or com.apple.application-identifier but no embedded profile.",
        rationale: """
        On macOS, `keychain-access-groups` and `com.apple.application-identifier` are restricted entitlements: a \
        provisioning profile must authorise them (keychain-access-groups.md section 1). An app signed with either, even an empty \
        array, and without `Contents/embedded.provisionprofile` is killed at launch ("Unsatisfied entitlements: \
        keychain-access-groups", AMFI -413, keychain-access-groups.md section 6); Electron and other non-Xcode builds hit this. \
        Only built bundles are checked: for a source entitlements file, a missing profile in the lint run says \
        nothing about the build.
        """,
        triggering: [
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.MacApp</string>\n</array>\n<key>com.apple.security.app-sandbox</key>\n<true/>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        built: RuleExample.Built(platform: .macOS)),
        ],
        nonTriggering: [
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
        guard let artifact = unit.artifact, unit.platform == .macOS, !artifact.hasEmbeddedProfile, unit.profile == nil else { return [] }
        return Self.restrictedKeys.compactMap { key in
            guard unit.entitlements[key] != nil else { return nil }
            return finding("\(artifact.bundlePath) is signed with the restricted entitlement \(key) but embeds no provisioning profile (Contents/embedded.provisionprofile): macOS kills it at launch (Unsatisfied entitlements, AMFI -413); embed a profile that allows it, or remove \(key)",
                           in: context, at: context.keyLocation(key), keyPath: key)
        }
    }
}
