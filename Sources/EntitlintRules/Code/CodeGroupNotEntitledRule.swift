import EntitlintCore

/// `code-group-not-entitled` (keychain-access-groups.md sections 1 and 8): code passes an access group that the
/// entitlements of a target compiling it do not grant.
struct CodeGroupNotEntitledRule: ProjectRule {
    static let description = RuleDescription(
        id: "code-group-not-entitled", severity: .error,
        category: .code, readsOnlyTheFile: false, precision: .medium, facts: .certain(because: "The group's name is granted under no prefix at all (one granted under another prefix is code-group-wrong-prefix's, a Team-ID-like prefix not the unit's is code-group-foreign-prefix's), so the finding holds whatever the App ID prefix is."),
        summary: "Code passes a keychain access group that the entitlements of a target compiling it do not grant.",
        rationale: """
        A keychain query that names an access group succeeds only when the group is in the app's access-group list, \
        matched exactly (keychain-access-groups.md section 1); otherwise every call fails with errSecMissingEntitlement (-34018, \
        "Client explicitly specifies access group ... but is only entitled for ...", keychain-access-groups.md section 8). The rule \
        resolves the group each place in the code passes (a literal, a constant of any file of the target, an \
        Info.plist entry expanded with the target's build settings) and checks it against every target that compiles \
        that file, local Swift packages and linked framework targets included: an extension that compiles the app's keychain helper needs the \
        app's group too. A group whose value the code builds at run time is not checked (see the report). A group \
        that only lacks or misspells the App ID prefix is `code-group-missing-prefix` or `code-group-wrong-prefix` \
        instead. On macOS the legacy file keychain ignores access groups, so for a macOS target (not Mac Catalyst) \
        the finding is a note: it fails only in the data-protection keychain.
        """,
        triggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["Shared/Keychain.swift": sharedHelper]),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.App.Widget", teamID: "ABCDE12345", host: "App",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App.Widget</string>\n</array>",
                                   sources: ["Shared/Keychain.swift": sharedHelper]),
            ], comment: "The widget compiles the app's keychain helper, but only the app is granted the shared group."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                                   sources: ["App/Store.m": #"""
                                   #define kSharedGroup @"ABCDE12345.com.example.family"

                                   - (void)save:(NSData *)data {
                                       NSDictionary *query = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                                                (__bridge id)↓kSecAttrAccessGroup: kSharedGroup,
                                                                (__bridge id)kSecValueData: data };
                                       SecItemAdd((__bridge CFDictionaryRef)query, NULL);
                                   }
                                   """#]),
            ], comment: "Objective-C: a macro names a group the app does not list."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": channelHelper]),
            ], comment: "A computed property returns a group per case: each is checked, and the beta channel's group is not granted."),
            .project(debugAndRelease(debugStore), comment: "Objective-C `#ifdef DEBUG`: Debug defines `DEBUG` (`GCC_PREPROCESSOR_DEFINITIONS`), Release does not, so the debug group is checked for Debug only."),
            .project(debugAndRelease(swiftDebugStore, swift: true),
                     comment: "Swift `#if DEBUG` around the place that passes the group: Debug sets `DEBUG` (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`), Release does not, so the debug group is checked for Debug only."),
        ],
        nonTriggering: [
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["Shared/Keychain.swift": sharedHelper.replacing("↓", with: "")]),
                ProjectExampleUnit("Widget", kind: .appExtension, bundleID: "com.example.App.Widget", teamID: "ABCDE12345", host: "App",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App.Widget</string>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["Shared/Keychain.swift": sharedHelper.replacing("↓", with: "")]),
            ], comment: "Both targets that compile the helper are granted the group it passes."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.suite</string>\n</array>",
                                   sources: ["App/Tokens.swift": #"""
                                   import KeychainAccess

                                   let keychain = Keychain(service: "tokens", accessGroup: "group.com.example.suite")
                                   """#]),
            ], comment: "On iOS an app group is a keychain access group too."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App</string>\n</array>",
                                   sources: ["App/Store.swift": #"""
                                   func save(_ data: Data, group: String) {
                                       let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                                   kSecAttrAccessGroup as String: group,
                                                                   kSecValueData as String: data]
                                       SecItemAdd(query as CFDictionary, nil)
                                   }
                                   """#]),
            ], comment: "A group the code receives at run time is not known: nothing is claimed."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Keychain.swift": #"""
                                   enum Keychain {
                                       static let group: String = {
                                           #if BETA
                                           return "ABCDE12345.com.example.beta"
                                           #else
                                           return "ABCDE12345.com.example.shared"
                                           #endif
                                       }()
                                   }

                                   let query: [String: Any] = [kSecAttrAccessGroup as String: Keychain.group]
                                   """#]),
            ], comment: "An `#if` branch whose condition the build settings do not decide (here none are known) is not checked."),
            .project(debugAndRelease(debugStore.replacing("↓", with: ""), debug: [:]),
                     comment: "Objective-C: no configuration defines `DEBUG`, so the `#ifdef DEBUG` branch is never compiled."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Store.m": debugStore.replacing("↓", with: "").replacing("#ifdef DEBUG", with: "#if 0")]),
            ], comment: "An `#if 0` branch is never compiled, whatever the build settings (here not known)."),
            .project([
                ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345",
                                   entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                                   sources: ["App/Store.m": debugStore.replacing("↓", with: "").replacing("#ifdef DEBUG", with: "#if TARGET_OS_SIMULATOR")],
                                   macros: ["DEBUG": "1"]),
            ], comment: "A macro the SDK defines (`TARGET_OS_SIMULATOR`) is not decided by the build settings: neither branch is checked (the report lists both)."),
            .project(debugAndRelease(swiftDebugStore.replacing("↓", with: "").replacing("#if DEBUG", with: "#if os(macOS)"), swift: true),
                     comment: "Swift: the build settings do not decide `os(macOS)`, so the place under it is not checked in any configuration (the report lists it with its condition)."),
        ]
    )

    static let sharedHelper = #"""
    enum Groups {
        static let shared = "ABCDE12345.com.example.shared"
    }

    func saveToken(_ data: Data) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    ↓kSecAttrAccessGroup as String: Groups.shared,
                                    kSecValueData as String: data]
        SecItemAdd(query as CFDictionary, nil)
    }
    """#

    /// An Objective-C store whose group depends on `DEBUG`.
    static let debugStore = #"""
    - (void)save:(NSData *)data {
        NSMutableDictionary *query = [NSMutableDictionary dictionary];
    #ifdef DEBUG
        query[(__bridge id)↓kSecAttrAccessGroup] = @"ABCDE12345.com.example.debug";
    #else
        query[(__bridge id)kSecAttrAccessGroup] = @"ABCDE12345.com.example.shared";
    #endif
        query[(__bridge id)kSecValueData] = data;
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
    }
    """#

    /// A Swift store that passes its group in `#if DEBUG` branches.
    static let swiftDebugStore = #"""
    func save(_ data: Data) {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
    #if DEBUG
        query[↓kSecAttrAccessGroup as String] = "ABCDE12345.com.example.debug"
    #else
        query[kSecAttrAccessGroup as String] = "ABCDE12345.com.example.shared"
    #endif
        SecItemAdd(query as CFDictionary, nil)
    }
    """#

    /// The Debug and Release configurations of one app compiling `store` (`App/Store.m`, or with
    /// `swift` `App/Store.swift`), Debug defining these macros (Swift: `DEBUG`), Release none.
    static func debugAndRelease(_ store: String, debug: [String: String] = ["DEBUG": "1"], swift: Bool = false) -> [ProjectExampleUnit] {
        ["Debug", "Release"].map { configuration in
            ProjectExampleUnit("App", bundleID: "com.example.App", teamID: "ABCDE12345", configuration: configuration,
                               entitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>",
                               sources: [swift ? "App/Store.swift" : "App/Store.m": store],
                               macros: swift ? nil : configuration == "Debug" ? debug : [:],
                               swiftConditions: swift ? (configuration == "Debug" ? ["DEBUG"] : []) : nil)
        }
    }

    static let channelHelper = #"""
    enum Keychain {
        static var group: String {
            switch Build.channel {
            case .store: return "ABCDE12345.com.example.shared"
            case .beta: return "ABCDE12345.com.example.beta"
            }
        }
    }

    func save(_ data: Data) {
        let query: [String: Any] = [↓kSecAttrAccessGroup as String: Keychain.group, kSecValueData as String: data]
        SecItemAdd(query as CFDictionary, nil)
    }
    """#

    func check(project units: [UnitContext]) -> [Finding] {
        CodeGroups.findings(Self.description, units, match: { c -> Void? in
            if case .notGranted = c.standing { return () } else { return nil }
        }, word: { failing in
            let first = failing[0].check
            let contexts = failing.map(\.check.context)
            let granted = first.context.accessGroups.distinctValues.prefix(6).map { "\"\(OutputText.excerpt($0))\"" }.joined(separator: ", ")
            let onlyMac = !contexts.contains { $0.alwaysUsesAccessGroups }
            let consequence = onlyMac
                ? "in the data-protection keychain every call with it fails with errSecMissingEntitlement (-34018); the legacy file keychain ignores the group"
                : "every keychain call with it fails with errSecMissingEntitlement (-34018)"
            return ("code passes access group \(CodeGroups.described(first)), which the entitlements of \(CodeGroups.unitNames(contexts)) do not grant: \(consequence). \(first.context.unit.origin?.target ?? first.context.unit.name) is granted \(granted.isEmpty ? "no group" : granted). Grant the group in the target's entitlements, or do not compile this code into the target",
                    onlyMac ? .note : nil)
        })
    }
}
