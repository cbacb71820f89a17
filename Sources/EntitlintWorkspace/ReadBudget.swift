import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bytes a run may still read (`max-total-bytes`), shared by the parsing threads and by the
/// reads from git (`GitRepository.blobs`).
public final class ReadBudget: @unchecked Sendable {
    let limit: Int
    private let lock = MutexLock()
    private var used = 0
    private(set) var refused = false

    public init(limit: Int) { self.limit = limit }

    /// Takes `size` bytes from the budget; false (and nothing taken) when that would pass it.
    public func take(_ size: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard size <= limit - used else { refused = true; return false }
        used += size
        return true
    }
}
