/// Parsers of what the git commands Entitlint runs print, kept apart from running them so that
/// they can be tested and fuzzed on any bytes. Each is total: malformed input gives fewer entries
/// (or nil), never a trap, and each looks at every byte a bounded number of times.
public enum GitOutput {
    /// One entry of `git ls-tree -r -z` (`MODE SP TYPE SP OID TAB PATH NUL`) or of
    /// `git ls-files --stage -z` (`MODE SP OID SP STAGE TAB PATH NUL`).
    public struct TreeEntry: Sendable, Equatable {
        public var mode: String
        public var oid: String
        public var path: String

        /// A regular file (`100644`, `100755`, and the old group-writable `100664`).
        public var isRegularFile: Bool { mode.hasPrefix("100") }
        public var isSymlink: Bool { mode == "120000" }
    }

    /// `git ls-tree -r -z --full-tree` output.
    public static func lsTree(_ bytes: [UInt8]) -> [TreeEntry] {
        records(bytes).compactMap { record in
            guard let tab = record.firstIndex(of: 0x09) else { return nil }
            let fields = record[..<tab].split(separator: 0x20)
            guard fields.count == 3, !fields[0].isEmpty, !fields[2].isEmpty, tab + 1 < record.endIndex else { return nil }
            return TreeEntry(mode: text(fields[0]), oid: text(fields[2]), path: text(record[(tab + 1)...]))
        }
    }

    /// `git ls-files --stage -z` output; a path in conflict (stages 1-3) is listed once.
    public static func lsFilesStage(_ bytes: [UInt8]) -> [TreeEntry] {
        var seen = Set<String>()
        return records(bytes).compactMap { record in
            guard let tab = record.firstIndex(of: 0x09) else { return nil }
            let fields = record[..<tab].split(separator: 0x20)
            guard fields.count == 3, !fields[0].isEmpty, tab + 1 < record.endIndex else { return nil }
            let entry = TreeEntry(mode: text(fields[0]), oid: text(fields[1]), path: text(record[(tab + 1)...]))
            return seen.insert(entry.path).inserted ? entry : nil
        }
    }

    /// One change of `git diff --raw -z --no-renames`: `:SRCMODE DSTMODE SRCOID DSTOID STATUS NUL
    /// PATH NUL`.
    public struct RawChange: Sendable, Equatable {
        public var status: UInt8
        public var newMode: String
        public var newOID: String
        public var path: String
    }

    public static func rawDiff(_ bytes: [UInt8]) -> [RawChange] {
        let parts = records(bytes)
        var out: [RawChange] = []
        var i = 0
        while i + 1 < parts.count {
            let header = parts[i]
            guard header.first == UInt8(ascii: ":") else { i += 1; continue }
            let fields = header.dropFirst().split(separator: 0x20)
            i += 1
            guard fields.count == 5, let status = fields[4].first else { continue }
            out.append(RawChange(status: status, newMode: text(fields[1]), newOID: text(fields[3]), path: text(parts[i])))
            i += 1
        }
        return out
    }

    /// One answer of `git cat-file --batch-check`: `OID TYPE SIZE`, or `NAME missing` (or
    /// `ambiguous`), for the name on the same line of the input.
    public enum ObjectInfo: Sendable, Equatable {
        case object(oid: String, type: String, size: Int)
        case missing
    }

    /// The answers, one a line, in the order of the names asked.
    public static func batchCheck(_ bytes: [UInt8]) -> [ObjectInfo] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast(bytes.last == 0x0A ? 1 : 0).map { line in
            let fields = line.split(separator: 0x20)
            if fields.count == 3, fields[2].count <= 18, let size = Int(text(fields[2])), size >= 0,
               fields[0].allSatisfy(isHexDigit) {
                return .object(oid: text(fields[0]), type: text(fields[1]), size: size)
            }
            return .missing
        }
    }

    /// The contents `git cat-file --batch` prints for `expected` objects (each asked once, in this
    /// order, with the size `--batch-check` gave): `OID TYPE SIZE LF CONTENTS LF` each. Nil when
    /// the output does not have exactly that shape.
    public static func batch(_ bytes: [UInt8], expected: [(oid: String, size: Int)]) -> [String: [UInt8]]? {
        var out: [String: [UInt8]] = [:]
        var i = 0
        for (oid, size) in expected {
            guard let eol = bytes[i...].firstIndex(of: 0x0A) else { return nil }
            let fields = bytes[i..<eol].split(separator: 0x20)
            guard fields.count == 3, text(fields[0]) == oid, text(fields[2]) == String(size) else { return nil }
            i = eol + 1
            // The contents and the line feed after them.
            guard size <= bytes.count - i - 1, bytes[i + size] == 0x0A else { return nil }
            out[oid] = Array(bytes[i..<(i + size)])
            i += size + 1
        }
        return i == bytes.count ? out : nil
    }

    static func records(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0, omittingEmptySubsequences: true)
    }

    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x66).contains(b) || (0x41...0x46).contains(b)
    }
}
