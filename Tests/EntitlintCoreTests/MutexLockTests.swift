import Dispatch
import EntitlintCore
import XCTest

final class MutexLockTests: XCTestCase {
    /// Increments from many threads at once, each a read then a write: without mutual exclusion
    /// some would be lost.
    func testIncrementsUnderTheLockAreNeverLost() {
        final class Counter: @unchecked Sendable {
            let lock = MutexLock()
            var value = 0
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                counter.lock.withLock {
                    let v = counter.value
                    counter.value = v + 1
                }
            }
        }
        XCTAssertEqual(counter.value, 160_000)
        counter.lock.lock()
        counter.value += 1
        counter.lock.unlock()
        XCTAssertEqual(counter.lock.withLock { counter.value }, 160_001)
    }

    /// What `body` throws leaves `withLock`, and the lock is free again.
    func testWithLockReleasesWhenTheBodyThrows() {
        struct Failure: Error {}
        let lock = MutexLock()
        XCTAssertThrowsError(try lock.withLock { () throws(Failure) in throw Failure() })
        XCTAssertEqual(lock.withLock { 7 }, 7)
    }
}
