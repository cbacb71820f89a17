/// A position in an input file. Lines and columns count from 1; `0` means "not known"
/// (binary plists and values decoded from DER have no lines).
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    // Kept as 32-bit numbers (every node and dictionary key of a document has a location: half
    // the size keeps the documents of a many-file run smaller); a file libxml2 reads is below
    // 2 GiB, and anything larger is clamped.
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    // Encoded as before: {"line": L, "column": C}.
    enum CodingKeys: String, CodingKey { case line, column }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(line: try c.decode(Int.self, forKey: .line), column: try c.decode(Int.self, forKey: .column))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
    }

    public static let unknown = SourceLocation(line: 0, column: 0)

    public var isKnown: Bool { line > 0 }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }
}
