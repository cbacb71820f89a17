#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over a POSIX mutex, for what threads of one run share (caches,
/// budgets, output). Foundation's `NSLock` is not in FoundationEssentials (it would link the
/// whole of Foundation and its ICU data), and `Synchronization.Mutex` needs macOS 15, past the
/// package's macOS 13. The mutex lives at a fixed heap address for the lock's lifetime, as POSIX
/// requires; it is not recursive (a thread taking it twice waits forever, as with `NSLock`).
public final class MutexLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// `body` with the lock held; released however `body` leaves.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
