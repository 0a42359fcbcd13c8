/// One entry of a feed: what a row of the list shows.
///
/// Times are microseconds since 1970 (UTC), the engine's unit (``FeedItem/timeMicros``). A feed lists its
/// items newest first; ``FeedPageValidator`` checks that a source keeps to it.
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

/// A picture of a ``FeedItem``: where it is and, when the source says, its size in pixels.
///
/// The size lets a list reserve the row's height before the picture has loaded. JSON Feed does not carry
/// sizes, so both are optional.
public struct FeedImage: Hashable, Sendable, Codable {
    /// The picture's address (http, https or a path the page can load).
    public var url: String
    /// Its width in pixels, when known.
    public var width: Int?
    /// Its height in pixels, when known.
    public var height: Int?

    /// A picture; see the properties.
    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}
