import Dispatch
import Foundation
import RefreshKit
import RefreshThreads

/// The thread that runs a ``FeedSource``'s blocking calls, one at a time, off the caller's thread (as the
/// server's store thread runs Redis): ``submit(_:)`` queues a request and returns its id at once; the answer
/// comes later through `deliver`, with that id and the time it took.
///
/// Every page is checked by a ``FeedPageValidator`` first, so a source's bad page arrives as a
/// `FeedError`. A request not answered within ``FeedLimits/timeoutMs`` of its submission is answered with
/// `FeedError/timedOut(limitMs:)` at that moment, even while the source still blocks; the source's late
/// page is then dropped. `deliver` is called on the worker's thread or on its timer's queue, one answer at
/// a time (never two at once), never with the queue's lock held, and never twice for one id.
///
/// `@unchecked Sendable`: the queue, the pending requests and the flags are only touched with `condition`
/// locked; the source is only called on the worker's thread.
public final class FeedWorker: @unchecked Sendable {
    private struct Job {
        var id: Int
        var request: FeedRequest
        var submitted: ContinuousClock.Instant
    }

    private let source: any FeedSource
    private let validator: FeedPageValidator
    private let deliver: @Sendable (FeedAnswer) -> Void
    private let condition = NSCondition()
    /// Held while `deliver` runs, so answers from the thread and the timers never overlap.
    private let delivering = NSLock()
    private let timers = DispatchQueue(label: "refreshkit-feed-timers")
    private var queue: [Job] = []
    /// Submitted and not answered yet (queued or running), by id.
    private var pending: [Int: Job] = [:]
    private var nextID = 1
    private var stopping = false
    /// Set once at start; joined by the first ``stop()`` (docs/HARDENING.md, "Threads end before the process does").
    private var thread: JoinableThread?

    /// Starts a worker thread named `name` for `source`, checking pages against `limits`.
    public init(
        source: any FeedSource, limits: FeedLimits = FeedLimits(), name: String = "rk-feed",
        deliver: @escaping @Sendable (FeedAnswer) -> Void
    ) {
        self.source = source
        self.validator = FeedPageValidator(limits: limits)
        self.deliver = deliver
        thread = JoinableThread(name: name) { [self] in run() }
    }

    /// The address of the source this worker runs.
    public var address: String { source.address }

    /// Queues `request`; returns its id at once (ids count up from 1).
    @discardableResult
    public func submit(_ request: FeedRequest) -> Int {
        condition.lock()
        let job = Job(id: nextID, request: request, submitted: ContinuousClock.now)
        nextID += 1
        if stopping {
            condition.unlock()
            answer(job, .failure(.unavailable("the feed worker has stopped")))
            return job.id
        }
        queue.append(job)
        pending[job.id] = job
        condition.broadcast()
        condition.unlock()
        let limit = validator.limits.timeoutMs
        timers.asyncAfter(deadline: .now() + .milliseconds(limit)) { [self] in
            if claim(job.id) { answer(job, .failure(.timedOut(limitMs: limit))) }
        }
        return job.id
    }

    /// Finishes the call running now, answers every queued request with `FeedError/unavailable(_:)`, and
    /// ends the thread; the first call returns when it has ended, any later one at once.
    public func stop() {
        condition.lock()
        let first = !stopping
        stopping = true
        let dropped = queue
        queue = []
        for job in dropped { pending[job.id] = nil }
        condition.broadcast()
        condition.unlock()
        for job in dropped { answer(job, .failure(.unavailable("the feed worker has stopped"))) }
        if first { thread?.join() }
    }

    private func run() {
        while let job = next() {
            let outcome: Result<FeedPage, FeedError>
            do throws(FeedError) {
                let page = try source.load(job.request)
                outcome = .success(try validator.validate(page, for: job.request))
            } catch {
                outcome = .failure(error)
            }
            if claim(job.id) { answer(job, outcome) }
        }
    }

    /// The next job to run that has not timed out in the queue; `nil` once stopping.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            guard !stopping, !queue.isEmpty else { return nil }
            let job = queue.removeFirst()
            if pending[job.id] != nil { return job }
        }
    }

    /// Takes `id` out of the pending requests; whoever takes it answers it.
    private func claim(_ id: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return pending.removeValue(forKey: id) != nil
    }

    private func answer(_ job: Job, _ outcome: Result<FeedPage, FeedError>) {
        let elapsed = ContinuousClock.now - job.submitted
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        delivering.withLock {
            deliver(FeedAnswer(id: job.id, request: job.request, outcome: outcome, durationMicros: micros))
        }
    }
}
