import EntitlintCore

/// `code-group-missing-prefix` (keychain-access-groups.md sections 2 and 8): code passes a group without the App
/// ID prefix that the entitlements put before it.
struct CodeGroupMissingPrefixRule: ProjectRule {
    static let description = RuleDescription(
        id: "code-group-missing-prefix", severity: .error,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .certain(because: "The code spells no prefix where the list has one: every call fails whatever the App ID prefix is."),
        summary: "Code passes a keychain access group without the App ID prefix that its entitlements give it.",
        rationale: """
        Xcode expands `$(AppIdentifierPrefix)` in the entitlements, but code must pass the whole string: \
        `ABCDE12345.com.example.shared`, not `com.example.shared` (keychain-access-groups.md section 8). Matching is exact \
        (keychain-access-groups.md section 1), so the unprefixed name is a group the app does not have, and every call fails with \
        errSecMissingEntitlement (-34018). The fix is to build the group from the prefix read at run time (an \
        Info.plist entry set to `$(AppIdentifierPrefix)`), not to hard-code a Team ID, which is not always the App ID \
        prefix.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": #"""
                                   import KeychainAccess

                                   let shared = Keychain(service: "tokens", ↓accessGroup: "com.example.shared")
                                   """#]),
            ], comment: "The code spells the group as the entitlements file writes it after the prefix."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": #"""
                                   import KeychainAccess

                                   let prefix = Bundle.main.object(forInfoDictionaryKey: "AppIdentifierPrefix") as! String
                                   let shared = Keychain(service: "tokens", accessGroup: "\(prefix)com.example.shared")
                                   """#],
                                   infoPlist: ["AppIdentifierPrefix": "$(AppIdentifierPrefix)"]),
            ], comment: "The prefix is read at run time from an Info.plist entry that Xcode fills in."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        CodeGroups.findings(Self.description, units, match: { c -> AccessGroupEntry? in
            if case .missingPrefix(let entry) = c.standing { return entry } else { return nil }
        }, word: { failing in
            let (first, entry) = failing[0]
            return ("access group \(CodeGroups.described(first)) lacks the App ID prefix: \(CodeGroups.unitNames(failing.map(\.check.context))) is granted \"\(OutputText.excerpt(entry.value))\" (\(OutputText.excerpt(entry.raw)) at \(OutputText.excerpt(first.context.unit.entitlementsPath)):\(entry.location.line)), and matching is exact, so every call fails with errSecMissingEntitlement (-34018); \(CodeGroups.readPrefixAdvice)", nil)
        })
    }
}

/// `code-group-wrong-prefix` (keychain-access-groups.md sections 6 and 8): code spells an App ID prefix that is not
/// the target's.
struct CodeGroupWrongPrefixRule: ProjectRule {
    static let description = RuleDescription(
        id: "code-group-wrong-prefix", severity: .error,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .certain(because: "Decides in its own code: a finding is an error only when the prefix the entitlements grant is spelled in the file or the unit's App ID prefix is known, else a note saying it was assumed; the engine cannot decide it, since whether the file spells the prefix is a property of the granted entry, not of the unit, and one finding joins several units."),
        summary: "Code spells a keychain access group with an App ID prefix that is not the target's.",
        rationale: """
        Keychain groups carry the App ID prefix (keychain-access-groups.md section 6), and code that hard-codes it breaks when it \
        differs from the target's: after a team migration, in a fork built by another team, or for apps of teams \
        older than 2011, whose App ID prefix may differ from their Team ID. Matching is exact (keychain-access-groups.md section \
        1): the call fails with errSecMissingEntitlement (-34018). An error when the target's prefix is known (from \
        its profile, spelled in its entitlements, or a team you state with `--team-id` or the configuration's `team:`); \
        a note when it is only assumed equal to a Team ID read from the project.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.App</string>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                                   sources: ["App/Constants.swift": #"""
                                   enum Constants {
                                       static let keychainGroup = "FGHIJ67890.com.example.shared"
                                   }
                                   """#, "App/Store.swift": #"""
                                   func store(_ data: Data) {
                                       var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                                       query[↓kSecAttrAccessGroup as String] = Constants.keychainGroup
                                       query[kSecValueData as String] = data
                                       SecItemAdd(query as CFDictionary, nil)
                                   }
                                   """#]),
            ], comment: "The entitlements spell the prefix ABCDE12345; a constant in another file spells FGHIJ67890."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.App</string>\n\t<string>ABCDE12345.com.example.shared</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   func store(_ data: Data) {
                                       var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                                       query[kSecAttrAccessGroup as String] = "ABCDE12345.com.example.shared"
                                       SecItemAdd(query as CFDictionary, nil)
                                   }
                                   """#]),
            ], comment: "The literal prefix is the target's."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        CodeGroups.findings(Self.description, units, match: { c -> (entry: AccessGroupEntry, written: String, known: Bool)? in
            if case .wrongPrefix(let entry, let written, let known) = c.standing { return (entry, written, known) } else { return nil }
        }, word: { failing in
            let first = failing[0].check
            let (entry, written, _) = failing[0].detail
            let known = failing.allSatisfy { $0.detail.known }
            let prefix = AccessGroupList.splitPrefix(entry.value).prefix ?? ""
            let names = CodeGroups.unitNames(failing.map(\.check.context))
            let message: String
            if known {
                message = "access group \(CodeGroups.described(first)) spells the App ID prefix \(OutputText.excerpt(written)), but the prefix of \(names) is \(OutputText.excerpt(prefix)): it is granted \"\(OutputText.excerpt(entry.value))\", and matching is exact, so every call fails with errSecMissingEntitlement (-34018); \(CodeGroups.readPrefixAdvice)"
            } else {
                let source = first.context.unit.appIDPrefix.map { " (\($0.source))" } ?? ""
                message = "access group \(CodeGroups.described(first)) spells the App ID prefix \(OutputText.excerpt(written)), while \(names) is granted \"\(OutputText.excerpt(entry.value))\" with the prefix \(OutputText.excerpt(prefix)), assumed equal to the Team ID\(source): if that is the App ID prefix, every call fails with errSecMissingEntitlement (-34018); teams older than 2011 may have a prefix that differs from their Team ID, so check the profile. Either way, \(CodeGroups.readPrefixAdvice)"
            }
            return (message, known ? nil : .note)
        })
    }
}
