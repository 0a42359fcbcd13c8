import CLibWebSockets
import Dispatch
import Foundation
import RefreshFeeds
import RefreshThreads

/// Fetches images off the service thread (docs/FEEDS.md, "Images"): ``ImageLimits/fetchers`` threads take the
/// addresses queued by ``submit(_:)`` one at a time (``ImageFetcher``, blocking), and what they fetched waits in
/// a locked inbox until the service thread takes it (``takeResults()``); each result wakes the loop
/// (`lws_cancel_service`), as ``FeedService`` does for the feed's answers.
///
/// `@unchecked Sendable`: the queue, the inbox and the waker are behind their mutexes; the threads share
/// nothing else.
final class ImageFetchService: @unchecked Sendable {
    /// An address fetched, and what came of it.
    struct Result: Sendable {
        var url: String
        var outcome: Swift.Result<ImageEndpoint.Fetched, ImageEndpoint.FetchFailure>
    }

    let limits: ImageLimits
    /// Where the fetches may connect (the feed's own, docs/FEEDS.md "What is fetched, and what is refused").
    let policy: FetchPolicy
    private let queue = LockedValue<(urls: [String], stopping: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)
    private let inbox = LockedValue<[Result]>([])
    private let waker = LockedValue<ContextWaker?>(nil)
    private var threads: [JoinableThread] = []
    private let finished = DispatchGroup()

    init(limits: ImageLimits, policy: FetchPolicy) {
        self.limits = limits
        self.policy = policy
    }

    /// Starts the fetchers; from now on each result wakes the loop of `context`.
    func start(waking context: OpaquePointer) {
        waker.withLock { $0 = ContextWaker(context: context) }
        for index in 0..<max(1, limits.fetchers) {
            finished.enter()
            threads.append(
                JoinableThread(name: "rk-images-\(index)") { [self] in
                    run()
                    finished.leave()
                })
        }
    }

    /// Fetches `url` (its result comes back through ``takeResults()``).
    func submit(_ url: String) {
        queue.withLock { $0.urls.append(url) }
        ready.signal()
    }

    /// Stops the fetchers once each has finished the fetch it runs (at most the time limit) and joins them
    /// (docs/HARDENING.md, "Threads end before the process does"); what is queued is dropped. Call before the
    /// context is destroyed.
    func stop() {
        waker.withLock { $0 = nil }
        guard !threads.isEmpty else { return }
        queue.withLock {
            $0.stopping = true
            $0.urls.removeAll()
        }
        for _ in threads { ready.signal() }
        // A fetcher still blocked past its time limit is left to the process's end rather than joined.
        if finished.wait(timeout: .now() + .milliseconds(limits.timeoutMilliseconds + 1000)) == .success {
            for thread in threads { thread.join() }
        }
        threads.removeAll()
    }

    /// What was fetched since the last call. Service thread only.
    func takeResults() -> [Result] {
        inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
    }

    private func run() {
        while true {
            ready.wait()
            let next: String?? = queue.withLock { state in
                if state.stopping { return .some(nil) }
                return state.urls.isEmpty ? nil : .some(state.urls.removeFirst())
            }
            guard let taken = next else { continue }
            guard let url = taken else { return }
            let outcome = ImageFetcher.fetch(url, limits: limits, policy: policy)
            inbox.withLock { $0.append(Result(url: url, outcome: outcome)) }
            waker.withLock { waker in
                waker?.wake()
            }
        }
    }
}
