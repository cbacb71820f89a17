extension Finding {
    /// Edits that remove a finding's problem, for a later `--fix`: a title saying what they do,
    /// whether applying them keeps the meaning of everything else (`safe`) or may change it
    /// (`unsafe`: a reviewer should look), and the edits themselves, each replacing a range of
    /// bytes of one file. Reporters carry it (JSON `fix`, SARIF `fixes`); nothing applies it yet.
    public struct Fix: Sendable, Hashable, Codable {
        public enum Applicability: String, Sendable, Hashable, Codable {
            case safe, unsafe
        }

        public var title: String
        public var applicability: Applicability
        public var edits: [Edit]

        public init(title: String, applicability: Applicability, edits: [Edit]) {
            self.title = title
            self.applicability = applicability
            self.edits = edits
        }
    }

    /// One replacement: the bytes `range` (0-based offsets, end excluded) of the file at `path`
    /// (as findings show it) become `replacement`. An empty range inserts; an empty replacement
    /// deletes.
    public struct Edit: Sendable, Hashable, Codable {
        public var path: String
        public var range: Range<Int>
        public var replacement: String

        /// `range` starts at offset 0 or later (a byte offset into the file).
        public init(path: String, range: Range<Int>, replacement: String) {
            precondition(range.lowerBound >= 0, "a byte offset is never negative")
            self.path = path
            self.range = range
            self.replacement = replacement
        }
    }
}
