import EntitlintCore
import PropertyList

/// `get-task-allow-in-distribution` (DOMAIN.md sections 3 and 3.1).
struct GetTaskAllowInDistributionRule: Rule {
    static let description = RuleDescription(
        id: "get-task-allow-in-distribution", severity: .error,
        summary: "get-task-allow true with an App Store, Ad Hoc, Enterprise or Developer ID profile.",
        rationale: """
        `get-task-allow` lets a debugger attach: development profiles allow it, distribution profiles set it to \
        false, and booleans must equal the profile's (DOMAIN.md section 3.1: "get-task-allow true with a \
        distribution profile is the classic failure"). Signing fails, Ad Hoc and Enterprise installs are refused \
        (0xE8008016), the App Store rejects the upload (ITMS-90164), and notarization rejects a Developer ID app \
        with `com.apple.security.get-task-allow`. The profile kind is inferred as DOMAIN.md section 3 says (App \
        Store: no device list; Ad Hoc: devices and `get-task-allow` false; Enterprise or Developer ID: \
        `ProvisionsAllDevices`).
        """,
        triggering: [
            RuleExample("<key>get-task-allow</key>\n↓<true/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>\n<key>get-task-allow</key>\n<false/>",
                        comment: "An App Store profile (no device list)."),
        ],
        nonTriggering: [
            RuleExample("<key>get-task-allow</key>\n<true/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>\n<key>get-task-allow</key>\n<true/>",
                        comment: "A development profile (devices, get-task-allow true).",
                        profile: "<key>ProvisionedDevices</key>\n<array>\n\t<string>00008030-001A2B3C4D5E6F70</string>\n</array>"),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        guard let profileFile = context.unit.profile else { return [] }
        let kind = profileFile.profile.kind
        guard ProfileFacts.isDistribution(kind) else { return [] }
        var out: [Finding] = []
        for key in ["get-task-allow", "com.apple.security.get-task-allow"] {
            guard let node = context.unit.entitlements[key], node.bool == true else { continue }
            out.append(finding("\(key) is true, but \"\(profileFile.displayName)\" is \(kind == .developerID ? "a" : "an") \(ProfileFacts.name(kind)) profile: a distribution build cannot be debuggable; remove \(key) (or set it to false) for this configuration (profile \(profileFile.path))",
                               in: context, at: context.located(node.location), keyPath: key))
        }
        return out
    }
}
