import Dispatch
import Foundation
import RefreshKit
import RefreshThreads

/// A server's side of a feed source (docs/FEEDS.md, "Serving"): it runs the source off the thread that serves the
/// sessions and brings what it answered back to it. Each answer calls the `wake` given to ``start(wake:)``, so
/// the serving thread takes it at once (libwebsockets' `lws_cancel_service`, or a hop onto a Hummingbird app's
/// event loop), not at its next timer.
///
/// Three kinds of work, none of them on the serving thread:
/// - the sessions' requests, run by a ``FeedWorker`` (one at a time, each within the source's time limit);
/// - the poll for "N new": the source's newest page every ``pollMilliseconds`` and right after a post, run by
///   a second worker, so a slow session request never delays it nor it a session's;
/// - posts (`POST /feed/items`), on a serial queue of their own (``SQLiteFeed`` takes one call at a time, so a
///   post never interleaves with a read).
///
/// What comes back waits in a locked inbox until the serving thread takes it (``takeReports()``).
///
/// `@unchecked Sendable`: the inbox and the waker are behind their mutexes; `tickets` is only touched on the
/// serving thread (``submit(_:session:request:)`` and ``takeReports()`` are called there).
public final class FeedService: @unchecked Sendable {
    /// What the source did, for the serving thread.
    public enum Report {
        /// Session `session`'s request `request` (the engine's id) was answered.
        case answered(session: String, request: Int, answer: FeedAnswer)
        /// The poll's newest page (or why there is none).
        case polled(Result<FeedPage, FeedError>)
        /// Post `ticket` was written (the item) or refused.
        case posted(ticket: UInt64, Result<FeedItem, FeedError>)
    }

    /// The source's address as a person types it.
    public let address: String
    /// Whether the source takes posts (a writable SQLite file, or a ``PostableFeedSource``).
    public let isPostable: Bool
    /// How often the newest page is polled, milliseconds (0: never, except right after a post).
    public let pollMilliseconds: Int
    /// The page size of the poll: how many new items are counted at most.
    public let pollLimit: Int
    /// Whether the last poll failed (serving thread only: its failure is logged once, not every poll).
    public var pollFailing = false

    private let source: any FeedSource
    private var loads: FeedWorker!
    private var polls: FeedWorker!
    private let posts = DispatchQueue(label: "refreshkit-feed-posts")
    private var pollTimer: (any DispatchSourceTimer)?
    private let inbox = LockedValue<[Report]>([])
    /// Wakes the serving thread when a report arrives; set by ``start(wake:)``, cleared by ``stop()`` (so a
    /// libwebsockets context is never woken while it is being destroyed).
    private let waker = LockedValue<(@Sendable () -> Void)?>(nil)
    /// The session requests handed to ``loads``, by the worker's id (serving thread only: an answer can
    /// arrive before `submit` returns the id, but it is only taken on this thread, after `submit`).
    private var tickets: [Int: (session: String, request: Int)] = [:]

    /// Starts the workers for `source`.
    public init(source: any FeedSource, limits: FeedLimits, pollMilliseconds: Int, pollLimit: Int = 20) {
        self.source = source
        self.address = source.address
        self.isPostable = (source as? SQLiteFeed).map { !$0.isReadOnly } ?? (source is PostableFeedSource)
        self.pollMilliseconds = pollMilliseconds
        self.pollLimit = pollLimit
        loads = FeedWorker(source: source, limits: limits, name: "rk-feed") { [weak self] answer in
            self?.arrived(.answered(session: "", request: 0, answer: answer))
        }
        polls = FeedWorker(source: source, limits: limits, name: "rk-feed-poll") { [weak self] answer in
            self?.arrived(.polled(answer.outcome))
        }
    }

    /// Lets the workers call `wake` (from their threads) whenever a report arrives from now on, and starts the
    /// poll.
    public func start(wake: @escaping @Sendable () -> Void) {
        waker.withLock { $0 = wake }
        guard pollMilliseconds > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "refreshkit-feed-poll-timer"))
        timer.schedule(deadline: .now() + .milliseconds(pollMilliseconds), repeating: .milliseconds(pollMilliseconds))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        pollTimer = timer
    }

    /// Stops the poll and the workers (the requests still queued are answered `unavailable`, and dropped:
    /// nothing is woken any more). Call before what `wake` wakes goes away.
    public func stop() {
        waker.withLock { $0 = nil }
        pollTimer?.cancel()
        pollTimer = nil
        loads.stop()
        polls.stop()
        posts.sync {}  // a post being written finishes first
    }

    /// Hands session `session`'s request `request` (the engine's id) to the source; the answer comes back as
    /// ``Report/answered(session:request:answer:)``. Serving thread only.
    public func submit(_ feedRequest: FeedRequest, session: String, request: Int) {
        let id = loads.submit(feedRequest)
        tickets[id] = (session, request)
    }

    /// Asks for the newest page now (after a post, or the timer).
    public func poll() {
        polls.submit(FeedRequest(.newest, limit: pollLimit))
    }

    /// Adds an item on the posts' queue; the outcome comes back as ``Report/posted(ticket:_:)`` (and a poll
    /// follows a written post, so the sessions hear of it).
    public func post(_ post: FeedPost, ticket: UInt64) {
        posts.async { [self] in
            let outcome: Result<FeedItem, FeedError>
            if let postable = source as? any PostableFeedSource, isPostable {
                do throws(FeedError) {
                    outcome = .success(try postable.post(post, timeMicros: Self.nowMicros()))
                } catch {
                    outcome = .failure(error)
                }
            } else {
                outcome = .failure(.rejected("the feed \(address) takes no posts"))
            }
            arrived(.posted(ticket: ticket, outcome))
            if case .success = outcome { poll() }
        }
    }

    /// What arrived since the last call, in order. Serving thread only.
    public func takeReports() -> [Report] {
        let arrived = inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
        var reports: [Report] = []
        for report in arrived {
            guard case .answered(_, _, let answer) = report else {
                reports.append(report)
                continue
            }
            if let ticket = tickets.removeValue(forKey: answer.id) {
                reports.append(.answered(session: ticket.session, request: ticket.request, answer: answer))
            }
        }
        return reports
    }

    private func arrived(_ report: Report) {
        inbox.withLock { $0.append(report) }
        waker.withLock { wake in wake?() }
    }

    /// The wall clock, µs since 1970: a post's time.
    public static func nowMicros() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
