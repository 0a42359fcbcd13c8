/// A source's answer to a ``FeedRequest`` (Paging 3's `LoadResult.Page`): items in the feed's order (the top
/// first, usually the newest), and the cursors to go on from them.
public struct FeedPage: Hashable, Sendable, Codable {
    /// The items, the top first; at most the request's limit.
    public var items: [FeedItem]
    /// Asks for the items older than this page (`nil`: the source cannot say where they would start).
    public var olderCursor: FeedCursor?
    /// Asks for the items newer than this page; after an empty ``FeedPosition/newerThan(_:)`` page, the
    /// request's own cursor, so a caller can ask again later.
    public var newerCursor: FeedCursor?
    /// More items remain in the direction asked: older ones after a ``FeedPosition/newest`` or
    /// ``FeedPosition/olderThan(_:)`` page, newer ones after a ``FeedPosition/newerThan(_:)`` page.
    public var hasMore: Bool
    /// How many items the feed holds above the page's first (newer ones), when the source says: the rows a page
    /// around an item (``FeedPosition/around(_:)``) is placed below, as placeholders loaded back as the reader
    /// scrolls up. `nil` for other pages.
    public var above: Int?

    /// A page; see the properties.
    public init(
        items: [FeedItem], olderCursor: FeedCursor?, newerCursor: FeedCursor?, hasMore: Bool, above: Int? = nil
    ) {
        self.items = items
        self.olderCursor = olderCursor
        self.newerCursor = newerCursor
        self.hasMore = hasMore
        self.above = above
    }
}
