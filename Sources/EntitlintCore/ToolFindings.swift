/// The findings the linter reports about its own run rather than about a file's signing: a file
/// it could not parse or read, a link it would not follow, findings it left out. Each has its
/// own rule id, so `--ignore`, `per-file-ignores` and the formats can tell them apart, and a
/// page (`entitlint explain ID`).
///
/// All of them are reported whatever `--select` says (a run that could not see something is
/// never a silent pass; only `--ignore` or `off` removes one), no suppression directive silences
/// one (a directive is in a file; these are about reading or showing files), and JUnit counts
/// them as errors (the file was not checked), not failures.
public enum ToolFindings {
    /// A file that is not a valid property list or provisioning profile.
    public static let parseError = "parse-error"
    /// A file or folder that could not be read at all: missing, not permitted, not a regular
    /// file, or not in the revision a reference is read from.
    public static let unreadablePath = "unreadable-path"
    /// A file not read because of a limit of the run (its size, or the bytes the run reads).
    public static let readLimit = "read-limit"
    /// A symbolic link that leads outside the project root: not followed.
    public static let linkOutsideRoot = "link-outside-root"
    /// Findings left out because the run reports at most `--max-findings`.
    public static let findingsTruncated = "findings-truncated"
    /// Findings left out so the report fits in `--max-output-bytes`.
    public static let outputTruncated = "output-truncated"

    /// Every tool finding id, `parse-error` first.
    public static let ids: [String] = [parseError, unreadablePath, readLimit, linkOutsideRoot, findingsTruncated, outputTruncated]
    static let idSet = Set(ids)

    /// Whether `rule` is one of the linter's own findings.
    public static func contains(_ rule: String) -> Bool { idSet.contains(rule) }
}
