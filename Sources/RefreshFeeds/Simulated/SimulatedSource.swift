import RefreshKit
import Synchronization

/// `simulated`: the engine's ``RefreshKit/SimulatedFeed`` as a ``FeedSource``, for tests, the bench and
/// deterministic demos.
///
/// Item `n` reads "Item n", has no author, and is dated `n` minutes after ``epochMicros``, so times follow
/// the ids; a cursor is an item's id. Answers come at once: the engine simulates latency and failures
/// itself (``RefreshKit/FeedConfiguration``).
public final class SimulatedSource: FeedSource {
    /// The time of item 0, µs since 1970 (2026-01-01T00:00:00Z): fixed, so every run sees the same items.
    public static let epochMicros: Int64 = 1_767_225_600_000_000

    private let feed: Mutex<SimulatedFeed>

    /// A source over `feed` as it is now.
    public init(feed: SimulatedFeed) {
        self.feed = Mutex(feed)
    }

    /// A source over the demo's feed (``RefreshKit/FeedConfiguration``'s defaults) with `seed`.
    public convenience init(configuration: FeedConfiguration = FeedConfiguration(), seed: UInt64 = 1) {
        self.init(feed: SimulatedFeed(configuration: configuration, seed: seed))
    }

    /// `simulated`.
    public var address: String { "simulated" }

    /// New items arrive at the top (``RefreshKit/SimulatedFeed/publishNewItems()``).
    public func publishNewItems() {
        feed.withLock { $0.publishNewItems() }
    }

    /// The page at `request.position`.
    public func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let feed = feed.withLock { $0 }
        switch request.position {
        case .newest:
            return page(feed.page(olderThan: nil, size: request.limit), feed: feed)
        case .olderThan(let cursor):
            return page(feed.page(olderThan: try Self.id(cursor), size: request.limit), feed: feed)
        case .newerThan(let cursor):
            let id = try Self.id(cursor)
            let first = max(id + 1, feed.oldestID)
            let last = min(feed.newestID, id + request.limit)
            guard first <= last else {
                return FeedPage(items: [], olderCursor: cursor, newerCursor: cursor, hasMore: false)
            }
            let items = (first...last).reversed().map(Self.item)
            return FeedPage(
                items: items, olderCursor: FeedCursor(String(first)), newerCursor: FeedCursor(String(last)),
                hasMore: last < feed.newestID)
        }
    }

    private func page(_ answer: (ids: ClosedRange<Int>?, hasMore: Bool), feed: SimulatedFeed) -> FeedPage {
        guard let ids = answer.ids else {
            return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
        }
        return FeedPage(
            items: ids.reversed().map(Self.item), olderCursor: FeedCursor(String(ids.lowerBound)),
            newerCursor: FeedCursor(String(ids.upperBound)), hasMore: answer.hasMore)
    }

    private static func item(_ id: Int) -> FeedItem {
        FeedItem(id: String(id), text: "Item \(id)", timeMicros: epochMicros + Int64(id) * 60_000_000)
    }

    private static func id(_ cursor: FeedCursor) throws(FeedError) -> Int {
        guard let id = Int(cursor.value) else { throw .badCursor(cursor.value) }
        return id
    }
}
