import Foundation
public import EntitlintCore

extension LockFile {
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
            var lock = try JSONDecoder().decode(LockFile.self, from: Data(bytes))
            guard lock.version == 1 else { throw LoadError.invalid(path, "unsupported version \(lock.version)") }
            lock.path = path
            lock.indexEntries()
            return lock
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError.invalid(path, "\(error)")
        }
    }
}
