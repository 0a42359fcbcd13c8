import Foundation

/// A value several threads share, each access under a pthread mutex (`NSLock`).
///
/// Used instead of Synchronization's `Mutex` where a worker thread and the service thread meet (the feed's and the
/// images' inboxes, the fetch cache): on Linux that `Mutex` hands a contended lock over through the kernel
/// (priority-inheritance futexes), which ThreadSanitizer cannot see, so it reports the two threads' accesses as
/// a race whenever they contend (docs/HARDENING.md, "Sanitizers").
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value, under the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
