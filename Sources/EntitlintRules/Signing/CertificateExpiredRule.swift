import EntitlintCore
import PropertyList
import Provisioning

/// `certificate-expired` (keychain-access-groups.md section 3).
struct CertificateExpiredRule: ProfileRule {
    /// Two certificates of "Apple Distribution: Example Ltd (ABCDE12345)", shortened to the fields
    /// read (serial, validity, subject): one valid in 2024, one in 2025.
    static let expiredCertificate = "MIGZMIGGoAMCAQICAhorMAsGCSqGSIb3DQEBCzAAMB4XDTI0MDEwMTAwMDAwMFoXDTI1MDEwMTAwMDAwMFowTDE1MDMGA1UEAwwsQXBwbGUgRGlzdHJpYnV0aW9uOiBFeGFtcGxlIEx0ZCAoQUJDREUxMjM0NSkxEzARBgNVBAsMCkFCQ0RFMTIzNDUwCwYJKoZIhvcNAQELAwEA"
    static let validCertificate = "MIGZMIGGoAMCAQICAjxNMAsGCSqGSIb3DQEBCzAAMB4XDTI1MDEwMTAwMDAwMFoXDTI2MDEwMTAwMDAwMFowTDE1MDMGA1UEAwwsQXBwbGUgRGlzdHJpYnV0aW9uOiBFeGFtcGxlIEx0ZCAoQUJDREUxMjM0NSkxEzARBgNVBAsMCkFCQ0RFMTIzNDUwCwYJKoZIhvcNAQELAwEA"

    static let description = RuleDescription(
        id: "certificate-expired", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Reads only the profile's own certificates and dates."),
        summary: "Every developer certificate of a profile in use has expired (a warning when only some have).",
        rationale: """
        A profile lists in `DeveloperCertificates` the certificates allowed to sign with it (keychain-access-groups.md section 3). \
        A certificate past its `notAfter` date cannot sign: when all of them have expired, nothing can sign with \
        the profile although the profile itself is still valid, and Xcode reports that no signing certificate \
        matches it. When only some have expired, signing works on the machines holding a valid one. \
        Certificates are read as X.509 (RFC 5280) and not verified. The profiles checked are those of \
        `profile-expired`, except expired ones (that finding says enough); the examples are checked as on \
        2025-06-01.
        """,
        triggering: [
            .profileOnly("↓<key>DeveloperCertificates</key>\n<array>\n\t<data>\(expiredCertificate)</data>\n</array>",
                         comment: "The only certificate expired on 2025-01-01."),
            .profileOnly("↓<key>DeveloperCertificates</key>\n<array>\n\t<data>\(expiredCertificate)</data>\n\t<data>\(validCertificate)</data>\n</array>",
                         comment: "One of two certificates expired: a warning."),
        ],
        nonTriggering: [
            .profileOnly("<key>DeveloperCertificates</key>\n<array>\n\t<data>\(validCertificate)</data>\n</array>",
                         comment: "The certificate is valid until 2026-01-01."),
        ]
    )

    func check(profile context: ProfileContext) -> [Finding] {
        let certificates = context.profile.profile.developerCertificates.compactMap { try? $0.get() }
        guard !certificates.isEmpty else { return [] }
        let now = context.settings.now
        // An expired profile is `profile-expired`'s finding; its certificates add nothing to it.
        if let expiry = context.profile.profile.expirationDate, expiry <= now { return [] }
        let expired = certificates.filter { $0.notAfter <= now }
        guard !expired.isEmpty else { return [] }
        let list = expired.prefix(5).map { "\"\($0.displayName)\" (expired \($0.notAfter.dayText))" }.joined(separator: ", ")
            + (expired.count > 5 ? " and \(expired.count - 5) more" : "")
        let location = context.location(ofKey: "DeveloperCertificates")
        if expired.count == certificates.count {
            let what = certificates.count == 1 ? "the only developer certificate" : "every developer certificate"
            return [finding("\(what) of \(context.named) has expired: \(list); nothing can sign with this profile: create a new certificate and regenerate the profile with it",
                            in: context, at: location, keyPath: "DeveloperCertificates")]
        }
        return [finding("\(expired.count) of the \(certificates.count) developer certificates of \(context.named) have expired: \(list); only the others can sign with it",
                        in: context, at: location, keyPath: "DeveloperCertificates", severity: .warning)]
    }
}
