import EntitlintCore

/// `code-group-unexpanded-variable` (keychain-access-groups.md sections 2 and 8): a group string in code holds
/// `$(AppIdentifierPrefix)` or another build-setting reference, which nothing expands in code.
struct CodeGroupUnexpandedVariableRule: ProjectRule {
    static let description = RuleDescription(
        id: "code-group-unexpanded-variable", severity: .error,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .certain(because: "A build-setting reference in a code literal is never expanded, whatever the unit's facts."),
        summary: "Code passes a keychain access group written with a build-setting reference such as $(AppIdentifierPrefix), which is never expanded in code.",
        rationale: """
        Xcode expands build settings in property lists (the entitlements, the Info.plist), never in Swift or \
        Objective-C source (keychain-access-groups.md section 8): a string literal `"$(AppIdentifierPrefix)com.example.shared"` \
        reaches the keychain as that text, which no entitlement grants, so every call fails with \
        errSecMissingEntitlement (-34018). The rule reports a group whose value holds `$(` or `${` from a literal \
        written in the code (a constant of any file of the target included); a value read from the Info.plist, \
        where Xcode does expand it, is not one. The fix is to read the prefix at run time from an Info.plist entry \
        set to `$(AppIdentifierPrefix)`.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": #"""
                                   import KeychainAccess

                                   let shared = Keychain(service: "tokens", ↓accessGroup: "$(AppIdentifierPrefix)com.example.shared")
                                   """#]),
            ], comment: "The group is copied from the entitlements file, variable and all."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Store.m": #"""
                                   #define kGroup @"${AppIdentifierPrefix}com.example.shared"

                                   - (void)save:(NSData *)data {
                                       NSDictionary *query = @{ (__bridge id)↓kSecAttrAccessGroup: kGroup, (__bridge id)kSecValueData: data };
                                       SecItemAdd((__bridge CFDictionaryRef)query, NULL);
                                   }
                                   """#]),
            ], comment: "Objective-C: the preprocessor does not expand build settings either."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": #"""
                                   import KeychainAccess

                                   let prefix = Bundle.main.object(forInfoDictionaryKey: "AppIdentifierPrefix") as! String
                                   let shared = Keychain(service: "tokens", accessGroup: prefix + "com.example.shared")
                                   """#],
                                   infoPlist: ["AppIdentifierPrefix": "$(AppIdentifierPrefix)"]),
            ], comment: "The Info.plist entry is expanded when the app is built; the code reads the result."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        CodeGroups.findings(Self.description, units, match: { c -> String? in
            if case .variableInCode(let literal) = c.standing { return literal } else { return nil }
        }, word: { failing in
            let (first, literal) = failing[0]
            return ("access group \(CodeGroups.described(first)) is written with a build-setting reference in the code literal \"\(OutputText.excerpt(literal))\": build settings are expanded in property lists, never in code, so the keychain gets that text as written, which no entitlement grants, and every call fails with errSecMissingEntitlement (-34018); \(CodeGroups.readPrefixAdvice)", nil)
        })
    }
}

/// `code-group-foreign-prefix` (keychain-access-groups.md sections 2 and 8): code passes a group under a prefix
/// that is not the target's: another team's, which no profile of this team can grant.
struct CodeGroupForeignPrefixRule: ProjectRule {
    static let description = RuleDescription(
        id: "code-group-foreign-prefix", severity: .error,
        category: .code, readsOnlyTheFile: false, precision: .medium,
        facts: FactNeeds(needs: [.appIDPrefix], certainWith: [.appIDPrefix], whenAssumed: .note),
        summary: "Code passes a keychain access group under a prefix that is neither the target's App ID prefix, nor its Team ID, nor one its profile lists.",
        rationale: """
        A keychain group carries its team's App ID prefix, and a profile allows only groups under the App ID \
        prefix of the app (keychain-access-groups.md section 2): a group under another team's prefix can never be granted, \
        and keychain items cannot move between teams. Code that queries one (often migration code reading an \
        earlier owner's items) fails every call with errSecMissingEntitlement (-34018, section 8). The rule reports a \
        group the code spells with a Team-ID-like prefix that is none of the target's when the list does not grant \
        it (the same name under the target's own prefix is `code-group-wrong-prefix`). When the target's App ID \
        prefix is only assumed equal to a Team ID read from the project, the prefix the code spells may be the \
        team's real (legacy, pre-2011) prefix: the finding is then a note that says so; give the profile with \
        `--profile` or state the team with `--team-id` or the configuration's `team:` to make it certain.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                                   sources: ["App/Migration.swift": #"""
                                   func readLegacyToken() -> Data? {
                                       let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                                   ↓kSecAttrAccessGroup as String: "QRSTU67890.com.previousowner.shared",
                                                                   kSecReturnData as String: true]
                                       var result: AnyObject?
                                       return SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess ? result as? Data : nil
                                   }
                                   """#]),
            ], comment: "Migration code reads the items of the app's previous owner, under that team's prefix."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   let query: [String: Any] = [kSecAttrAccessGroup as String: "ABCDE12345.com.example.App"]
                                   """#]),
            ], comment: "The code spells the target's own prefix."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   let query: [String: Any] = [kSecAttrAccessGroup as String: "group.com.example.App"]
                                   """#]),
            ], comment: "No Team-ID-like prefix: whether the group is granted is `code-group-not-entitled`'s question."),
        ]
    )

    func check(project units: [UnitContext]) -> [Finding] {
        CodeGroups.findings(Self.description, units, match: { c -> String? in
            if case .foreignPrefix(let written) = c.standing { return written } else { return nil }
        }, word: { failing in
            let (first, written) = failing[0]
            let unit = first.context.unit
            let own = [unit.appIDPrefix.map { "the App ID prefix \($0.value)" }, unit.teamID.map { "the Team ID \($0.value)" }]
                .compactMap { $0 }.joined(separator: " and ")
            return ("access group \(CodeGroups.described(first)) is under the prefix \(OutputText.excerpt(written)), which is not one of \(CodeGroups.unitNames(failing.map(\.check.context))) (\(own)) nor listed by a profile: a group under another team's prefix can never be granted, so every call fails with errSecMissingEntitlement (-34018); items of another team cannot be read, so share them through the target's own groups (an app group survives a transfer)", nil)
        })
    }
}
