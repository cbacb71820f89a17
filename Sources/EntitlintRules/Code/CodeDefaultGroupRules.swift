import EntitlintCore

/// `save-to-shared-default-group` (keychain-access-groups.md sections 1 and 4): code saves without an access
/// group in a target whose default group is shared with a target that does not default to it.
struct SaveToSharedDefaultGroupRule: ProjectRule {
    static let description = RuleDescription(
        id: "save-to-shared-default-group", severity: .warning,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .nothing,
        summary: "Code saves a keychain item without an access group, so it lands in a default group that other targets share.",
        rationale: """
        `SecItemAdd` without `kSecAttrAccessGroup` stores the item in the default group, element 0 of the list \
        (keychain-access-groups.md section 1). When that is a shared group rather than the target's own App ID, the item is shared \
        with every target that lists the group, usually without anyone meaning it, and it moves with the list's \
        order (keychain-access-groups.md section 4: pass the group explicitly for shared items). The rule reports a save only where \
        the query is a dictionary built in the same function and names no group, and only when another target lists \
        the group without having it as its own default (targets that all default to one shared group share by \
        design; `default-group-not-app-id` speaks about that). On macOS only data-protection keychain queries are \
        considered.
        """,
        triggering: [
            sessionProject(appGroups: ["com.example.shared", "com.example.App"], marked: true,
                           comment: "The app's session lands in the group the widget reads too."),
        ],
        nonTriggering: [
            sessionProject(appGroups: ["com.example.App", "com.example.shared"], marked: false,
                           comment: "The app's own App ID comes first: the session stays private."),
        ]
    )

    /// The examples' project: an app that saves its session without an access group, its
    /// keychain groups `appGroups` in that order, and a widget that lists the shared group.
    static func sessionProject(appGroups: [String], marked: Bool, comment: String,
                               file: String = #filePath, line: Int = #line) -> RuleExample {
        let list = appGroups.map { "\t<string>$(AppIdentifierPrefix)\($0)</string>" }.joined(separator: "\n")
        return .project([
            ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                               entitlements: "<key>keychain-access-groups</key>\n<array>\n\(list)\n</array>",
                               sources: ["App/Session.swift": #"""
                               func saveSession(_ data: Data) {
                                   let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                               kSecAttrAccount as String: "session",
                                                               kSecValueData as String: data]
                                   \#(marked ? "↓" : "")SecItemAdd(query as CFDictionary, nil)
                               }
                               """#]),
            ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.App.Widget", teamID: "ABCDE12345", host: "App",
                               entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App.Widget</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                               sources: [:]),
        ], comment: comment, file: file, line: line)
    }

    func check(project units: [UnitContext]) -> [Finding] {
        struct Place: Hashable { var path: String, line: Int, column: Int, group: String }
        var order: [Place] = []
        var found: [Place: (CodeSave, [UnitContext], others: [UnitContext])] = [:]
        for context in units {
            guard let code = context.code, !code.saves.isEmpty,
                  let first = context.accessGroups.defaultGroup, first.origin == .keychainAccessGroups,
                  first.value != context.unit.appID else { continue }
            // Targets that list the group but keep another default: items saved here reach them.
            let others = units.filter { other in
                other.unit.targetKey != context.unit.targetKey
                    && other.accessGroups.entries.contains { $0.value == first.value }
                    && other.accessGroups.defaultGroup?.value != first.value
            }
            guard !others.isEmpty else { continue }
            for save in code.saves where context.alwaysUsesAccessGroups || save.dataProtectionKeychain {
                let place = Place(path: save.path, line: save.line, column: save.column, group: first.value)
                if found[place] == nil { order.append(place); found[place] = (save, [], others) }
                found[place]!.1.append(context)
            }
        }
        return order.map { place in
            let (save, contexts, others) = found[place]!
            let own = contexts[0].unit.appID.map { "\"\(OutputText.excerpt($0))\" (its own App ID) to keep it private, or " } ?? ""
            let message = "\(OutputText.excerpt(save.api)) without an access group stores the item in the default group \"\(OutputText.excerpt(place.group))\" of \(CodeGroups.unitNames(contexts)), the first of its keychain-access-groups, which \(CodeGroups.unitNames(others)) also lists: the item is shared with it, and moves if the list is reordered. Pass kSecAttrAccessGroup explicitly: \(own)the shared group if sharing is meant"
            return Finding(rule: Self.description.id, severity: Self.description.severity, message: message, path: save.path,
                           line: save.line, column: save.column, unit: contexts[0].unit.name)
        }
    }
}

/// `access-group-unused-in-code` (keychain-access-groups.md sections 1 and 8): a keychain group other than the
/// default that no code of the project ever names.
struct AccessGroupUnusedInCodeRule: ProjectRule {
    static let description = RuleDescription(
        id: "access-group-unused-in-code", severity: .note,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .nothing,
        summary: "A keychain access group other than the default that no code of any target names.",
        rationale: """
        An item gets into a keychain group other than the default only when code passes that group as \
        `kSecAttrAccessGroup` (keychain-access-groups.md sections 1 and 8). A listed group that no code names holds nothing the \
        project put there: a leftover, or a group meant for code not written yet. Libraries can name groups too \
        (a vendor's single sign-on SDK), so this is a note, and only when every target of the project compiles only \
        files that were found and scanned, links nothing out of reach (remote packages, CocoaPods), and every group \
        its code passes was resolved.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t↓<string>$(AppIdentifierPrefix)com.example.legacy</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   func save(_ data: Data) {
                                       let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
                                       SecItemAdd(query as CFDictionary, nil)
                                   }
                                   """#]),
            ], comment: "Every save goes to the default group; nothing names the legacy group."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.legacy</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   func save(_ data: Data, into group: String) {
                                       let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                                   kSecAttrAccessGroup as String: group, kSecValueData as String: data]
                                       SecItemAdd(query as CFDictionary, nil)
                                   }
                                   """#]),
            ], comment: "The code passes a group only known at run time: it may be the legacy one, so nothing is said."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.legacy</string>\n</array>"),
            ], comment: "What the target compiles is not known (no project says): nothing is said."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        guard !units.isEmpty else { return [] }
        // Every unit's code must be known completely.
        for context in units {
            guard let code = context.code, code.isComplete else { return [] }
        }
        // The groups each unit's code names, in that unit's expansion: a group is used when the
        // code of any unit names it.
        let named = units.reduce(into: Set<String>()) { all, context in
            for use in context.code!.groups { if let v = use.resolved.value { all.insert(context.expand(v).text) } }
        }
        var out: [Finding] = []
        for context in units {
            let list = context.accessGroups
            for entry in list.entries where entry.origin == .keychainAccessGroups {
                guard entry.value != list.defaultGroup?.value, entry.value != context.unit.appID,
                      entry.value != AccessGroupList.tokenGroup, !named.contains(entry.value),
                      !context.settings.isExternal(value: entry.value, raw: entry.raw) else { continue }
                out.append(finding("no code of any target names the keychain access group \"\(OutputText.excerpt(entry.value))\", and it is not the default group: items get into it only when code passes it as kSecAttrAccessGroup, so the project puts nothing there (a library may; if none does, remove the group)",
                                   in: context, at: context.location(of: entry), keyPath: entry.keyPath))
            }
        }
        return out
    }
}
