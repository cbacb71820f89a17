import EntitlintCore
import PropertyList

/// `xml-der-entitlements-mismatch` (keychain-access-groups.md section 7).
struct XMLDEREntitlementsMismatchRule: Rule {
    static let description = RuleDescription(
        id: "xml-der-entitlements-mismatch", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Compares a built product's own signature: its XML and DER entitlements and its slices."),
        summary: "A binary whose XML (slot 5) and DER (slot 7) entitlements disagree, or whose slices disagree.",
        rationale: """
        A code signature carries the entitlements twice: the XML blob of slot 5 (`0xfade7171`) and the DER blob of \
        slot 7 (`0xfade7172`) (keychain-access-groups.md section 7). Since iOS 15 the system checks the DER form, while older \
        systems and many tools read the XML: when they differ, what was reviewed is not what runs (parser \
        disagreements over entitlements were the "psychic paper" bypass, keychain-access-groups.md section 5), and installs are \
        refused. A slot 7 that cannot be decoded, and the slices of a universal binary signed with different \
        entitlements, are reported too. Sign again with `codesign`, never by editing one blob.
        """,
        triggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n</array>\n↓<key>get-task-allow</key>\n<false/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "Slot 7 says get-task-allow is true.",
                        built: RuleExample.Built(derEntitlements: "<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n</array>\n<key>get-task-allow</key>\n<true/>")),
        ],
        nonTriggering: [
            RuleExample("<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.AppOne</string>\n</array>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345", comment: "Slot 7 holds the same.",
                        built: RuleExample.Built()),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let artifact = context.unit.artifact else { return [] }
        var out: [Finding] = []
        let root = context.unit.document.root.location
        if let error = artifact.derEntitlementsError {
            out.append(finding("the DER entitlements (slot 7) of \(context.unit.entitlementsPath) cannot be decoded (\(error)): iOS 15 and later refuse the signature; sign it again",
                               in: context, at: root))
        }
        if artifact.hasXMLEntitlements, artifact.entitlementsSource == .codeSignatureXML, let der = artifact.derEntitlements {
            let differences = PlistComparison.differences(context.unit.document.root, der, aName: "the XML entitlements (slot 5)",
                                                          bName: "the DER entitlements (slot 7)")
            var seen = Set<String>()
            for d in differences where seen.insert(d.topLevelKey ?? "").inserted {
                let location = d.topLevelKey.map { context.keyLocation($0) } ?? root
                out.append(finding("\(d.description): the system checks one and tools read the other; sign the binary again with codesign",
                                   in: context, at: location, keyPath: d.topLevelKey))
            }
        }
        for disagreement in artifact.sliceDisagreements {
            out.append(finding("the slices of \(context.unit.entitlementsPath) are signed with different entitlements: \(disagreement); sign the universal binary again",
                               in: context, at: root))
        }
        return out
    }
}
