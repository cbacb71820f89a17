#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

extension LockFile {
    /// A lock file that cannot be used (`RecordFileError`, naming it "lock file").
    public typealias LoadError = RecordFileError

    public static func load(path: String) throws -> LockFile {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: 16 << 20) } catch {
            throw LoadError.unreadable(name: "lock file", path: path, why: "\(error)")
        }
        do {
            var lock = try JSONDecoder().decode(LockFile.self, from: Data(bytes))
            guard lock.version == 1 else { throw LoadError.invalid(name: "lock file", path: path, why: "unsupported version \(lock.version)") }
            lock.path = path
            lock.indexEntries()
            return lock
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError.invalid(name: "lock file", path: path, why: Baseline.describe(error))
        }
    }
}
