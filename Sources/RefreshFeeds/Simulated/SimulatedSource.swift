import RefreshKit
import Synchronization

/// `simulated`: the engine's `SimulatedFeed` as a ``FeedSource``, for tests, the bench and deterministic demos.
///
/// Item `n` is `SimulatedFeed.item(_:)`, the newest dated at ``epochMicros`` and each older one 7 minutes before,
/// so times follow the ids; a cursor is an item's id. Answers come at once: the engine simulates latency and
/// failures itself (`FeedConfiguration`).
public final class SimulatedSource: FeedSource {
    /// The time of the newest item at the start, µs since 1970 (`SimulatedFeed.epochMicros`).
    public static let epochMicros = SimulatedFeed.epochMicros

    private let feed: Mutex<SimulatedFeed>

    /// A source over `feed` as it is now.
    public init(feed: SimulatedFeed) {
        self.feed = Mutex(feed)
    }

    /// A source over the demo's feed (`FeedConfiguration`'s defaults) with `seed`.
    public convenience init(configuration: FeedConfiguration = FeedConfiguration(), seed: UInt64 = 1) {
        self.init(feed: SimulatedFeed(configuration: configuration, seed: seed))
    }

    /// `simulated`.
    public var address: String { "simulated" }

    /// New items arrive at the top (`SimulatedFeed.publishNewItems()`).
    public func publishNewItems() {
        feed.withLock { $0.publishNewItems() }
    }

    /// The page at `request.position` (`SimulatedFeed.page(_:)`).
    public func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let feed = feed.withLock { $0 }
        if case .olderThan(let cursor) = request.position, Int(cursor.value) == nil { throw .badCursor(cursor.value) }
        if case .newerThan(let cursor) = request.position, Int(cursor.value) == nil { throw .badCursor(cursor.value) }
        let page = feed.page(request)
        if case .around(let id) = request.position, page.items.isEmpty { throw .unknownItem(id) }
        return page
    }
}
