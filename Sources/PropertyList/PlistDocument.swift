/// One parsed property list: the root value plus what the reader noticed on the way that is
/// legal but worth a lint finding.
public struct PlistDocument: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable, Codable {
        case xml, binary
        /// Old-style (OpenStep) text, as in `project.pbxproj` (`OpenStepPlistReader`).
        case openStep
    }

    /// An XML comment (`<!-- ... -->`) anywhere in the file.
    public struct Comment: Sendable, Hashable {
        public var text: String
        public var location: SourceLocation
        public init(text: String, location: SourceLocation) { self.text = text; self.location = location }
    }

    public var root: PlistNode
    public var format: Format
    public var comments: [Comment]

    public init(root: PlistNode, format: Format, comments: [Comment] = []) {
        self.root = root
        self.format = format
        self.comments = comments
    }
}

/// Why a property list was rejected (`CodedError`: equality on the code only).
public typealias PlistError = CodedError<PlistErrorCode>

/// What was wrong with a rejected property list.
public enum PlistErrorCode: String, Sendable, Hashable {
    /// Not well-formed XML (libxml2's reason is in `reason`).
    case malformedXML
    /// An element, text or structure that a plist does not allow.
    case invalidStructure
    /// `<!DOCTYPE plist [ ... ]>` with declarations, or an entity other than the five
    /// predefined ones.
    case forbiddenDTD
    case invalidInteger
    case invalidReal
    case invalidDate
    case invalidEncoding
    /// Nesting deeper than `PlistLimits.maxDepth`.
    case tooDeep
    /// Input larger than `PlistLimits.maxBytes`, or more than `maxElements` values.
    case tooLarge
    /// Binary plist (`bplist00`) structure errors.
    case invalidBinary
    case empty
}

/// Bounds every reader enforces. Going past one is a `PlistError`, never a crash.
public struct PlistLimits: Sendable, Hashable {
    /// Which limit an input went past (`PlistError.limit`); the raw value is the name of the
    /// setting that raises it (`--max-file-size`, `limits: {max-file-size: N}`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case fileSize = "max-file-size"
        case depth = "max-depth"
        case elements = "max-elements"
    }

    /// Largest input accepted, in bytes.
    public var maxBytes: Int
    /// Deepest nesting of arrays and dicts.
    public var maxDepth: Int
    /// Most values (of any kind) in one document.
    public var maxElements: Int

    public init(maxBytes: Int = 16 << 20, maxDepth: Int = 200, maxElements: Int = 1_000_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
    }

    public static let `default` = PlistLimits()

    /// The deepest nesting any reader accepts, whatever `maxDepth` says (`--max-depth` may ask
    /// for more): the rules, the reporters and the release of a document walk it recursively,
    /// and 1,024 levels keep that far inside any thread's stack. (libxml2 stops at 256 anyway.)
    public static let readerMaxDepth = 1_024

    /// `maxDepth`, or `readerMaxDepth` when that is lower.
    public var depthBound: Int { min(maxDepth, Self.readerMaxDepth) }

    /// The error for nesting past `depthBound`; `reason` says it with the bound it is given.
    /// How to raise the limit is added only when `maxDepth` is what stopped it.
    public func tooDeep(at location: SourceLocation = .unknown, _ reason: (Int) -> String) -> PlistError {
        if maxDepth <= Self.readerMaxDepth {
            return PlistError(.tooDeep, reason(maxDepth), at: location, limit: .depth)
        }
        return PlistError(.tooDeep, reason(Self.readerMaxDepth) + " (the most Entitlint reads, whatever --max-depth says)", at: location)
    }
}
