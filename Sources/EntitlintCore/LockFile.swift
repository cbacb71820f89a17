import Foundation

/// `entitlint.lock`: each unit's default access group and ordered group list, committed so
/// that a later change of the default (DOMAIN.md section 4) is caught.
public struct LockFile: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var bundleID: String?
        public var defaultAccessGroup: String
        public var accessGroups: [String]

        public init(bundleID: String?, defaultAccessGroup: String, accessGroups: [String]) {
            self.bundleID = bundleID
            self.defaultAccessGroup = defaultAccessGroup
            self.accessGroups = accessGroups
        }

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle-id"
            case defaultAccessGroup = "default-access-group"
            case accessGroups = "access-groups"
        }
    }

    public var version: Int
    /// Keyed by unit name.
    public var units: [String: Entry]
    /// What the entries were taken from, for messages, when not a lock file: `revision main`
    /// for `--against main`. Not written to the file.
    public var reference: String?

    enum CodingKeys: String, CodingKey {
        case version, units
    }

    public init(units: [String: Entry] = [:]) {
        self.version = 1
        self.units = units
    }

    public static func entry(for unit: SigningUnit) -> Entry {
        let list = unit.accessGroups
        return Entry(bundleID: unit.bundleID?.value, defaultAccessGroup: list.defaultGroup?.value ?? "",
                     accessGroups: list.entries.map(\.value))
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case invalid(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p, let why): return "cannot read lock file \(p): \(why)"
            case .invalid(let p, let why): return "lock file \(p) is not valid: \(why)"
            }
        }
    }

    public static func load(path: String) throws -> LockFile {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: 16 << 20) } catch {
            throw LoadError.unreadable(path, "\(error)")
        }
        do {
            let lock = try JSONDecoder().decode(LockFile.self, from: Data(bytes))
            guard lock.version == 1 else { throw LoadError.invalid(path, "unsupported version \(lock.version)") }
            return lock
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError.invalid(path, "\(error)")
        }
    }

    /// Sorted, pretty, stable JSON with a final newline.
    public func encoded() -> [UInt8] {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? enc.encode(self)) ?? Data()
        return Array(data) + [0x0A]
    }
}
