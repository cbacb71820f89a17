import EntitlintCore

/// `inconsistent-default-group` (keychain-access-groups.md sections 1 and 4): an extension whose list lacks its
/// host app's default group (or the other way round) although they share a keychain group, and
/// configurations of one target whose default groups differ.
struct InconsistentDefaultGroupRule: ProjectRule {
    static let description = RuleDescription(
        id: "inconsistent-default-group", severity: .warning,
        category: .project, readsOnlyTheFile: false, precision: .high, facts: .nothing,
        summary: "An extension that does not list its host app's default access group (or whose own default the host does not list) although both share a keychain group, or configurations of one target whose default groups differ.",
        rationale: """
        `SecItemAdd` without `kSecAttrAccessGroup` stores an item in the first group of the list, the default \
        (keychain-access-groups.md section 1); a read without a group searches every group of the reader's list. An app and its \
        extension that share a keychain group usually mean to share what they save: when the host app's default \
        is missing from the extension's list, what the app saves without an explicit group is out of the \
        extension's reach (and the same the other way round). Add the host's default to the extension's list \
        (after its first group, so the extension's own default does not move: a moved default is a drift, \
        section 4), or always pass `kSecAttrAccessGroup`. The host is the app target that embeds the extension \
        (or depends on it), in the same configuration; App Clips are left out (they may use no keychain group).

        Configurations of one target (Debug, Release, a CI configuration) that build the same app (the same \
        bundle ID) and sign an entitlements file, whose default groups differ, other than by the bundle ID in an \
        App ID (the unit's own, or an app's up its host chain), are reported too: a build of one stores its items where the shipped one \
        does not, and the difference is found only once the shipped configuration runs (section 4). Release, when \
        the target has it, is taken as the one that ships; else the default most configurations share.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "Each keeps its own ID first: what the app saves without a group is out of the extension's reach."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", configuration: "Release", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", configuration: "Staging", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
            ], comment: "A CI configuration puts the shared group first: its builds save where Release does not."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.AppOne.Share", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>"),
            ], comment: "The extension puts its host's ID first: both save to the same default."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.ShareExt</string>\n</array>"),
                ProjectExampleUnit("ShareExtension", kind: .appExtension, bundleID: "com.example.ShareExt", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne</string>\n</array>"),
            ], comment: "Different defaults, but each lists the other's: a read without a group finds what either saved."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.AppOne.Widget", teamID: "ABCDE12345", host: "AppOne", entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>"),
            ], comment: "No keychain group in common: nothing to be consistent about."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", configuration: "Release", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne.debug", teamID: "ABCDE12345", configuration: "Debug", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</array>"),
            ], comment: "Debug has its own bundle ID: each configuration's default is its own App ID, a separate app."),
            .project([
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne", teamID: "ABCDE12345", configuration: "Release", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne.keychain</string>\n</array>"),
                ProjectExampleUnit("AppOne", bundleID: "com.example.AppOne.beta", teamID: "ABCDE12345", configuration: "Beta", entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.AppOne.beta.keychain</string>\n</array>"),
            ], comment: "A Beta configuration with its own bundle ID is another app, with its groups named in step with it: not compared."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        hostFindings(units) + configurationFindings(units)
    }

    /// Extensions whose list lacks the host's default, or whose default the host does not list.
    func hostFindings(_ units: [UnitContext]) -> [Finding] {
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
            guard let shared = mine.first(where: { theirs.contains($0) }), let myDefault = c.accessGroups.defaultGroup,
                  let hostDefault = host.accessGroups.defaultGroup, myDefault.value != hostDefault.value else { continue }
            let myList = Set(c.accessGroups.entries.map(\.value))
            let hostList = Set(host.accessGroups.entries.map(\.value))
            let hostMissing = !myList.contains(hostDefault.value)
            let mineMissing = !hostList.contains(myDefault.value)
            guard hostMissing || mineMissing else { continue }
            var message: String
            if hostMissing {
                message = "the host app \(hostName)'s default access group \"\(hostDefault.value)\" is not in this extension's list, although both list \"\(shared)\": what the app saves without kSecAttrAccessGroup is out of this extension's reach"
                if mineMissing { message += ", and what this extension saves without it goes to \"\(myDefault.value)\", out of the app's" }
                // Written with this extension's own prefix; a group of another prefix is one it
                // cannot list (team-prefix-mismatch), so then only the explicit group is advised.
                if let prefix = c.unit.appIDPrefix?.value, hostDefault.value.hasPrefix(prefix + ".") {
                    message += "; add \"\(Self.written(hostDefault.value, in: c))\" to keychain-access-groups here, after \"\(myDefault.raw)\" so that this extension's own default does not move, or always pass kSecAttrAccessGroup"
                } else {
                    message += "; always pass kSecAttrAccessGroup (\"\(shared)\") for what they share"
                }
            } else {
                message = "this extension's default access group \"\(myDefault.value)\" is not in the host app \(hostName)'s list, although both list \"\(shared)\": what this extension saves without kSecAttrAccessGroup is out of the app's reach; always pass kSecAttrAccessGroup (\"\(shared)\") for what they share"
            }
            out.append(finding(message, in: c, at: c.location(of: myDefault), keyPath: myDefault.keyPath))
        }
        return out
    }

    /// Configurations of one target (and platform) whose default groups differ other than by the
    /// bundle ID of an App ID. Only concrete defaults are compared: one left symbolic (a team
    /// unknown in that configuration) is in another form, and one left open by a variable is
    /// another rule's.
    ///
    /// Like is compared with like: only configurations that sign an entitlements file of their own
    /// (one with none has no default to compare) and build the same app (the same known bundle ID:
    /// a `.debug` or Beta bundle ID is another app, with groups named in step with it); two
    /// defaults written the same (the unexpanded first entry) are the same default.
    func configurationFindings(_ units: [UnitContext]) -> [Finding] {
        var byTarget: [String: [(context: UnitContext, key: String)]] = [:]
        var order: [String] = []
        var byConfiguration: [String: UnitContext] = [:]
        for c in units {
            guard let o = c.unit.origin else { continue }
            byConfiguration[o.projectFile + "#" + o.target + "#" + o.configuration] = c
        }
        /// The App IDs of the apps up the host chain (a widget's watch app's iPhone app), at most 8 levels.
        func hostAppIDs(_ c: UnitContext) -> Set<String> {
            var out = Set<String>()
            var current = c
            for _ in 0..<8 {
                guard let o = current.unit.origin, let host = o.hostTarget,
                      let next = byConfiguration[o.projectFile + "#" + host + "#" + o.configuration] else { break }
                out.insert(next.ownAppID)
                current = next
            }
            if let host = c.unit.origin?.hostBundleID { out.insert(c.expand("$(AppIdentifierPrefix)" + host).text) }
            return out
        }
        for c in units {
            guard let o = c.unit.origin, o.kind != .appClip, o.hasEntitlementsFile, let bundle = c.unit.bundleID?.value,
                  let d = c.accessGroups.defaultGroup, d.isConcrete, !d.value.hasSuffix(".") else { continue }
            // The role of the default, where it is an App ID: the unit's own, or an app's up its
            // host chain, whatever the bundle ID of this configuration; else how it is written.
            let key: String
            if d.value == c.ownAppID || d.raw == VariableExpander.derivedAppID { key = "" }
            else if hostAppIDs(c).contains(d.value) { key = "host" }
            else { key = "raw:" + d.raw }
            let target = o.targetKey + "#" + (o.sdk ?? "") + "#" + bundle
            if byTarget[target] == nil { order.append(target) }
            byTarget[target, default: []].append((c, key))
        }
        var out: [Finding] = []
        for target in order {
            let configurations = byTarget[target]!
            guard Set(configurations.map(\.key)).count > 1 else { continue }
            var counts: [String: Int] = [:]
            for c in configurations { counts[c.key, default: 0] += 1 }
            let reference = configurations.first { $0.context.unit.origin?.configuration == "Release" } ?? configurations.min { a, b in
                let (ca, cb) = (counts[a.key]!, counts[b.key]!)
                return ca != cb ? ca > cb : a.context.unit.origin!.configuration < b.context.unit.origin!.configuration
            }!
            let shipped = reference.context.accessGroups.defaultGroup!
            let shippedName = reference.context.unit.origin!.configuration
            for c in configurations where c.key != reference.key {
                let mine = c.context.accessGroups.defaultGroup!
                guard mine.value != shipped.value else { continue }   // the same group, written two ways
                let written = reference.key.isEmpty ? "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)" : Self.written(shipped.value, in: reference.context)
                let role = reference.key.isEmpty ? " (its App ID)" : reference.key == "host" ? " (its host app's App ID)" : ""
                let message = "the default access group in configuration \(c.context.unit.origin!.configuration) is \"\(mine.value)\", but in \(shippedName) it is \"\(shipped.value)\"\(role): items a \(c.context.unit.origin!.configuration) build saves without kSecAttrAccessGroup go where a \(shippedName) build does not put them; put \"\(written)\" first in every configuration's keychain-access-groups (or in the setting that differs)"
                out.append(finding(message, in: c.context, at: c.context.location(of: mine), keyPath: mine.keyPath))
            }
        }
        return out
    }

    /// A group as Xcode writes it in entitlements: the App ID prefix as `$(AppIdentifierPrefix)`,
    /// never a literal prefix another team's build would get wrong; the value itself when it
    /// does not start with the unit's prefix.
    static func written(_ group: String, in context: UnitContext) -> String {
        guard let prefix = context.unit.appIDPrefix?.value, group.hasPrefix(prefix + ".") else { return group }
        let name = String(group.dropFirst(prefix.count + 1))
        guard !name.isEmpty, !String(name.firstComponent).isTeamIDLike else { return group }
        return "$(AppIdentifierPrefix)" + name
    }
}
