import EntitlintCore
import PropertyList

/// `profile-app-id-mismatch` (DOMAIN.md sections 2 and 3.1).
struct ProfileAppIDMismatchRule: Rule {
    static let description = RuleDescription(
        id: "profile-app-id-mismatch", severity: .error,
        summary: "The unit's App ID (bundle ID) is not covered by the profile's application-identifier.",
        rationale: """
        A profile is for one App ID, or a wildcard App ID pattern (`ABCDE12345.com.example.*`): its \
        `application-identifier` must allow the app's App ID, prefix + `.` + bundle ID (DOMAIN.md sections 2 and \
        3.1). A profile paired by hand (`--profile`, a config app's `profile:`) or embedded in a built app for \
        another bundle ID fails to sign, install (0xE8008016) or upload. The App ID is the entitlements' own \
        `application-identifier` when it is literal, else the App ID prefix and the bundle ID of the unit (from \
        the flags, the config or the built bundle's `Info.plist`); a bundle ID taken from the profile itself \
        cannot disagree with it.
        """,
        triggering: [
            RuleExample("↓<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>",
                        bundleID: "com.example.AppTwo", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>"),
        ],
        nonTriggering: [
            RuleExample("<key>application-identifier</key>\n<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>",
                        bundleID: "com.example.AppTwo", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.*</string>",
                        comment: "A wildcard App ID covers every bundle ID under it."),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        guard let profileFile = unit.profile, let pattern = profileFile.profile.applicationIdentifier else { return [] }
        let ent = unit.entitlements
        let key = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        var appID: String?
        var why = ""
        if let raw = ent[key]?.string {
            let e = context.expand(raw)
            if e.isConcrete { appID = e.text; why = "\(key) \"\(raw)\"" }
        }
        if appID == nil, let bundle = unit.bundleID, let prefix = unit.appIDPrefix {
            if case .profile = bundle.source { return [] }
            appID = prefix.value + "." + bundle.value
            why = "bundle ID \(bundle.value) from \(bundle.source)"
        }
        guard let appID, !ProfileAllowlist.allows(pattern: pattern, value: appID) else { return [] }
        let location = ent.entry(key)?.keyLocation ?? unit.document.root.location
        return [finding("Provisioning profile \"\(profileFile.displayName)\" is for App ID \"\(pattern)\", which does not cover \"\(appID)\" (\(why)); sign with a profile of this App ID (profile \(profileFile.path))",
                        in: context, at: location, keyPath: ent[key] != nil ? key : nil)]
    }
}
