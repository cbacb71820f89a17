import EntitlintCore

extension RuleExample {
    /// An example of a profile checked on its own merits (dates, certificates, its DER copy): the
    /// unit is `bundleID` of team `ABCDE12345`, with an empty entitlements file, signed by a
    /// profile made for exactly its App ID whose other top-level keys are `profile` (`↓` marks
    /// the finding there).
    static func profileOnly(_ profile: String, bundleID: String = "com.example.AppOne", comment: String? = nil) -> RuleExample {
        RuleExample("", bundleID: bundleID, teamID: "ABCDE12345",
                    profileEntitlements: "<key>application-identifier</key>\n<string>ABCDE12345.\(bundleID)</string>",
                    comment: comment, profile: profile)
    }
}
