import EntitlintCore
import PropertyList

/// `unresolved-variable` (keychain-access-groups.md sections 2 and 6).
struct UnresolvedVariableRule: Rule {
    static let description = RuleDescription(
        id: "unresolved-variable", severity: .warning,
        category: .entitlements, readsOnlyTheFile: false, precision: .high, facts: .nothing,
        summary: "A $(VAR), ${VAR} or template placeholder that cannot be expanded from the known settings.",
        rationale: """
        Xcode expands `$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)`, `$(PRODUCT_BUNDLE_IDENTIFIER)` and \
        friends at signing time; when their value is not known here they stay symbolic and are correct by \
        construction. Any other variable must come from a build setting, and template placeholders such as \
        `{{VAR}}` or `###VAR###` are left by generators (keychain-access-groups.md section 6). Some tools expand what they do not \
        know to the empty string, silently dropping a prefix (section 2). Entitlint never guesses: give the value \
        in `.entitlint.yml` under `variables:` so the group can be checked.

        It reports what a target of an Xcode project or XcodeGen spec signs with: there a reference nothing \
        expands is a real gap. In a loose entitlements file (no project read here signs with it: a CMake, \
        Bazel or Tuist build, or a file linted alone) the build system that signs it may well set the \
        variable, so the run only says, in a notice, which references it could not check.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>$(AppIdentifierPrefix)$(BUNDLE_ID_PREFIX).shared</string>\n</array>",
                        comment: "A target of an Xcode project whose settings cannot resolve the reference (it leads to a file that cannot be read, or to itself).",
                        settings: ["TARGET_NAME": "Example"]),
            RuleExample("<key>com.apple.security.application-groups</key>\n<array>\n\t↓<string>group.{{MAIN_BUNDLE_ID}}</string>\n</array>",
                        comment: "A template placeholder left by a generator, in a file a target signs with.", settings: ["TARGET_NAME": "Example"]),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t↓<string>###APP_IDENTIFIER_PREFIX###com.example.shared</string>\n</array>",
                        settings: ["TARGET_NAME": "Example"]),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<string>$(TeamIdentifierPrefix)com.example.shared</string>\n</array>",
                        comment: "Standard variables stay symbolic when the team and bundle ID are unknown."),
            RuleExample("<key>com.apple.developer.team-identifier</key>\n<string>${DEVELOPMENT_TEAM}</string>"),
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)$(BUNDLE_ID_PREFIX).shared</string>\n</array>",
                        comment: "A loose file: no project read here signs with it, so the build system that does may set the variable; the run says so in a notice."),
        ]
    )

    /// Whether any string below `node` has an unresolved reference: the usual answer, no, comes
    /// from a walk that keeps no key path.
    static func anyUnresolved(_ node: PlistNode, _ expander: VariableExpander) -> Bool {
        switch node.value {
        case .string(let s): return expander.hasUnresolved(s)
        case .array(let items): return items.contains { anyUnresolved($0, expander) }
        case .dict(let d): return d.entries.contains { anyUnresolved($0.value, expander) }
        default: return false
        }
    }

    /// The setting a reference's name reads: `NAME` of `NAME:default=x` (operators dropped).
    static func settingName(_ name: String) -> String { String(name.prefix { $0 != ":" }) }

    func check(_ context: UnitContext) -> [Finding] {
        // A file no target Entitlint reads signs with (a loose file, or one a build system it does
        // not read configures): its settings are unknown, not wrong. The run says so in a notice.
        guard context.unit.origin != nil || context.unit.artifact != nil else { return [] }
        guard Self.anyUnresolved(context.unit.document.root, context.expander) else { return [] }
        var out: [Finding] = []
        walkPlist(context.unit.document.root) { node, path in
            guard case .string(let s) = node.value, context.expander.hasUnresolved(s) else { return }
            // A setting only a missing file (a per-developer or generated xcconfig) could set is
            // unknown, not wrong: the notice about that file names it.
            let unknown = context.unit.origin?.unknownSettings ?? [:]
            let unresolved = context.expand(s).unresolved.filter { $0.isTemplate || unknown[Self.settingName($0.name)] == nil }
            guard !unresolved.isEmpty else { return }
            let names = unresolved.map(\.text).joined(separator: ", ")
            let templates = unresolved.allSatisfy(\.isTemplate)
            let hint = templates
                ? "a template placeholder that nothing in the Xcode build expands; generate the file first or write the value"
                : "not a variable Entitlint knows; set it under `variables:` in .entitlint.yml so the value can be checked"
            out.append(finding("\(names) in \"\(s)\" cannot be expanded: \(hint)", in: context, at: node.location,
                               keyPath: PathComponent.render(path)))
        }
        return out
    }
}
