import EntitlintCore

/// `inconsistent-default-group` (DOMAIN.md sections 1 and 4): an extension whose default group is
/// not its host app's although they share a keychain group.
struct InconsistentDefaultGroupRule: ProjectRule {
    static let description = RuleDescription(
        id: "inconsistent-default-group", severity: .warning,
        summary: "An extension whose default access group differs from its host app's although both share a keychain group.",
        rationale: """
        `SecItemAdd` without `kSecAttrAccessGroup` stores an item in the first group of the list, the default \
        (DOMAIN.md section 1). An app and its extension that share a keychain group usually mean to share what they \
        save; when their defaults differ, an item one saves without an explicit group lands where the other does not \
        look first, and after a change it is not found at all (section 4). Put the host app's group first in the \
        extension too (its own ID, `$(AppIdentifierPrefix)<host bundle ID>`, which keeps the host's default where it \
        is), or always pass `kSecAttrAccessGroup`. The host is the app target that embeds the extension (or depends \
        on it), in the same configuration; App Clips are left out (they may only use their own App ID).
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "Each keeps its own ID first: the extension's items go where the app never looks first."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "The extension puts its host's ID first: both save to the same default."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>"),
            ], comment: "No keychain group in common: nothing to be consistent about."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        var byTarget: [String: UnitContext] = [:]
        for c in units {
            guard let o = c.unit.origin else { continue }
            byTarget[o.projectFile + "#" + o.target + "#" + o.configuration] = c
        }
        var out: [Finding] = []
        for c in units {
            guard let o = c.unit.origin, o.kind == .appExtension || o.kind == .watchApp, let hostName = o.hostTarget,
                  let host = byTarget[o.projectFile + "#" + hostName + "#" + o.configuration] else { continue }
            let mine = c.accessGroups.entries.filter { $0.origin == .keychainAccessGroups }.map(\.value)
            let theirs = Set(host.accessGroups.entries.filter { $0.origin == .keychainAccessGroups }.map(\.value))
            let shared = mine.filter { theirs.contains($0) }
            guard let first = shared.first, let myDefault = c.accessGroups.defaultGroup,
                  let hostDefault = host.accessGroups.defaultGroup, myDefault.value != hostDefault.value else { continue }
            out.append(finding("the default access group is \"\(myDefault.value)\", but the host app \(hostName)'s is \"\(hostDefault.value)\", although both list \"\(first)\": an item either one saves without kSecAttrAccessGroup goes to its own default, where the other does not look first; put \"\(hostDefault.value)\" first here, or always pass kSecAttrAccessGroup",
                               in: c, at: c.location(of: myDefault), keyPath: myDefault.keyPath))
        }
        return out
    }
}
