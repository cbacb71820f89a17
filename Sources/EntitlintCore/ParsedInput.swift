public import PropertyList
public import Provisioning

/// What a file turned into.
public enum ParsedInput: Sendable {
    case entitlements(PlistDocument)
    case profile(ProvisioningProfile)
    case failed(reason: String, location: SourceLocation)
    /// Not read at all: `rule` is `ToolFindings.unreadablePath` (missing, not permitted, not a
    /// file) or `ToolFindings.readLimit` (over a limit of the run).
    case unread(reason: String, rule: String)
}

/// A mistake in how the tool was called (an option, a path): its text is shown as it is.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}
