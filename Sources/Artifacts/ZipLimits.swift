/// Bounds on reading one zip archive.
public struct ZipLimits: Sendable, Hashable {
    /// Most entries in the archive.
    public var maxEntries: Int
    /// Most bytes expanded from the archive in all (only the files read count: plists, profiles,
    /// executables).
    public var maxExpandedTotal: Int
    /// Entries of at least `ratioCheckMinimum` bytes may expand at most this many times their
    /// compressed size (code compresses 2-5 times; deflate's ceiling is about 1032).
    public var maxRatio: UInt64
    public var ratioCheckMinimum: Int
    /// Longest entry name, in bytes, and most `/`-separated parts in it: longer or deeper
    /// entries are skipped and reported.
    public var maxNameLength: Int
    public var maxPathDepth: Int
    /// Largest central directory read (it is read whole; 100,000 entries of 200-byte names take
    /// about 25 MB).
    public var maxCentralDirectorySize: Int

    public init(maxEntries: Int = 100_000, maxExpandedTotal: Int = 4 << 30, maxRatio: UInt64 = 200, ratioCheckMinimum: Int = 8 << 20,
                maxNameLength: Int = 1_024, maxPathDepth: Int = 64, maxCentralDirectorySize: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxExpandedTotal = maxExpandedTotal
        self.maxRatio = maxRatio
        self.ratioCheckMinimum = ratioCheckMinimum
        self.maxNameLength = maxNameLength
        self.maxPathDepth = maxPathDepth
        self.maxCentralDirectorySize = maxCentralDirectorySize
    }

    public static let `default` = ZipLimits()
}
