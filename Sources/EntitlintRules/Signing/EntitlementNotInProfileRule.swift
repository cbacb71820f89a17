import EntitlintCore
import PropertyList

/// `entitlement-not-in-profile` (keychain-access-groups.md section 3.1).
struct EntitlementNotInProfileRule: Rule {
    static let description = RuleDescription(
        id: "entitlement-not-in-profile", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Compares the entitlements file's keys with the profile's own list, never with an assumed fact."),
        summary: "An entitlement the app claims that the profile's allowlist does not include.",
        rationale: """
        The profile's `Entitlements` dict is an allowlist (keychain-access-groups.md section 3.1): every key the app claims must be \
        in it. A key that is missing means the capability is not enabled for the App ID (or the profile predates \
        it): Xcode stops with "Provisioning profile ... doesn't include the K entitlement", devices refuse the \
        install (0xE8008016) and the App Store the upload (ITMS-90164). On macOS only restricted entitlements \
        need the profile: the `com.apple.security.*` keys (App Sandbox, hardened runtime) are exempt. \
        `keychain-access-groups` is checked by `group-missing-from-profile`.
        """,
        triggering: [
            .signed("↓<key>com.apple.developer.icloud-services</key>\n<array>\n\t<string>CloudKit</string>\n</array>",
                    allowing: "<key>aps-environment</key>\n<string>production</string>"),
        ],
        nonTriggering: [
            .signed("<key>aps-environment</key>\n<string>production</string>",
                    allowing: "<key>aps-environment</key>\n<string>production</string>"),
            RuleExample("<key>com.apple.security.app-sandbox</key>\n<true/>\n<key>com.apple.security.network.client</key>\n<true/>",
                        bundleID: "com.example.MacApp", teamID: "ABCDE12345",
                        profileEntitlements: "<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.MacApp</string>",
                        comment: "A macOS profile: the App Sandbox keys are unrestricted.",
                        profile: "<key>Platform</key>\n<array>\n\t<string>OSX</string>\n</array>"),
            RuleExample("<key>com.apple.developer.icloud-services</key>\n<array>\n\t<string>CloudKit</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "No profile: nothing to compare with."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let profile = context.unit.profile else { return [] }
        let allowlist = profile.profile.entitlements
        let macOS = context.isMacOS
        var out: [Finding] = []
        for key in context.unit.entitlements.keys where key != "keychain-access-groups" && allowlist[key] == nil {
            guard ProfileFacts.needsProfile(key, macOS: macOS) else { continue }
            out.append(finding("Provisioning profile \"\(profile.displayName)\" doesn't include the \(key) entitlement (profile \(profile.path)); enable the capability for the App ID and download the profile again, or remove the key",
                               in: context, at: context.keyLocation(key), keyPath: key))
        }
        return out
    }
}
