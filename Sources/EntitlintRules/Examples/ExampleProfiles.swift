import EntitlintCore

extension RuleExample {
    /// An example signed with a profile: the unit is `bundleID` of team `ABCDE12345`, with the
    /// entitlements `entitlements`, and its profile is made for exactly its App ID and also
    /// allows `allowing` (a dict body of more `Entitlements` keys). `profile` gives more top-level
    /// keys of the profile (`↓` may mark the finding there); `built` reads the unit from a built
    /// product.
    static func signed(_ entitlements: String, bundleID: String = "com.example.AppOne", allowing: String = "",
                       comment: String? = nil, profile: String? = nil, built: Built? = nil,
                       file: String = #filePath, line: Int = #line) -> RuleExample {
        let appID = "<key>application-identifier</key>\n<string>ABCDE12345.\(bundleID)</string>"
        return RuleExample(entitlements, bundleID: bundleID, teamID: "ABCDE12345",
                           profileEntitlements: allowing.isEmpty ? appID : appID + "\n" + allowing,
                           comment: comment, profile: profile, built: built, file: file, line: line)
    }

    /// An example of a profile checked on its own merits (dates, certificates, its DER copy): a
    /// `signed` example whose entitlements file is empty.
    static func profileOnly(_ profile: String, bundleID: String = "com.example.AppOne", comment: String? = nil,
                            file: String = #filePath, line: Int = #line) -> RuleExample {
        signed("", bundleID: bundleID, comment: comment, profile: profile, file: file, line: line)
    }
}
