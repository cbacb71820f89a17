import EntitlintCore
import PropertyList

/// `app-clip-access-groups` (DOMAIN.md section 1).
struct AppClipAccessGroupsRule: Rule {
    static let description = RuleDescription(
        id: "app-clip-access-groups", severity: .error,
        summary: "An App Clip claiming a keychain access group other than its own App ID.",
        rationale: """
        An App Clip (`com.apple.developer.on-demand-install-capable` true, or a bundle in `AppClips/`) may use only \
        its own App ID as keychain group: any other group fails with `errSecRestrictedAPI` (-34020), and its app \
        groups are left out of its access-group list (DOMAIN.md section 1). Shared keychain items between the clip \
        and the full app are not possible that way; share through the App Clip's app group container instead.
        """,
        triggering: [
            RuleExample("<key>com.apple.developer.on-demand-install-capable</key>\n<true/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne.Clip", teamID: "ABCDE12345"),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.developer.on-demand-install-capable</key>\n<true/>\n<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>",
                        comment: "Its own App ID, even with the team and bundle ID unknown."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "Not an App Clip."),
        ]
    )

    /// The App ID written with variables, in the spellings that mean the same.
    static let symbolicAppIDs: Set<String> = {
        var out = Set<String>()
        for prefix in ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}"] {
            for bundle in ["$(PRODUCT_BUNDLE_IDENTIFIER)", "${PRODUCT_BUNDLE_IDENTIFIER}", "$(CFBundleIdentifier)", "${CFBundleIdentifier}"] {
                out.insert(prefix + bundle)
            }
        }
        return out
    }()

    func check(_ context: UnitContext) -> [Finding] {
        let unit = context.unit
        let isClip = unit.entitlements["com.apple.developer.on-demand-install-capable"]?.bool == true
            || unit.artifact?.bundleKind == .appClip
        guard isClip else { return [] }
        let appID = unit.appID
        let bundle = unit.bundleID?.value
        var out: [Finding] = []
        for item in context.keychainGroups {
            let e = context.expanded(item)
            if Self.symbolicAppIDs.contains(item.value) { continue }
            if e.isConcrete {
                guard let appID, e.text != appID else { continue }
            } else {
                // Prefix unknown: compare what follows the prefix variable with the bundle ID.
                guard let bundle, let rest = Self.afterPrefixVariable(item.value) else { continue }
                let r = context.expand(rest)
                guard r.isConcrete, r.text != bundle else { continue }
            }
            let shown = e.isConcrete ? e.text : item.value
            out.append(finding("App Clip keychain access group \"\(shown)\" is not the App Clip's own App ID\(appID.map { " \"\($0)\"" } ?? ""): an App Clip can use only its App ID (errSecRestrictedAPI, -34020); remove it and share data with the full app through an app group",
                               in: context, at: context.located(item.location), keyPath: item.keyPath))
        }
        return out
    }

    /// The text after a leading `$(AppIdentifierPrefix)` / `$(TeamIdentifierPrefix)` (either
    /// bracket form), or nil when there is none.
    static func afterPrefixVariable(_ s: String) -> String? {
        for v in ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"] where s.hasPrefix(v) {
            return String(s.dropFirst(v.count))
        }
        return nil
    }
}
