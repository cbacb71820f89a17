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

/// A mistake in how the tool was called (an option, a path, a configuration, a baseline) that ends
/// the run before any finding, with exit status 2: `lines` are shown one per line on standard
/// error, each escaped by whoever prints them.
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    public var lines: [String]
    public var description: String { lines.joined(separator: "\n") }
    public init(_ d: String) { lines = [d] }
    public init(lines: [String]) { self.lines = lines }
}
