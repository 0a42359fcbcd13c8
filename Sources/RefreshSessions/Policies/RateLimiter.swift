/// A per-connection token bucket for WebSocket messages, with a flood detector on top.
///
/// Each message takes one token; tokens come back at ``ratePerSecond`` up to ``burst``. A message that
/// finds the bucket empty is refused (read and dropped; while a release may pass, a short one is decoded to find
/// a touch's release, one of which a ``noticeInterval`` is let through: ``passRelease(at:)``). The client is told at most once
/// per ``noticeInterval`` (`error rate_limited`), and a client that keeps being refused for
/// ``closeAfter`` (an episode of refusals with no pause longer than ``noticeInterval``) is closed with
/// 1008 (policy violation). Time is passed in (lws microseconds), so tests drive it by hand.
struct RateLimiter: Sendable, Equatable {
    /// What to do with one message.
    enum Decision: Equatable, Sendable {
        /// Process it.
        case accept
        /// Drop it; when `notify`, tell the client (`rate_limited`) and log it.
        case refuse(notify: Bool)
        /// The client has flooded for ``RateLimiter/closeAfter``: close the connection with 1008.
        case close
    }

    // What an accepted message reads and writes first (a ``Connection`` keeps its hot fields before the rest).
    let ratePerSecond: Double
    let burst: Double
    private var tokens: Double
    private var updated: Int64?

    /// Microseconds of continuous refusals before the connection is closed.
    let closeAfter: Int64
    /// Microseconds between two `rate_limited` notices; also the pause that ends a flood episode.
    let noticeInterval: Int64
    private var episodeStart: Int64?
    private var lastRefusal: Int64?
    private var lastNotice: Int64?
    /// Messages refused since the connection opened (logged when it closes).
    private(set) var refused: UInt64 = 0
    /// When a refused release was last let through (``passRelease(at:)``).
    private var releasePassed: Int64?

    init(ratePerSecond: Int, burst: Int, closeAfterSeconds: Int, noticeIntervalMicroseconds: Int64 = 1_000_000) {
        self.ratePerSecond = Double(max(1, ratePerSecond))
        self.burst = Double(max(1, burst))
        closeAfter = Int64(max(1, closeAfterSeconds)) * 1_000_000
        noticeInterval = noticeIntervalMicroseconds
        tokens = self.burst
    }

    /// One message arrived at `now` (µs, the transport's clock).
    mutating func admit(at now: Int64) -> Decision {
        if let updated, now > updated {
            tokens = min(burst, tokens + Double(now - updated) * ratePerSecond / 1_000_000)
        }
        updated = max(updated ?? now, now)
        if tokens >= 1 {
            tokens -= 1
            return .accept
        }
        return refuse(at: now)
    }

    /// A message refused at `now`, by this bucket or by its address's (``AddressRates``): the same episode, notice
    /// and close.
    mutating func refuse(at now: Int64) -> Decision {
        refused &+= 1
        if let last = lastRefusal, now - last <= noticeInterval, episodeStart != nil {
            // The flood goes on.
        } else {
            episodeStart = now
        }
        lastRefusal = now
        if let start = episodeStart, now - start >= closeAfter { return .close }
        let notify = lastNotice.map { now - $0 >= noticeInterval } ?? true
        if notify { lastNotice = now }
        return .refuse(notify: notify)
    }

    /// Whether ``passRelease(at:)`` would let a release through at `now`: asked first, so that a refused message
    /// is not even decoded while the limiter would drop it anyway.
    func mayPassRelease(at now: Int64) -> Bool {
        releasePassed.map { now - $0 >= noticeInterval } ?? true
    }

    /// A message ``admit(at:)`` refused at `now` ends a touch (its `end` or `cancel`): whether to process it
    /// after all, which the limiter allows once a ``noticeInterval``. Dropping it would leave the session
    /// dragging until the page's next touch, and a page's input that queued up (a busy server, a network that
    /// delivers in bursts) is judged as a flood when it is read: its release, read with the moves before it,
    /// then finds the bucket they emptied. A flood of releases still costs one input a second at most.
    mutating func passRelease(at now: Int64) -> Bool {
        guard mayPassRelease(at: now) else { return false }
        releasePassed = now
        refused &-= 1
        return true
    }
}
