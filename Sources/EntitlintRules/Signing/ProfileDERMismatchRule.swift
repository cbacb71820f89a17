import EntitlintCore
import PropertyList
import Provisioning

/// `profile-der-mismatch` (keychain-access-groups.md section 3).
struct ProfileDERMismatchRule: ProfileRule {
    /// A small `DER-Encoded-Profile`: CMS (unsigned) around UUID 0B9D3E52-...-2B22, team
    /// ABCDE12345 and the App ID ABCDE12345.com.example.AppOne.
    static let derProfile = "MIHNBgkqhkiG9w0BBwKggb8wgbwCAQExADCBsgYJKoZIhvcNAQcBoIGkBIGhMYGeMB4MDlRlYW1JZGVudGlmaWVyMAwMCkFCQ0RFMTIzNDUwLAwEVVVJRAwkMEI5RDNFNTItOEE0Ny00QzZGLUIxRTItNUE3QzlEM0YyQjIyME4MDEVudGl0bGVtZW50c3A+AgEBsDkwNwwWYXBwbGljYXRpb24taWRlbnRpZmllcgwdQUJDREUxMjM0NS5jb20uZXhhbXBsZS5BcHBPbmUxAA=="

    static let description = RuleDescription(
        id: "profile-der-mismatch", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Compares the profile's XML plist with its own DER copy."),
        summary: "A profile whose DER-Encoded-Profile disagrees with its XML plist, or cannot be decoded.",
        rationale: """
        Modern profiles carry their content twice: the XML plist, and `DER-Encoded-Profile`, a second CMS blob that \
        is the modern source of truth (keychain-access-groups.md section 3). Tools that read one and devices that read the other \
        must see the same profile: a UUID, team, App ID, entitlement allowlist, device list or expiry that differs \
        (a hand-edited or re-assembled profile), or a payload that cannot be decoded, means the profile is damaged \
        and will be refused; download it again. The keys present in both are compared, dict order ignored, UUIDs \
        case-insensitively.
        """,
        triggering: [
            .profileOnly("↓<key>DER-Encoded-Profile</key>\n<data>\(derProfile)</data>\n<key>UUID</key>\n<string>0B9D3E52-8A47-4C6F-B1E2-5A7C9D3F2B22</string>",
                         bundleID: "com.example.AppTwo",
                         comment: "The plist was edited to another App ID; its DER copy still says com.example.AppOne."),
            .profileOnly("↓<key>DER-Encoded-Profile</key>\n<data>MIIBAAYJKoZIhvcNAQcC</data>",
                         comment: "A truncated payload."),
        ],
        nonTriggering: [
            .profileOnly("<key>DER-Encoded-Profile</key>\n<data>\(derProfile)</data>\n<key>UUID</key>\n<string>0b9d3e52-8a47-4c6f-b1e2-5a7c9d3f2b22</string>"),
        ]
    )

    /// The keys compared, when both sides have them.
    static let comparedKeys = ["UUID", "TeamIdentifier", "ApplicationIdentifierPrefix", "Entitlements", "ProvisionedDevices",
                               "ProvisionsAllDevices", "ExpirationDate"]

    func check(profile context: ProfileContext) -> [Finding] {
        let profile = context.profile.profile
        guard let decoded = profile.decodedDEREncodedProfile(), let xml = profile.document.root.dict else { return [] }
        let location = context.location(ofKey: "DER-Encoded-Profile")
        let der: PlistDictionary
        switch decoded {
        case .failure(let error):
            return [finding("\(context.named): DER-Encoded-Profile cannot be decoded (\(error.reason)): the profile is damaged; download it again",
                            in: context, at: location, keyPath: "DER-Encoded-Profile")]
        case .success(let d):
            der = d
        }
        var differences: [String] = []
        for key in Self.comparedKeys {
            guard var a = xml[key], var b = der[key] else { continue }
            if key == "UUID", let x = a.string, let y = b.string {
                a = PlistNode(.string(x.uppercased()))
                b = PlistNode(.string(y.uppercased()))
            }
            let wrappedA = PlistNode(.dict(PlistDictionary([.init(key: key, keyLocation: .unknown, value: a)])))
            let wrappedB = PlistNode(.dict(PlistDictionary([.init(key: key, keyLocation: .unknown, value: b)])))
            differences += PlistComparison.differences(wrappedA, wrappedB, aName: "the plist", bName: "DER-Encoded-Profile", limit: 3)
                .map(\.description)
        }
        guard !differences.isEmpty else { return [] }
        let shown = differences.prefix(5).joined(separator: "; ") + (differences.count > 5 ? "; and \(differences.count - 5) more" : "")
        return [finding("\(context.named): DER-Encoded-Profile disagrees with the plist: \(shown); the profile was altered or damaged: download it again",
                        in: context, at: location, keyPath: "DER-Encoded-Profile")]
    }
}
