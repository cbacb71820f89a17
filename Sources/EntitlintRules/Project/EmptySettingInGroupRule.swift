import EntitlintCore
import PropertyList

/// `empty-setting-in-group` (keychain-access-groups.md sections 2 and 2.1).
struct EmptySettingInGroupRule: Rule {
    static let description = RuleDescription(
        id: "empty-setting-in-group", severity: .error,
        category: .project, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "The group is malformed after a setting that is empty in the configuration (its name part is empty, or starts or ends with a dot), whatever the App ID prefix in front of it is."),
        summary: "A keychain or app group left without a name by a build setting that is empty in this configuration.",
        rationale: """
        Xcode evaluates a build setting that no level defines as the empty string, without a warning (keychain-access-groups.md \
        section 2.1). A group built from one, `$(AppIdentifierPrefix)$(VAULT_GROUP)` with `VAULT_GROUP` set only in \
        the Release xcconfig, is `ABCDE12345.` in Debug: a group with no name (section 2), which matches no other \
        target's group, and `group.$(APP_GROUP_NAME)` becomes `group.`. The finding names the empty setting and \
        where it is set. When the configuration also leaves the bundle ID empty, it is a template for developers \
        to fill in, not a build that can be signed: nothing is reported. A setting that no committed file sets \
        while a file of the configuration's xcconfig chain is missing (a per-developer or generated xcconfig) \
        is unknown, not empty, and is not reported either (section 2.1).
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(VAULT_GROUP)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345", comment: "`VAULT_GROUP` is set only for Release: in Debug the group is `ABCDE12345.`.",
                        settings: ["VAULT_GROUP": ""]),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.$(APP_GROUP_NAME)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345", comment: "An app group that is `group.` alone.",
                        settings: ["APP_GROUP_NAME": ""]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(BASE_ID).shared</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345", comment: "An empty middle part: `ABCDE12345..shared`.",
                        settings: ["BASE_ID": ""]),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(VAULT_GROUP)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345", comment: "Set in this configuration.",
                        settings: ["VAULT_GROUP": "com.example.vault"]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.App$(GROUP_SUFFIX)</string>\n</array>",
                        bundleID: "com.example.App", teamID: "ABCDE12345", comment: "An empty suffix still leaves a well-formed group.",
                        settings: ["GROUP_SUFFIX": ""]),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>$(APP_GROUP)</string>\n</array>",
                        teamID: "ABCDE12345", comment: "A template configuration: the bundle ID is empty too, for developers to fill in.",
                        settings: ["APP_GROUP": ""]),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let empty = context.unit.origin?.emptySettings, !empty.isEmpty else { return [] }
        var out: [Finding] = []
        for items in [context.keychainGroups, context.appGroups] {
            for item in items where item.value.containsASCII("$") {
                let names = VariableExpander.references(in: item.value).map { VariableExpander.baseName($0.name) }.filter { empty[$0] != nil }
                guard !names.isEmpty else { continue }
                let value = context.expanded(item).text
                guard let why = Self.malformation(value, isAppGroup: item.key != "keychain-access-groups") else { continue }
                let what = item.key == "keychain-access-groups" ? "keychain access group" : "app group"
                let reasons = names.map { "$(\($0)) is empty here: \(empty[$0]!)" }.joined(separator: "; ")
                // No configuration in the text: the same problem in several configurations is one
                // finding, which the run ends with the units it concerns.
                var message = "\(what) \"\(item.value)\" is \"\(value)\", \(why): \(reasons)"
                // A configuration that leaves the bundle ID empty too is a template to fill in.
                guard context.unit.bundleID != nil else { continue }
                var f = finding("", in: context, at: item.location, keyPath: item.keyPath)
                message += ". Set it for this configuration, or build the group from settings every configuration sets"
                f.message = message
                out.append(f)
            }
        }
        return out
    }

    /// Why `value` (after expansion) is not a usable group name, or nil. A prefix variable that is
    /// still symbolic counts as a prefix.
    static func malformation(_ value: String, isAppGroup: Bool) -> String? {
        var name = Substring(value)
        for p in ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"] where name.hasPrefix(p) {
            name = name.dropFirst(p.count)
            if name.isEmpty { return "a prefix with no name after it" }
            break
        }
        if name.allSatisfy({ $0 == " " || $0 == "\t" }) { return "an empty group" }
        if name.last == "." { return "a group whose name ends with a dot" }
        if name.first == "." { return "a group whose name starts with a dot" }
        if name.contains("..") { return "a group with an empty part between dots" }
        if isAppGroup && name == "group" { return "an app group with no name" }
        return nil
    }
}
