import Dispatch
import Foundation
import Logging
import RefreshSessions
import RefreshThreads

/// The thread that writes to the session store (docs/SCALING.md, "The store going away"): it owns the
/// blocking Redis client (`RedisWriter`), takes the host's batches from a queue, and leaves each answer for
/// the service thread to pick up at its next sweep (``takeReports()``). The service thread only ever locks to
/// hand a batch over or to take the answers, never while Redis is being waited on, so a Redis that is
/// unreachable or hangs (`kill -STOP`) costs the sessions nothing; their writes wait here instead.
///
/// Why a thread rather than hiredis's asynchronous client on the service loop: hiredis 0.14 (Debian's) has no
/// timeout in its asynchronous API, so a Redis that hangs would leave writes pending forever unless the
/// adapter built its own timers around it, and its libuv adapter would serve only one of the server's two
/// event loops (`--event-loop poll` has none). The blocking client's timeouts are simple and already tested,
/// and off the loop a 250 ms wait costs nothing.
///
/// `@unchecked Sendable`: the queue, the answers and the flags are only touched with `condition` locked;
/// `writer` only on the store thread.
public final class StoreThread: @unchecked Sendable {
    private let writer: RedisWriter
    private let condition = NSCondition()
    private var queue: [StoreBatch] = []
    private var reports: [StoreReport] = []
    /// A batch is being written (taken from the queue, not answered yet).
    private var writing = false
    private var stopping = false
    /// Set once at start; joined by the first ``stop()`` (docs/HARDENING.md, "Threads end before the process does").
    private var thread: JoinableThread?

    public init(address: StoreAddress, logger: Logger) {
        writer = RedisWriter(address: address, logger: logger)
        thread = JoinableThread(name: "rk-store") { [self] in run() }
    }

    /// Queues `batch`; returns at once.
    public func submit(_ batch: StoreBatch) {
        condition.lock()
        queue.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// The answers that came since the last call, in order.
    public func takeReports() -> [StoreReport] {
        condition.lock()
        defer { condition.unlock() }
        guard !reports.isEmpty else { return [] }
        let taken = reports
        reports = []
        return taken
    }

    /// Waits until every batch handed over is answered, or `seconds` have passed (a shutdown hands the
    /// sessions over before it closes their connections). - Returns: whether every batch is answered.
    public func waitUntilAnswered(seconds: Double) -> Bool {
        let limit = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while writing || !queue.isEmpty {
            if !condition.wait(until: limit) { break }
        }
        return !writing && queue.isEmpty
    }

    /// Writes what is still queued, then ends the thread; the first call returns when it has ended, any
    /// later one at once.
    public func stop() {
        condition.lock()
        let first = !stopping
        stopping = true
        condition.broadcast()
        condition.unlock()
        if first { thread?.join() }
    }

    private func run() {
        while let batch = next() {
            let report = writer.write(batch)
            condition.lock()
            reports.append(report)
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next batch to write; `nil` once stopping with nothing queued.
    private func next() -> StoreBatch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !stopping { condition.wait() }
        guard !queue.isEmpty else { return nil }
        writing = true
        return queue.removeFirst()
    }
}
