import EntitlintCore
import PropertyList

/// `profile-expiring` (keychain-access-groups.md section 3).
struct ProfileExpiringRule: ProfileRule {
    static let description = RuleDescription(
        id: "profile-expiring", severity: .warning,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: FactNeeds(needs: [.profile]),
        summary: "A provisioning profile in use that expires within 30 days (configurable).",
        rationale: """
        A profile stops working on its `ExpirationDate` (keychain-access-groups.md section 3): a release built with it after that \
        date cannot be signed, and Ad Hoc, development and Enterprise installs stop launching. Renewing before then \
        avoids a broken release day. The window is 30 days by default; `profile-expiring-days: N` in \
        `.entitlint.yml` changes it (1 to 3650 days); the profiles checked are those of `profile-expired`. The \
        examples are checked as on 2025-06-01.
        """,
        triggering: [
            .profileOnly("↓<key>ExpirationDate</key>\n<date>2025-06-20T10:00:00Z</date>"),
        ],
        nonTriggering: [
            .profileOnly("<key>ExpirationDate</key>\n<date>2025-08-04T10:00:00Z</date>",
                         comment: "Expires in 64 days."),
            .profileOnly("<key>ExpirationDate</key>\n<date>2025-05-20T10:00:00Z</date>",
                         comment: "Already expired: `profile-expired` reports it."),
        ]
    )

    func check(profile context: ProfileContext) -> [Finding] {
        guard let expiry = context.profile.profile.expirationDate else { return [] }
        let now = context.settings.now
        let window = context.settings.expiringWithinDays
        guard expiry > now, expiry.secondsSince1970 - now.secondsSince1970 <= Int64(window) * 86_400 else { return [] }
        let days = now.days(until: expiry)
        let when = days == 0 ? "in less than a day" : days == 1 ? "in 1 day" : "in \(days) days"
        return [finding("\(context.named) expires on \(expiry.dayText) (\(when)): renew it before then, or builds signed with it stop installing and launching",
                        in: context, at: context.location(ofKey: "ExpirationDate"), keyPath: "ExpirationDate")]
    }
}
