extension Finding {
    /// Edits that remove a finding's problem, for a later `--fix`: a title saying what they do,
    /// whether applying them keeps the meaning of everything else (`safe`) or may change it
    /// (`unsafe`: a reviewer should look), and the edits themselves, each replacing a range of
    /// bytes of one file. Reporters carry it (JSON `fix`, SARIF `fixes`); `lint --fix` applies it.
    public struct Fix: Sendable, Hashable, Codable {
        public enum Applicability: String, Sendable, Hashable, Codable {
            case safe, unsafe
        }

        public var title: String
        public var applicability: Applicability
        public var edits: [Edit]
        /// What the edits do, on the plist's values (`Operation`); empty for a fix given as edits.
        public var operations: [Operation] = []

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

extension Finding.Fix {
    /// A fix said on the plist's values, as a rule knows them (rules see values, not bytes): the
    /// fix engine turns each into byte edits of the file it was read from, and only after checking
    /// that the file's bytes hold exactly the entry `value` at `key[index]` (else no fix).
    public struct Operation: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            /// The string at `key[index]` becomes `replacement`.
            case replace
            /// The entry `key[index]` is removed.
            case remove
            /// The entry `key[index]` is moved to `key[0]`.
            case moveToFront
            /// The entry `key[index]` is removed and appended to the array of `destination`.
            case moveTo
            /// The top-level `key` and its value are removed (`index` is -1, `value` empty).
            case removeKey
        }

        public var kind: Kind
        /// A top-level key of the entitlements dict.
        public var key: String
        public var index: Int
        /// The entry's string as the file holds it (decoded), checked before any edit.
        public var value: String
        public var replacement: String?
        public var destination: String?

        public static func replace(_ key: String, _ index: Int, _ value: String, with replacement: String) -> Operation {
            Operation(kind: .replace, key: key, index: index, value: value, replacement: replacement, destination: nil)
        }
        public static func remove(_ key: String, _ index: Int, _ value: String) -> Operation {
            Operation(kind: .remove, key: key, index: index, value: value, replacement: nil, destination: nil)
        }
        public static func moveToFront(_ key: String, _ index: Int, _ value: String) -> Operation {
            Operation(kind: .moveToFront, key: key, index: index, value: value, replacement: nil, destination: nil)
        }
        public static func move(_ key: String, _ index: Int, _ value: String, to destination: String) -> Operation {
            Operation(kind: .moveTo, key: key, index: index, value: value, replacement: nil, destination: destination)
        }
        public static func removeKey(_ key: String) -> Operation {
            Operation(kind: .removeKey, key: key, index: -1, value: "", replacement: nil, destination: nil)
        }
    }

    /// A fix said as operations on the values of the finding's file; `edits` stay empty until the
    /// fix engine, which has the file's bytes, resolves them (`FixResolver`).
    public init(title: String, applicability: Applicability, operations: [Operation]) {
        self.init(title: title, applicability: applicability, edits: [])
        self.operations = operations
    }
}

extension Finding {
    /// The finding with a fix said as operations on its file's values (`Fix.Operation`).
    public func fixing(_ title: String, _ applicability: Fix.Applicability, _ operations: [Fix.Operation]) -> Finding {
        var f = self
        f.fix = Fix(title: title, applicability: applicability, operations: operations)
        return f
    }
}
