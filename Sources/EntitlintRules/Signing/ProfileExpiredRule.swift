import EntitlintCore
import PropertyList

/// `profile-expired` (keychain-access-groups.md section 3).
struct ProfileExpiredRule: ProfileRule {
    static let description = RuleDescription(
        id: "profile-expired", severity: .error,
        category: .signing, readsOnlyTheFile: false, precision: .high, facts: .certain(needs: [.profile], because: "Reads only the profile's own expiry date."),
        summary: "A provisioning profile in use whose ExpirationDate has passed.",
        rationale: """
        A profile is valid until its `ExpirationDate` (keychain-access-groups.md section 3). After it, Xcode and CI cannot sign \
        with it, uploads signed with it are refused, and development, Ad Hoc and Enterprise builds that embed it \
        stop launching on devices. Profiles are checked when they sign a unit of the run (paired with an \
        entitlements file, given with `--profile` or a config app's `profile:`, embedded in a built app) or are \
        named on the command line; a profile found by walking a folder that signs nothing is only decoded, so a \
        folder of old test fixtures does not fail. "Today" is the run's date in UTC (`ENTITLINT_NOW=YYYY-MM-DD` \
        overrides it); the examples are checked as on 2025-06-01.
        """,
        triggering: [
            .profileOnly("↓<key>ExpirationDate</key>\n<date>2025-01-05T10:00:00Z</date>"),
        ],
        nonTriggering: [
            .profileOnly("<key>ExpirationDate</key>\n<date>2026-05-30T10:00:00Z</date>",
                         comment: "Valid for another year."),
        ]
    )

    func check(profile context: ProfileContext) -> [Finding] {
        guard let expiry = context.profile.profile.expirationDate else { return [] }
        let now = context.settings.now
        guard expiry <= now else { return [] }
        let days = expiry.days(until: now)
        let ago = days == 0 ? "today" : days == 1 ? "1 day ago" : "\(days) days ago"
        return [finding("\(context.named) expired on \(expiry.dayText) (\(ago)): it can no longer sign, and builds that embed it stop installing and launching; download a renewed profile (Xcode > Settings > Accounts, or the developer portal) and sign again",
                        in: context, at: context.location(ofKey: "ExpirationDate"), keyPath: "ExpirationDate")]
    }
}
