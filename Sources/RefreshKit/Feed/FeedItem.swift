/// One entry of a feed: what a row of the list shows.
///
/// Times are microseconds since 1970 (UTC), the engine's unit (``FeedItem/timeMicros``). A feed lists its
/// items newest first; RefreshFeeds' `FeedPageValidator` checks that a source keeps to it, and the engine
/// checks it again across the pages it holds (docs/FEEDS.md).
public struct FeedItem: Hashable, Sendable, Codable {
    /// The item's id, unique within its feed (a SQLite row id, a JSON Feed item's `id`).
    public var id: String
    /// The item's text, plain (a JSON Feed's HTML is reduced to its text).
    public var text: String
    /// Who wrote it, when the source knows.
    public var author: String?
    /// When it was published, microseconds since 1970 (UTC).
    public var timeMicros: Int64
    /// A picture that goes with it, if any.
    public var image: FeedImage?

    /// An item; see the properties.
    public init(id: String, text: String, author: String? = nil, timeMicros: Int64, image: FeedImage? = nil) {
        self.id = id
        self.text = text
        self.author = author
        self.timeMicros = timeMicros
        self.image = image
    }
}
