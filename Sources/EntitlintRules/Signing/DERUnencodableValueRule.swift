import EntitlintCore
import PropertyList

/// `der-unencodable-value` (keychain-access-groups.md section 7).
struct DERUnencodableValueRule: Rule {
    static let description = RuleDescription(
        id: "der-unencodable-value", severity: .error,
        category: .signing, readsOnlyTheFile: true, precision: .veryHigh, facts: .nothing,
        summary: "A `<data>`, `<date>` or `<real>` entitlement value, which DER entitlements cannot hold.",
        rationale: """
        Signatures carry the entitlements twice: as XML (slot 5) and as DER (slot 7), and DER entitlements have no \
        encoding for `<data>`, `<date>` or `<real>` values (keychain-access-groups.md section 7). Since iOS 15, iPadOS 15, tvOS 15 \
        and watchOS 8 the system checks the DER form ("Using the latest code signature format", Apple), so such a \
        value cannot be signed into a launchable app. Use a string, an integer or a boolean.
        """,
        triggering: [
            RuleExample("<key>com.example.build-date</key>\n↓<date>2025-01-01T00:00:00Z</date>\n<key>com.example.settings</key>\n<dict>\n\t<key>ratio</key>\n\t↓<real>0.5</real>\n</dict>"),
        ],
        nonTriggering: [
            RuleExample("<key>com.apple.developer.default-data-protection</key>\n<string>NSFileProtectionComplete</string>\n<key>com.apple.developer.kernel.increased-memory-limit</key>\n<true/>"),
        ]
    )

    /// Whether any value below `node` is data, a date or a real (a cheap scan: most files have
    /// none, and key paths are built only for findings).
    static func hasUnencodable(_ node: PlistNode) -> Bool {
        switch node.value {
        case .data, .date, .real: return true
        case .array(let items): return items.contains(where: hasUnencodable)
        case .dict(let d): return d.entries.contains { hasUnencodable($0.value) }
        default: return false
        }
    }

    func check(_ context: UnitContext) -> [Finding] {
        guard Self.hasUnencodable(context.unit.document.root) else { return [] }
        var out: [Finding] = []
        walkPlist(context.unit.document.root) { node, path in
            let what: String
            switch node.value {
            case .data: what = "<data>"
            case .date: what = "<date>"
            case .real: what = "<real>"
            default: return
            }
            let keyPath = PathComponent.render(path)
            out.append(finding("\(keyPath.isEmpty ? "the root" : keyPath) is a \(what) value, which DER entitlements cannot encode: the app cannot be signed with it for iOS 15 and later; use a string, an integer or a boolean",
                               in: context, at: context.located(node.location), keyPath: keyPath.isEmpty ? nil : keyPath))
        }
        return out
    }
}
