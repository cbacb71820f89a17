import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work spread over threads (`--jobs`): `jobs` workers at most, 0 meaning one per core.
/// Results are written by index and read in index order, so output never depends on it.
public enum Parallel {
    public static func forEach(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> Void) {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let workers = jobs <= 0 ? cores : min(jobs, count)
        if workers <= 1 || count <= 8 {
            for i in 0..<count { body(i) }
        } else if workers >= cores {
            // Dispatch's own split: one thread per core at most.
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var i = w
                while i < count { body(i); i += workers }
            }
        }
    }
}
