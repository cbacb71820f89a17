import EntitlintCore
import PropertyList

/// `duplicate-key` (keychain-access-groups.md section 5).
struct DuplicateKeyRule: Rule {
    static let description = RuleDescription(
        id: "duplicate-key", severity: .warning,
        category: .entitlements, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "A plist dict key given twice; the earlier value is dead.",
        rationale: """
        CoreFoundation accepts duplicate keys silently and keeps the last (keychain-access-groups.md section 5). The earlier \
        value, often the one a reviewer reads, has no effect. Differences in how parsers treat such files have \
        been exploited before (the "psychic paper" entitlement bypass).
        """,
        triggering: [
            RuleExample("↓<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>\n<key>keychain-access-groups</key>\n<array/>"),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>\n<key>com.apple.security.application-groups</key>\n<array/>"),
        ]
    )

    /// Whether any dict below `node` has a key given twice (cheap: dicts track it as they are built).
    static func hasShadowed(_ node: PlistNode) -> Bool {
        switch node.value {
        case .array(let items): return items.contains(where: hasShadowed)
        case .dict(let d): return d.hasShadowedEntries || d.entries.contains { hasShadowed($0.value) }
        default: return false
        }
    }

    func check(_ context: UnitContext) -> [Finding] {
        guard Self.hasShadowed(context.unit.document.root) else { return [] }
        var out: [Finding] = []
        walkPlist(context.unit.document.root) { node, path in
            guard case .dict(let d) = node.value else { return }
            for e in d.shadowedEntries {
                let winner = d.entry(e.key)!
                out.append(finding("key \"\(e.key)\" is given again on line \(winner.keyLocation.line); this earlier value is ignored (the last one wins); remove one of them",
                                   in: context, at: e.keyLocation, keyPath: PathComponent.render(path + [.key(e.key)])))
            }
        }
        return out
    }
}
