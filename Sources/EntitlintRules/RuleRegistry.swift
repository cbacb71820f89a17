public import EntitlintCore

/// Every rule, in catalogue order.
public enum RuleRegistry {
    public static let all: [any Rule] = [
        ParseErrorRule(),
        TeamPrefixMismatchRule(),
        MissingTeamPrefixRule(),
        WildcardAccessGroupRule(),
        EmptyAccessGroupRule(),
        DefaultGroupDriftRule(),
        GroupMissingFromProfileRule(),
        NonStringAccessGroupRule(),
        UnresolvedVariableRule(),
        DoublePrefixRule(),
        DefaultGroupNotAppIDRule(),
        DuplicateKeyRule(),
        DuplicateAccessGroupRule(),
        TokenGroupClaimedRule(),
        CommentInPlistRule(),
        LiteralAppIDPrefixRule(),
        UnusedSuppressionRule(),
        // Profiles in depth and built products.
        ProfileExpiredRule(),
        ProfileExpiringRule(),
        CertificateExpiredRule(),
        EntitlementNotInProfileRule(),
        EntitlementValueMismatchRule(),
        ProfileAppIDMismatchRule(),
        GetTaskAllowInDistributionRule(),
        APSEnvironmentMismatchRule(),
        AppClipAccessGroupsRule(),
        DERUnencodableValueRule(),
        ProfileDERMismatchRule(),
        MacOSRestrictedWithoutProfileRule(),
        XMLDEREntitlementsMismatchRule(),
        // Xcode projects: sharing across targets.
        SharedGroupSingleMemberRule(),
        TeamMismatchAcrossTargetsRule(),
        AppGroupFormatRule(),
        InconsistentDefaultGroupRule(),
        WatchSharesPhoneGroupRule(),
        // Xcode projects as Xcode reads them.
        EmptySettingInGroupRule(),
        UnusedEntitlementsFileRule(),
        // Keychain groups in code.
        CodeGroupNotEntitledRule(),
        CodeGroupMissingPrefixRule(),
        CodeGroupWrongPrefixRule(),
        CodeGroupForeignPrefixRule(),
        CodeGroupUnexpandedVariableRule(),
        SaveToSharedDefaultGroupRule(),
        AccessGroupUnusedInCodeRule(),
        // The linter's own findings about its run (`ToolFindings`), besides parse-error.
        UnreadablePathRule(),
        ReadLimitRule(),
        LinkOutsideRootRule(),
        FindingsTruncatedRule(),
        OutputTruncatedRule(),
    ]

    public static var descriptions: [RuleDescription] { all.map { type(of: $0).description } }

    /// Computed once, when first needed (only a configuration file or `--against` needs it).
    public static let ids: Set<String> = Set(descriptions.map(\.id))

    public static func rule(id: String) -> (any Rule)? {
        all.first { type(of: $0).description.id == id }
    }
}
