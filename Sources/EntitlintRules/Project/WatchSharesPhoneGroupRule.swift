import EntitlintCore
import PropertyList

/// `watch-shares-phone-group` (keychain-access-groups.md section 9).
struct WatchSharesPhoneGroupRule: ProjectRule {
    static let description = RuleDescription(
        id: "watch-shares-phone-group", severity: .warning,
        category: .project, readsOnlyTheFile: false, precision: .medium, facts: .nothing,
        summary: "A watchOS target that lists a keychain group of the iPhone app that embeds it, as if the two shared keychain items.",
        rationale: """
        Since watchOS 2 the Watch app runs on the watch, whose keychain holds a distinct set of items from the \
        paired iPhone's: the two never share keychain items on the device, whatever groups both list \
        (keychain-access-groups.md section 9). A watchOS target (a watch app, or its WatchKit extension) that lists \
        a keychain group of its iPhone app, the iPhone app's own App ID included, finds none of the items the \
        iPhone app stored. What works: send what the watch needs with WatchConnectivity and store it in the \
        watch's keychain, or store the items with `kSecAttrSynchronizable` so that iCloud Keychain carries them \
        (only then is the same group on both useful, and only for synchronizable items). Hence a warning, not an \
        error. And since a project that syncs through iCloud Keychain lists the group on purpose, the rule \
        reports only when the project says every file the watchOS target compiles and none of them mentions \
        synchronizable items (`kSecAttrSynchronizable`, a wrapper's `synchronizable`); otherwise it is silent. \
        The iPhone app is found through the project (the target that embeds the watch app, directly or through \
        its extension); groups are compared once expanded, and only concrete values. In a built product (an `.ipa`, \
        `.app` or `.xcarchive`) the watch app is the bundle in the iPhone app's `Watch/` folder, and its groups and the \
        iPhone app's are the ones signed into their executables; what the watch app compiles is not known there, so \
        the rule reads every file of the watch app's bundle (its executable, extensions and frameworks) and reports \
        only when all were read and none mentions synchronizable items (a binary that uses \
        `kSecAttrSynchronizable` names the symbol); one it cannot read keeps it silent.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("Watch", kind: .watchApp, bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne.watchkitapp</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["Watch/Token.swift": "let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: \"ABCDE12345.com.example.shared\"]\n"]),
            ], comment: "The watch app lists the iPhone app's shared group, expecting to read what the iPhone app stored; its code stores nothing synchronizable."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>ABCDE12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345",
                        comment: "A built product: the watch app in the iPhone app's Watch/ folder is signed with the iPhone app's group, and no file of the watch app mentions synchronizable items.",
                        built: RuleExample.Built(bundleKind: .watchApp, phoneAppGroups: ["ABCDE12345.com.example.shared"], watchSynchronizable: false)),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("Watch", kind: .watchApp, bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne.watchkitapp</string>\n</array>"),
            ], comment: "The watch app keeps its own group; what it needs comes over WatchConnectivity."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("Watch", kind: .watchApp, bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["Watch/Token.swift": "let query: [String: Any] = [kSecAttrAccessGroup as String: \"ABCDE12345.com.example.shared\", kSecAttrSynchronizable as String: true]\n"]),
            ], comment: "The watch app reads synchronizable items, which iCloud Keychain brings from the iPhone: the same group on both is meant."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("Watch", kind: .watchApp, bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "The project does not say what the watch app compiles: whether it syncs through iCloud Keychain is unknown."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "An iPhone extension shares its app's keychain on the same device."),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345",
                        comment: "A built watch app whose binary names kSecAttrSynchronizable: the group may be meant for items iCloud Keychain syncs.",
                        built: RuleExample.Built(bundleKind: .watchApp, phoneAppGroups: ["ABCDE12345.com.example.shared"], watchSynchronizable: true)),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                        bundleID: "com.example.AppOne.watchkitapp", teamID: "ABCDE12345",
                        comment: "A built watch app some of whose files could not be read: whether it syncs is unknown.",
                        built: RuleExample.Built(bundleKind: .watchApp, phoneAppGroups: ["ABCDE12345.com.example.shared"], watchSynchronizable: nil)),
        ]
    )

    /// How many hosts are followed from a watchOS unit to its iPhone app: a WatchKit extension's
    /// host is the watch app, whose host is the iPhone app; a cycle or a longer chain stops here.
    static let maxHops = 4

    func check(project units: [UnitContext]) -> [Finding] {
        guard units.contains(where: { $0.unit.origin?.sdk == "watchos" }) else { return [] }
        // Units by project, target and configuration: a host is looked up in the same configuration.
        var byTarget: [String: UnitContext] = [:]
        for c in units {
            guard let o = c.unit.origin, !o.isMacCatalyst else { continue }
            let key = o.projectFile + "#" + o.target + "#" + o.configuration
            if byTarget[key] == nil { byTarget[key] = c }
        }
        var out: [Finding] = []
        for c in units {
            guard let o = c.unit.origin, o.sdk == "watchos", let phone = Self.phoneApp(of: o, byTarget: byTarget) else { continue }
            guard let phoneOrigin = phone.unit.origin else { continue }
            // The iPhone app's keychain groups and its App ID: the groups its items are stored in.
            var phoneGroups: [String: AccessGroupEntry] = [:]
            for e in phone.accessGroups.entries where e.isConcrete && e.value != AccessGroupList.tokenGroup
                && (e.origin == .keychainAccessGroups || e.origin == .applicationIdentifier) {
                if phoneGroups[e.value] == nil { phoneGroups[e.value] = e }
            }
            guard !phoneGroups.isEmpty, c.keychainEntitlementHonoured else { continue }
            // Synchronizable items travel through iCloud Keychain: silent unless the code is known to have none.
            guard let sources = o.sources, c.codeIndex?.anyFile(of: sources, contains: "ynchronizable") == false else { continue }
            for item in c.keychainGroups {
                let e = c.expanded(item)
                guard e.isConcrete, let theirs = phoneGroups[e.text] else { continue }
                let what = theirs.origin == .applicationIdentifier ? "the App ID of the iPhone app \(phoneOrigin.target)" : "a keychain group of the iPhone app \(phoneOrigin.target)"
                out.append(finding(Self.message(group: e.text, what: what), in: c, at: item.location, keyPath: item.keyPath))
            }
        }
        return out
    }

    /// A built watch app (or a bundle in one) signed with a group of the iPhone app whose `Watch/`
    /// folder holds it, when every file of the watch app was read and none mentions
    /// synchronizable items (`BuiltArtifactFacts.watchMentionsSynchronizable`).
    func check(_ context: UnitContext) -> [Finding] {
        guard let artifact = context.unit.artifact, let phone = artifact.embeddingPhoneApp,
              artifact.watchMentionsSynchronizable == false, !artifact.embeddingPhoneAppGroups.isEmpty,
              context.keychainEntitlementHonoured else { return [] }
        return context.keychainGroups.compactMap { item in
            let e = context.expanded(item)
            guard e.isConcrete, let isAppID = artifact.embeddingPhoneAppGroups[e.text] else { return nil }
            let what = isAppID ? "the App ID of the iPhone app \(phone)" : "a keychain group of the iPhone app \(phone)"
            return finding(Self.message(group: e.text, what: what), in: context, at: item.location, keyPath: item.keyPath)
        }
    }

    static func message(group: String, what: String) -> String {
        "keychain access group \"\(group)\" is \(what), but since watchOS 2 the watch has its own keychain: this watchOS target never reads on the watch the items the iPhone app stores; send what the watch needs with WatchConnectivity, or store the items with kSecAttrSynchronizable so that iCloud Keychain syncs them (only then does the same group on both help)"
    }

    /// The iPhone app that embeds the watchOS unit `o` (through its watch app), in the same
    /// project and configuration; nil when the chain leaves the project or finds none.
    static func phoneApp(of o: UnitOrigin, byTarget: [String: UnitContext]) -> UnitContext? {
        var current = o
        for _ in 0..<maxHops {
            guard let host = current.hostTarget,
                  let next = byTarget[current.projectFile + "#" + host + "#" + current.configuration],
                  let origin = next.unit.origin else { return nil }
            if origin.sdk == "iphoneos" { return origin.kind == .app ? next : nil }
            guard origin.sdk == "watchos" else { return nil }
            current = origin
        }
        return nil
    }
}
