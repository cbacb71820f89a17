/// A setting's value, and why it is not known when it is not.
public struct ResolvedSetting: Sendable, Hashable {
    /// The expanded value; nil when unset, or when something in it cannot be resolved.
    public var value: String?
    /// The assignment that gives the value (the last matching one), nil for a built-in or unset setting.
    public var source: SettingAssignment?
    /// Settings the value refers to (directly or through the values it inherits) that no level
    /// sets: each evaluated to the empty string, as Xcode evaluates them (keychain-access-groups.md section 2.1).
    public var undefined: [String]
    /// Why the value cannot be known otherwise: a hole (a file that could not be read), a cycle,
    /// an unsupported operator, a value too long.
    public var problem: String?

    public var isSet: Bool { source != nil || value != nil || problem != nil }

    /// Whether the value is unknown only because no committed file sets it and a file the
    /// configuration reads is missing (a per-developer or generated xcconfig), not because
    /// something is wrong: nothing is reported about it beyond the notice about the file.
    public var isUnknownForMissingFile: Bool { problem?.hasPrefix(SettingsEvaluator.missingFilePrefix) == true }
}
