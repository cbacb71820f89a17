#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

extension LockFile {
    /// A lock file that cannot be used (`RecordFileError`, naming it "lock file").
    public typealias LoadError = RecordFileError

    /// The lock file at `path`, read from `trusted` when the run reads its configuration from a
    /// revision (`TrustedFiles`).
    public static func load(path: String, from trusted: TrustedFiles? = nil) throws -> LockFile {
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(path, limit: 16 << 20, in: trusted) } catch {
            let at = trusted.map { " at revision \(OutputText.escape($0.revision))" } ?? ""
            throw LoadError.unreadable(name: "lock file", path: path, why: "\(error)\(at)")
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
