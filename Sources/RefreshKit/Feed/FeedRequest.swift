/// One request to a feed source (RefreshFeeds' `FeedSource`): where the page starts and how many items it may hold at most.
public struct FeedRequest: Hashable, Sendable, Codable {
    /// Where the page starts.
    public var position: FeedPosition
    /// The most items the page may hold (Paging 3's `loadSize`); at least 1.
    public var limit: Int

    /// A request for at most `limit` items from `position` (a `limit` below 1 is taken as 1).
    public init(_ position: FeedPosition, limit: Int) {
        self.position = position
        self.limit = max(1, limit)
    }
}
