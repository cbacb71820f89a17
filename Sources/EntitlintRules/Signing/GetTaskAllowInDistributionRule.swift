import EntitlintCore
import PropertyList
import Provisioning

/// `get-task-allow-in-distribution` (keychain-access-groups.md sections 3 and 3.1).
struct GetTaskAllowInDistributionRule: Rule {
    static let description = RuleDescription(
        id: "get-task-allow-in-distribution", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(because: "Reads the entitlements file and the profile's kind or the signing certificate of a built product, which are never assumed."), securityScore: "7.5",
        summary: "get-task-allow true with an App Store, Ad Hoc, Enterprise or Developer ID profile, or in a binary signed with a distribution certificate.",
        rationale: """
        `get-task-allow` lets a debugger attach: development profiles allow it, distribution profiles set it to \
        false, and booleans must equal the profile's (keychain-access-groups.md section 3.1: a debug build, \
        `get-task-allow` true, signed with a distribution profile is the textbook case). Signing fails, Ad Hoc and Enterprise installs are refused \
        (0xE8008016), the App Store rejects the upload (ITMS-90164), and notarization rejects a Developer ID app \
        with `com.apple.security.get-task-allow`. The profile kind is inferred as keychain-access-groups.md section 3 says (App \
        Store: no device list; Ad Hoc: devices and `get-task-allow` false; Enterprise or Developer ID: \
        `ProvisionsAllDevices`). A built binary is also checked without its profile: when the CMS signature of its \
        code signature (slot `0x10000`) was made with a distribution certificate (`Apple Distribution:`, \
        `iPhone Distribution:`, `Developer ID Application:`, `3rd Party Mac Developer Application:`), it is a signed \
        release build, and `get-task-allow` true there is the same mistake: sign with a development certificate, or \
        set `get-task-allow` to false or remove it, as Xcode's Release configuration does. An ad hoc signature \
        (`codesign -s -`, no certificate) is not a release build.
        """,
        triggering: [
            .signed("<key>get-task-allow</key>\n↓<true/>",
                    allowing: "<key>get-task-allow</key>\n<false/>",
                    comment: "An App Store profile (no device list)."),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>\n<key>get-task-allow</key>\n↓<true/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "A signed release build: no profile to go by, but the signature was made with a distribution certificate.",
                        built: RuleExample.Built(signingCertificate: "Apple Distribution: Example Ltd (ABCDE12345)")),
        ],
        nonTriggering: [
            .signed("<key>get-task-allow</key>\n<true/>",
                    allowing: "<key>get-task-allow</key>\n<true/>",
                    comment: "A development profile (devices, get-task-allow true).",
                    profile: "<key>ProvisionedDevices</key>\n<array>\n\t<string>00008030-001A2B3C4D5E6F70</string>\n</array>"),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>\n<key>get-task-allow</key>\n<true/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "A debug build signed with a development certificate.",
                        built: RuleExample.Built(signingCertificate: "Apple Development: Jane Appleseed (FGHIJ67890)")),
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.AppOne</string>\n<key>get-task-allow</key>\n<true/>",
                        bundleID: "com.example.AppOne", teamID: "ABCDE12345",
                        comment: "Signed ad hoc (`codesign -s -`): no certificate, not a release build.",
                        built: RuleExample.Built()),
        ]
    )

    func check(_ context: UnitContext) -> [Finding] {
        var distributionProfile: (file: ProfileFile, kind: ProfileKind)?
        if let file = context.unit.profile, ProfileFacts.isDistribution(file.profile.kind) {
            distributionProfile = (file, file.profile.kind)
        }
        // A built binary signed with a distribution certificate is a release build, whatever its
        // profile (or none, as on macOS outside the App Store).
        let certificate = context.unit.artifact?.signingCertificate.flatMap { $0.value.role == .distribution ? $0 : nil }
        guard distributionProfile != nil || certificate != nil else { return [] }
        var out: [Finding] = []
        for key in ["get-task-allow", "com.apple.security.get-task-allow"] {
            guard let node = context.unit.entitlements[key], node.bool == true else { continue }
            let message: String
            if let (file, kind) = distributionProfile {
                // One finding per key, naming the profile, and the certificate too when it also says so.
                let signed = certificate.map { ", and the binary is signed with the distribution certificate \"\($0.value.displayName)\"" } ?? ""
                message = "\(key) is true, but \"\(file.displayName)\" is \(kind == .developerID ? "a" : "an") \(ProfileFacts.name(kind)) profile\(signed): a distribution build cannot be debuggable; remove \(key) (or set it to false) for this configuration (profile \(file.path))"
            } else {
                let c = certificate!.value
                let team = c.organizationalUnit.map { ", team \($0)" } ?? ""
                message = "\(key) is true in a release build: \(context.unit.artifact?.bundlePath ?? context.unit.entitlementsPath) is signed with the distribution certificate \"\(c.displayName)\"\(team), and a distribution build cannot be debuggable; sign it with a development certificate, or set \(key) to false or remove it (Xcode's Release configuration does this)"
            }
            out.append(finding(message, in: context, at: context.located(node.location), keyPath: key))
        }
        return out
    }
}
