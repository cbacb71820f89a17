import EntitlintCore
import PropertyList

/// `aps-environment-mismatch` (keychain-access-groups.md sections 3 and 3.1).
struct APSEnvironmentMismatchRule: Rule {
    static let description = RuleDescription(
        id: "aps-environment-mismatch", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Reads the entitlements file and the profile's own values (its kind and aps-environment), which are never assumed."),
        summary: "A push environment (aps-environment) that the profile kind cannot sign.",
        rationale: """
        `aps-environment` (macOS: `com.apple.developer.aps-environment`) is `development` or `production`, and a \
        profile allows one: development profiles `development`, distribution profiles `production` (keychain-access-groups.md \
        sections 3 and 3.1: scalars must equal the profile's value). A signed app whose value differs from its \
        profile's is refused at install (0xE8008016) or upload (ITMS-90164), and one signed with the wrong \
        environment gets push tokens from the wrong APNs server. In a source entitlements file `development` with a \
        distribution profile is normal (Xcode writes `production` when it exports for distribution), so there only \
        an unknown value, or `production` with a development profile, is reported; in a built app the signed value \
        must equal the embedded profile's. A source value that differs only in case (`Production`, seen in shipping \
        apps, keychain-access-groups.md section 6) is a warning: Xcode signs with the profile's value.
        """,
        triggering: [
            .signed("<key>aps-environment</key>\n↓<string>production</string>",
                    allowing: "<key>aps-environment</key>\n<string>development</string>\n<key>get-task-allow</key>\n<true/>",
                    comment: "A development profile cannot sign the production environment.",
                    profile: "<key>ProvisionedDevices</key>\n<array>\n\t<string>00008030-001A2B3C4D5E6F70</string>\n</array>"),
            .signed("<key>aps-environment</key>\n↓<string>development</string>",
                    allowing: "<key>aps-environment</key>\n<string>production</string>",
                    comment: "A built app signed with `development` and an App Store profile.",
                    built: RuleExample.Built()),
            RuleExample("<key>aps-environment</key>\n↓<string>prod</string>", bundleID: "com.example.AppOne", teamID: "ABCDE12345"),
            RuleExample("<key>aps-environment</key>\n↓<string>Production</string>", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "Only the case differs (a warning in a source file: Xcode writes the profile's value when it signs)."),
        ],
        nonTriggering: [
            .signed("<key>aps-environment</key>\n<string>development</string>",
                    allowing: "<key>aps-environment</key>\n<string>production</string>",
                    comment: "Source entitlements: Xcode sets `production` when exporting with the App Store profile."),
            RuleExample("<key>aps-environment</key>\n<string>$(APS_ENVIRONMENT)</string>", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "An unresolved variable is `unresolved-variable`'s business."),
        ]
    )

    static let values: Set<String> = ["development", "production"]

    func check(_ context: UnitContext) -> [Finding] {
        let ent = context.unit.entitlements
        let key = ent["aps-environment"] != nil ? "aps-environment" : "com.apple.developer.aps-environment"
        guard let node = ent[key], let raw = node.string else { return [] }
        let e = context.expand(raw)
        guard e.isConcrete else { return [] }
        let value = e.text
        let at = context.located(node.location)
        if !Self.values.contains(value), Self.values.contains(value.lowercased()), context.unit.artifact == nil {
            // Only the case differs, in a source file: Xcode writes the profile's value when it
            // signs and exports, so Xcode builds work; a tool that signs the file as written does not.
            var f = finding("\(key) is \"\(value)\": the documented value is \"\(value.lowercased())\". Xcode writes the profile's value when it signs, so Xcode builds work, but a tool that signs this file as written would embed \"\(value)\"; write \"\(value.lowercased())\"",
                            in: context, at: at, keyPath: key)
            f.severity = .warning
            return [f]
        }
        guard Self.values.contains(value) else {
            return [finding("\(key) is \"\(value)\": the push environment must be \"development\" or \"production\"", in: context, at: at, keyPath: key)]
        }
        guard let profileFile = context.unit.profile else { return [] }
        let profile = profileFile.profile
        let allowed = profile.entitlements[key]?.string ?? profile.entitlements["aps-environment"]?.string
            ?? profile.entitlements["com.apple.developer.aps-environment"]?.string
        let expected: String? = allowed.flatMap { Self.values.contains($0) ? $0 : nil }
            ?? (profile.kind == .development ? "development" : ProfileFacts.isDistribution(profile.kind) ? "production" : nil)
        guard let expected, expected != value else { return [] }
        let kind = ProfileFacts.name(profile.kind)
        if context.unit.artifact != nil {
            return [finding("the app is signed with \(key) \"\(value)\", but its \(kind) profile \"\(profileFile.displayName)\" allows \"\(expected)\": the device or the App Store rejects it, and push tokens would come from the wrong APNs environment; sign again with the matching profile (profile \(profileFile.path))",
                            in: context, at: at, keyPath: key)]
        }
        guard expected == "development", value == "production" else { return [] }
        return [finding("\(key) is \"production\", but \"\(profileFile.displayName)\" is a \(kind) profile, which allows only \"development\"; use \"development\" here (Xcode writes \"production\" when it exports for distribution) (profile \(profileFile.path))",
                        in: context, at: at, keyPath: key)]
    }
}
